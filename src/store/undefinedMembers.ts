/**
 * Members that held `undefined`, which JSON cannot hold: named by JSON pointers (RFC 6901,
 * `/usage_metadata/input_token_details/audio`) when a response is recorded, and put back when it
 * is replayed. A live answer has them (ChatOpenAI's `input_token_details: { audio: undefined,
 * cache_read: undefined }`, a stream chunk's `service_tier: undefined`), and what compares
 * objects member by member sees them: `toStrictEqual`, a snapshot (`"audio": undefined`), `"k" in o`.
 */
import { defineMember } from "../canonical/json";

type Rec = Record<string, unknown>;

/**
 * The pointers (under `prefix`) of the members of `value`, at any depth, whose value is
 * undefined: object members and array elements, as JSON's writer drops the one and writes the
 * other as null. It stops where JSON does: at a value with a `toJSON` (a Date), and at a cycle.
 */
export function undefinedPointers(value: unknown, prefix: string, out: string[] = [], seen = new Set<object>()): string[] {
  if (value === null || typeof value !== "object" || seen.has(value)) return out;
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return out;
  seen.add(value);
  const keys = Array.isArray(value) ? value.keys() : Object.keys(value);
  for (const k of keys) {
    const v = (value as Rec)[k as string];
    const at = pointer(prefix, String(k));
    if (v === undefined) out.push(at);
    else undefinedPointers(v, at, out, seen);
  }
  seen.delete(value);
  return out;
}

/**
 * Puts back, in `root` (the replay's own objects), each member `pointers` names as undefined: an
 * object member it lacks, an array element written as null. A member with a value keeps it (a
 * redactor may have written one), and a pointer whose parent is gone (edited out) is skipped.
 */
export function restoreUndefined(root: Rec, pointers: unknown): void {
  if (!Array.isArray(pointers)) return;
  for (const path of parsedPointers(pointers)) {
    const last = path[path.length - 1];
    let parent: unknown = root;
    for (let i = 0; i < path.length - 1; i++) {
      const k = path[i];
      parent = parent !== null && typeof parent === "object" && Object.hasOwn(parent, k) ? (parent as Rec)[k] : undefined;
    }
    if (parent === null || typeof parent !== "object") continue;
    if (Array.isArray(parent)) {
      const i = Number(last);
      if (Number.isInteger(i) && i >= 0 && parent[i] === null) parent[i] = undefined;
    } else if (!Object.hasOwn(parent, last)) {
      // a plain assignment keeps the object's fast shape (a replay's hot path); defineMember only where it would set a prototype
      if (last === "__proto__") defineMember(parent as Rec, last, undefined);
      else (parent as Rec)[last] = undefined;
    }
  }
}

/** Each pointer's keys, parsed once per list: a kept fixture's list is the same array on every replay. */
const parsed = new WeakMap<readonly unknown[], string[][]>();
function parsedPointers(pointers: readonly unknown[]): string[][] {
  let out = parsed.get(pointers);
  if (!out) {
    out = pointers.flatMap((p) => (typeof p === "string" && p.startsWith("/") ? [p.slice(1).split("/").map(unescape)] : []));
    parsed.set(pointers, out);
  }
  return out;
}

const escape = (key: string) => key.replace(/~/g, "~0").replace(/\//g, "~1");
const unescape = (key: string) => key.replace(/~1/g, "/").replace(/~0/g, "~");

/** The pointer of member `key` under `prefix`. */
export function pointer(prefix: string, key: string): string {
  return `${prefix}/${escape(key)}`;
}
