/**
 * Hashes of requests already hashed, found again without building or serializing the
 * request. A replay looks its request up on every call, and building the canonical request
 * (the model's parameters, the messages) and its canonical serialization (a sorted deep
 * copy, its JSON, SHA-256) were the largest part of a hit on a CPU whose caches went cold
 * while the process waited (BENCHMARKS.md).
 *
 * A request is described by its parts: everything its canonical form is computed from, and
 * nothing else (for a chat call, the model's raw `invocationParams()`, the fallback model
 * name, the canonical messages). The canonical request is a function of its parts, so the
 * same parts always give the same hash.
 *
 * Exact, never approximate: a remembered hash is given only when the parts are the same
 * plain JSON tree as the parts it was computed from (`sameJson.ts`). Anything else — another
 * key order, an undefined member, a class instance, NaN — is built and hashed in full, as
 * without the memo. The key (the chat cache passes core's prompt string) only narrows where
 * to look: a few requests can share one (the same question to another model, or with another
 * image), and each is compared in full. What is remembered is a private copy no caller ever
 * sees, taken before building (the hash is the copy's request), and only of parts that are a
 * plain JSON tree. Not frozen: a frozen object's keys are slower to list, on every lookup.
 */
import { copyJson } from "./copy";
import { requestHash } from "./json";
import { sameJson } from "./sameJson";

/** A request given by what it is built from, so that a remembered one is found without building it. */
export interface RequestParts<P = unknown> {
  /** A cheap key under which the same request is likely to come again (core's prompt string). */
  readonly key: string;
  /** Everything the canonical request is computed from, and nothing else. */
  readonly parts: P;
  /** The canonical request of `parts` (the caller's, or a copy only this request is built from: it may keep them). */
  build(parts: P): unknown;
}

/** Keys longer than this are not remembered (a long conversation's prompt): those requests are hashed in full. */
const MAX_KEY_LENGTH = 16_384;
/** Requests remembered at most, over all keys (the oldest key goes first). */
const MAX_ENTRIES = 1000;
const MAX_PER_KEY = 4;

export interface Remembered {
  readonly parts: unknown;
  readonly hash: string;
}

/** The request of a remembered hash, built from a copy of what was hashed: nothing remembered is handed out. */
export function rebuild<P>(source: RequestParts<P>, remembered: Remembered): unknown {
  return source.build(copyJson(remembered.parts as P));
}

export class RequestHashes {
  private readonly byKind = new Map<string, Map<string, Remembered[]>>();
  private entries = 0;
  /** @internal how often a hash was found again (`hits`) or computed (`computed`); read by tests. */
  readonly counts = { hits: 0, computed: 0 };

  /** What was remembered for the request `source` builds (its hash), when the same parts were hashed under its key before. */
  find<P>(kind: string, source: RequestParts<P>): Remembered | undefined {
    const seen = source.key.length > MAX_KEY_LENGTH ? undefined : this.byKind.get(kind)?.get(source.key);
    if (seen) {
      for (const r of seen) {
        if (sameJson(source.parts, r.parts)) {
          this.counts.hits++;
          return r;
        }
      }
    }
    return undefined;
  }

  /** Builds and hashes the request of `source`, and remembers its hash when its parts are a plain JSON tree. */
  compute<P>(kind: string, source: RequestParts<P>): { hash: string; request: unknown } {
    this.counts.computed++;
    const copy = copyJson(source.parts);
    if (source.key.length > MAX_KEY_LENGTH || !sameJson(source.parts, copy)) {
      const request = source.build(source.parts); // not a plain JSON tree: never remembered
      return { hash: requestHash(kind, request), request };
    }
    const request = source.build(copy);
    const hash = requestHash(kind, request);
    this.remember(kind, source.key, { parts: copyJson(copy), hash });
    return { hash, request };
  }

  private remember(kind: string, key: string, remembered: Remembered): void {
    let byKey = this.byKind.get(kind);
    const seen = byKey?.get(key);
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
