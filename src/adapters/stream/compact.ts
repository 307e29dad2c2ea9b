/**
 * The on-disk form of a `chat_stream` response (schema version 2): what repeats on every
 * chunk is stored once. The most common value of each member of `message`, `generationInfo`,
 * `newToken` and `shape` (when more than half the chunks share it) goes into `common`; each chunk
 * keeps only what differs from it (a member `common` has and the chunk lacks is named in the
 * chunk's `drop`, as `"part.member"`; a part the chunk lacks altogether is `null`), its `text`
 * (left out when empty), and its `message.content` only when it is not its text. Reading puts every chunk back exactly as it was recorded. A response with no
 * `common` (0.1.0's form) reads as it is. Byte budget: a text chunk costs its text plus about
 * 35 bytes (pinned by test/unit/stream.compact.test.ts: ≤ 60 per chunk).
 */
import { canonicalJson, defineMember } from "../../canonical/json";
import type { StoredChunk, StreamResponse } from "./chunks";

type Rec = Record<string, unknown>;
const PARTS = ["message", "generationInfo", "newToken", "shape"] as const;

export interface CompactStream {
  common?: Partial<Record<(typeof PARTS)[number], Rec>>;
  chunks: Rec[];
}

/** The on-disk form; a response that is not `{ chunks: [objects] }` (a redactor's doing) is written as it is. */
export function compactStream(response: StreamResponse): CompactStream | StreamResponse {
  if (!isRec(response) || !Array.isArray(response.chunks) || !response.chunks.every(isRec)) return response;
  const chunks = response.chunks as unknown as Rec[];
  const common: CompactStream["common"] = {};
  for (const part of PARTS) {
    const shared = sharedMembers(
      chunks.map((c) => (isRec(c[part]) ? (c[part] as Rec) : undefined)),
      part === "message",
    );
    if (Object.keys(shared).length) common[part] = shared;
  }
  const out: Rec[] = chunks.map((c) => {
    const o: Rec = {};
    const drop: string[] = [];
    if (c.text !== "") o.text = c.text;
    for (const part of PARTS) {
      const own = isRec(c[part]) ? (c[part] as Rec) : undefined;
      const base = common[part];
      if (own === undefined) {
        if (base) o[part] = null;
        continue;
      }
      const delta = overlay(base ?? {}, own, (k) => drop.push(`${part}.${k}`));
      if (part === "message" && typeof own.content === "string" && own.content === c.text) delete delta.content;
      if (Object.keys(delta).length || (!base && part !== "message")) o[part] = delta;
    }
    if (drop.length) o.drop = drop;
    return o;
  });
  return Object.keys(common).length ? { common, chunks: out } : { chunks: out };
}

/** The chunks as recorded. A response that is not in this form is returned as it is (the kind's check then reports it). */
export function expandStream(response: unknown): unknown {
  if (!isRec(response) || !Array.isArray(response.chunks)) return response;
  const common = response.common === undefined ? {} : response.common;
  if (!isRec(common) || !PARTS.every((p) => common[p] === undefined || isRec(common[p]))) return response;
  if (!response.chunks.every(isRec)) return response;
  const chunks = (response.chunks as Rec[]).map((c) => {
    const out: Rec = { text: c.text === undefined ? "" : c.text };
    const drop = new Set(Array.isArray(c.drop) ? c.drop : []);
    for (const part of PARTS) {
      const base = common[part] as Rec | undefined;
      const own = c[part];
      if (own === null || (own === undefined && !base && part !== "message")) continue;
      const full: Rec = {};
      for (const [k, v] of Object.entries(base ?? {})) if (!drop.has(`${part}.${k}`)) defineMember(full, k, v);
      for (const [k, v] of Object.entries(isRec(own) ? own : {})) defineMember(full, k, v);
      if (part === "message" && full.content === undefined && typeof out.text === "string") full.content = out.text;
      out[part] = full;
    }
    return out;
  });
  return { chunks: chunks as unknown as StoredChunk[] };
}

/** Members whose value more than half the parts share (message: not `content`, which pairs with text). */
function sharedMembers(parts: (Rec | undefined)[], isMessage: boolean): Rec {
  const counts = new Map<string, Map<string, { n: number; v: unknown }>>();
  for (const p of parts) {
    if (!p) continue;
    for (const [k, v] of Object.entries(p)) {
      if (isMessage && k === "content") continue;
      const byValue = counts.get(k) ?? new Map();
      const key = canonicalJson(v);
      byValue.set(key, { n: (byValue.get(key)?.n ?? 0) + 1, v });
      counts.set(k, byValue);
    }
  }
  const shared: Rec = {};
  for (const [k, byValue] of counts) {
    const best = [...byValue.values()].sort((a, b) => b.n - a.n)[0];
    if (best.n * 2 > parts.length) defineMember(shared, k, best.v);
  }
  return shared;
}

/** What `own` changes relative to `base`: its differing members; `dropped` is told each member of `base` it lacks. */
function overlay(base: Rec, own: Rec, dropped: (key: string) => void): Rec {
  const out: Rec = {};
  for (const k of Object.keys(base)) if (!(k in own)) dropped(k);
  for (const [k, v] of Object.entries(own)) if (!(k in base) || canonicalJson(base[k]) !== canonicalJson(v)) defineMember(out, k, v);
  return out;
}

function isRec(v: unknown): v is Rec {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
