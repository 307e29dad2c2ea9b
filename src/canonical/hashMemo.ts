/**
 * Hashes of requests already hashed, found again without serializing them. A replay hashes
 * its request on every call, and the canonical serialization (a sorted deep copy, its JSON,
 * SHA-256) is the largest part of a hit — most of all on a CPU whose caches went cold while
 * the process waited (BENCHMARKS.md, table B: the same hit with its hash given took 1.25×
 * an InMemoryCache hit instead of 1.65×).
 *
 * Exact, never approximate: a request is given a remembered hash only when it is the same
 * JSON tree as the request that hash was computed from (`sameJson`: the same plain objects
 * and arrays, the same keys in the same order, the same primitive values), and the same
 * tree always has the same canonical form. Anything else — another key order, an undefined
 * member, a class instance, NaN — is hashed in full, as without the memo. The lookup key
 * (the chat cache passes core's prompt string) only narrows where to look: a few requests
 * can share one (the same question to another model, or with another image), and each is
 * compared in full. What is remembered is a copy no caller ever sees, so none can change it,
 * and only of a request that is a plain JSON tree.
 */
import { requestHash } from "./json";
import { copyJson } from "../store/parsedCache";

/** Keys longer than this are not remembered (a long conversation's prompt): those requests are hashed in full. */
const MAX_KEY_LENGTH = 16_384;
const MAX_KEYS = 1000;
const MAX_PER_KEY = 4;

interface Remembered {
  request: unknown;
  hash: string;
}

export class RequestHashes {
  private readonly byKind = new Map<string, Map<string, Remembered[]>>();
  private keys = 0;
  /** How often a hash was found again (`hits`) or computed (`computed`); read by tests. */
  readonly counts = { hits: 0, computed: 0 };

  /** `requestHash(kind, request)`, found again when this exact request was hashed under `key` before. */
  hash(kind: string, request: unknown, key: string): string {
    if (key.length > MAX_KEY_LENGTH) return this.compute(kind, request);
    let byKey = this.byKind.get(kind);
    const seen = byKey?.get(key);
    if (seen) {
      for (const r of seen) {
        if (sameJson(request, r.request)) {
          this.counts.hits++;
          return r.hash;
        }
      }
    }
    const hash = this.compute(kind, request);
    // only a plain JSON tree is remembered: a copy of anything else (a Date, a class instance)
    // would not be the tree that was hashed, and could match another request wrongly
    const copy = copyJson(request);
    if (!sameJson(request, copy)) return hash;
    // never handed out, so not frozen (a frozen object's keys are slower to list, on every lookup)
    const remembered = { request: copy, hash };
    if (seen) {
      if (seen.length >= MAX_PER_KEY) seen.shift();
      seen.push(remembered);
      return hash;
    }
    if (!byKey) this.byKind.set(kind, (byKey = new Map()));
    if (this.keys >= MAX_KEYS) this.forgetOldest();
    byKey.set(key, [remembered]);
    this.keys++;
    return hash;
  }

  private compute(kind: string, request: unknown): string {
    this.counts.computed++;
    return requestHash(kind, request);
  }

  private forgetOldest(): void {
    for (const byKey of this.byKind.values()) {
      const oldest = byKey.keys().next();
      if (oldest.done) continue;
      byKey.delete(oldest.value);
      this.keys--;
      return;
    }
  }
}

/**
 * True when `a` and `b` are the same JSON tree: plain objects (or null-prototype ones) with
 * the same keys in the same order, arrays of the same length, and primitives that are `===`
 * (so NaN never matches). Whatever else — a class instance, a Date, a function — is not
 * compared and counts as different. Same tree, same canonical form, same hash.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a !== "object" || a === null) return a === b && typeof a !== "function" && typeof a !== "symbol" && typeof a !== "bigint";
  if (typeof b !== "object" || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i];
    if (k !== kb[i] || !sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}

function isPlain(o: object): boolean {
  const proto: unknown = Object.getPrototypeOf(o);
  return proto === Object.prototype || proto === null;
}
