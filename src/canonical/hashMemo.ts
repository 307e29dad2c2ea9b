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
 * key order, a member more or less (even one set to undefined), a class instance, NaN — is
 * built and hashed in full, as without the memo. The key (the chat cache passes core's prompt string) only narrows where
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
  /** The canonical request of `parts`, sharing nothing with them (the memo builds from what it keeps). */
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

/** The request of a remembered hash, built from what was hashed (`build` shares nothing with it). */
export function rebuild<P>(source: RequestParts<P>, remembered: Remembered): unknown {
  return source.build(remembered.parts as P);
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

  /**
   * Builds and hashes the request of `source`. Its hash is remembered the second time its key
   * is asked, when its parts are a plain JSON tree: a request asked once (every test of a
   * suite asks its own) costs no copy.
   */
  compute<P>(kind: string, source: RequestParts<P>): { hash: string; request: unknown } {
    this.counts.computed++;
    const rememberable = source.key.length <= MAX_KEY_LENGTH;
    const asked = rememberable && this.byKind.get(kind)?.has(source.key) === true;
    const copy = asked ? copyJson(source.parts) : undefined;
    const kept = copy !== undefined && sameJson(source.parts, copy) ? copy : undefined; // else not a plain JSON tree: never remembered
    const request = source.build(kept ?? source.parts);
    const hash = requestHash(kind, request);
    if (rememberable) this.remember(kind, source.key, kept && { parts: kept, hash });
    return { hash, request };
  }

  /** Remembers `remembered` under `key`, or only that the key was asked (undefined). */
  private remember(kind: string, key: string, remembered: Remembered | undefined): void {
    let byKey = this.byKind.get(kind);
    const seen = byKey?.get(key);
    if (seen) {
      if (!remembered) return;
      if (seen.length >= MAX_PER_KEY) seen.shift();
      else if (seen.length > 0) this.entries++; // a key asked once already counts as one entry
      seen.push(remembered);
    } else {
      if (!byKey) this.byKind.set(kind, (byKey = new Map()));
      byKey.set(key, remembered ? [remembered] : []);
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
      this.entries -= Math.max(1, oldest.value[1].length);
      return;
    }
  }
}
