/**
 * What replay needs of a stored message (a chat generation's, a stream chunk's) before it hands
 * its members to LangChain: content that is text or a list of blocks, metadata that is an
 * object, tool calls that are a list, a name and id that are strings. And, for a stream, chunks
 * whose metadata LangChain can merge (core's `_mergeDicts` throws when one member has two
 * types). Each problem is a predicate of the file naming the field, so a damaged fixture is a
 * `VcrFixtureError` naming its file rather than a TypeError from inside LangChain.
 */
import { isRec } from "./text";
import type { Rec } from "./types";

const OBJECTS = ["response_metadata", "additional_kwargs", "usage_metadata"] as const;
const LISTS = ["tool_calls", "invalid_tool_calls", "tool_call_chunks"] as const;
const STRINGS = ["name", "id"] as const;

/** What is wrong with the stored message at `at` (e.g. `response.generations[0].message`), or undefined. */
export function messageProblem(m: Rec, at: string): string | undefined {
  const c = m.content;
  if (typeof c !== "string") {
    if (!Array.isArray(c)) return `has a "${at}.content" that is neither text nor a list of content blocks (found ${found(c)})`;
    const bad = c.findIndex((b) => typeof b !== "string" && !isRec(b));
    if (bad >= 0) return `has a "${at}.content[${bad}]" that is not a content block (found ${found(c[bad])})`;
  }
  for (const k of OBJECTS) if (m[k] != null && !isRec(m[k])) return `has a "${at}.${k}" that is not an object (found ${found(m[k])})`;
  for (const k of LISTS) {
    const v = m[k];
    if (v == null) continue;
    if (!Array.isArray(v)) return `has a "${at}.${k}" that is not a list (found ${found(v)})`;
    const bad = v.findIndex((t) => !isRec(t));
    if (bad >= 0) return `has a "${at}.${k}[${bad}]" that is not an object (found ${found(v[bad])})`;
  }
  for (const k of STRINGS) if (m[k] != null && typeof m[k] !== "string") return `has a "${at}.${k}" that is not a string (found ${found(m[k])})`;
  const u = m.undefined_kwargs;
  if (u !== undefined && (!Array.isArray(u) || u.some((k) => typeof k !== "string"))) {
    return `has a "${at}.undefined_kwargs" that is not a list of names (found ${found(u)})`;
  }
  return undefined;
}

/** What is wrong with a generation's or a chunk's `shape` (adapters/chat/shape.ts) at `at`, or undefined: each of its members is a list of strings. */
export function shapeProblem(shape: unknown, at: string): string | undefined {
  if (shape === undefined) return undefined;
  if (!isRec(shape)) return `has a "${at}" that is not an object (found ${found(shape)})`;
  for (const k of ["fields", "metadata", "undefined"] as const) {
    const v = shape[k];
    const strings = v === undefined || (Array.isArray(v) && v.every((x) => typeof x === "string"));
    if (!strings) return `has a "${at}.${k}" that is not a list of strings (found ${found(v)})`;
  }
  return undefined;
}

/** The first problem of the generations' `shape`s (a response `generationsProblem` accepted), or undefined. */
export function generationShapesProblem(generations: readonly { shape?: unknown }[]): string | undefined {
  for (const [i, g] of generations.entries()) {
    const problem = shapeProblem(g.shape, `response.generations[${i}].shape`);
    if (problem) return problem;
  }
  return undefined;
}

/**
 * Where merging the chunks' `member` (as AIMessageChunk.concat merges it, with core's
 * `_mergeDicts`) would meet one field with two types, or undefined. `acc` is this check's own
 * tree of what the earlier chunks merged to (only types matter: no value is added).
 */
export function mergeProblem(acc: Rec, right: Rec, at: string): string | undefined {
  for (const [k, v] of Object.entries(right)) {
    if (v == null) continue;
    const field = `${at}.${k}`;
    const left = acc[k];
    if (left == null) {
      acc[k] = isRec(v) ? {} : v;
      if (isRec(v)) {
        const p = mergeProblem(acc[k] as Rec, v, field);
        if (p) return p;
      }
      continue;
    }
    if (typeof left !== typeof v || Array.isArray(left) !== Array.isArray(v)) {
      return `has a "${field}" that is ${found(v)} where an earlier chunk's is ${found(left)}: LangChain cannot merge the chunks`;
    }
    if (isRec(left)) {
      const p = mergeProblem(left, v as Rec, field);
      if (p) return p;
    }
  }
  return undefined;
}

/** A short name of what a field holds, for a message. */
function found(v: unknown): string {
  if (v === undefined || v === null) return String(v);
  if (Array.isArray(v)) return "an array";
  if (typeof v === "object") return "an object";
  const text = JSON.stringify(v);
  return `${typeof v === "string" ? "a string" : `a ${typeof v}`} ${text.length > 40 ? text.slice(0, 37) + "..." : text}`;
}
