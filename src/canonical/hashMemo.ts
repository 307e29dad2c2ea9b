/**
 * Hashes of requests already hashed, found again without serializing them. A replay hashes
 * its request on every call, and the canonical serialization (a sorted deep copy, its JSON,
 * SHA-256) was the largest part of a hit on a CPU whose caches went cold while the process
 * waited (BENCHMARKS.md: 1.64× an InMemoryCache hit before, 1.27–1.37× after).
 *
 * Exact, never approximate: a request is given a remembered hash only when it is the same
 * plain JSON tree as the request that hash was computed from (`sameJson.ts`), and the same
 * tree always has the same canonical form. Anything else — another key order, an undefined
 * member, a class instance, NaN — is hashed in full, as without the memo. The lookup key (the
 * chat cache passes core's prompt string) only narrows where to look: a few requests can share
 * one (the same question to another model, or with another image), and each is compared in
 * full. What is remembered is a private copy no caller ever sees, taken before hashing (the
 * hash is the copy's), and only of a request that is a plain JSON tree. Not frozen: a frozen
 * object's keys are slower to list, on every lookup.
 */
import { copyJson } from "./copy";
import { requestHash } from "./json";
import { sameJson } from "./sameJson";

/** Keys longer than this are not remembered (a long conversation's prompt): those requests are hashed in full. */
const MAX_KEY_LENGTH = 16_384;
/** Requests remembered at most, over all keys (the oldest key goes first). */
const MAX_ENTRIES = 1000;
const MAX_PER_KEY = 4;

interface Remembered {
  request: unknown;
  hash: string;
}

export class RequestHashes {
  private readonly byKind = new Map<string, Map<string, Remembered[]>>();
  private entries = 0;
  /** @internal how often a hash was found again (`hits`) or computed (`computed`); read by tests. */
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
    const copy = copyJson(request);
    if (!sameJson(request, copy)) return this.compute(kind, request); // not a plain JSON tree: never remembered
    const hash = this.compute(kind, copy);
    const remembered = { request: copy, hash };
    if (seen) {
      if (seen.length >= MAX_PER_KEY) seen.shift();
      else this.entries++;
      seen.push(remembered);
    } else {
      if (!byKey) this.byKind.set(kind, (byKey = new Map()));
      byKey.set(key, [remembered]);
      this.entries++;
    }
    while (this.entries > MAX_ENTRIES) this.forgetOldest();
    return hash;
  }

  private compute(kind: string, request: unknown): string {
    this.counts.computed++;
    return requestHash(kind, request);
  }

  /** Drops the oldest key of the first kind that has one. */
  private forgetOldest(): void {
    for (const byKey of this.byKind.values()) {
      const oldest = byKey.entries().next();
      if (oldest.done) continue;
      byKey.delete(oldest.value[0]);
      this.entries -= oldest.value[1].length;
      return;
    }
  }
}
