/**
 * One model's vectors across the calls of a process: each call is held against the first call of
 * the process with the same model and request parameters in the same fixture directory (state
 * `lengths.ts`, which only groups and words, does not keep).
 */
import { canonicalJson } from "../../canonical/json";
import { processWide } from "../../processWide";
import { mixedLengths, requestParams, type LengthGroup, type VectorAt } from "./lengths";

/**
 * The vectors of the first call of this process for each model and request parameters (the request
 * but its text and input type, as `validate` groups them): a later call whose vectors have another
 * length is held against them, so a retriever never scores a query of one model against documents
 * of another, each call of one length (a fixed call's documents recorded again, its query not).
 */
const firstCalls = processWide("embeddings.firstCalls.v1", () => new Map<string, { method: string; vectors: VectorAt[] }>());

/** The key `firstCalls` holds a call's request under: its model and parameters (`requestParams`), as `validate` groups them. */
export function paramsKey(request: object): string {
  return canonicalJson(requestParams(request));
}

/**
 * For a call whose vectors (`vectors()`, built only when needed) have one length, `length`: the
 * groups with the first call's of the same `key` when its length was another; undefined when they
 * agree, or when this is the first (then noted).
 */
export function againstFirstCall(
  key: string,
  method: string,
  length: number,
  vectors: () => VectorAt[],
  onDisk: (file: string) => { length: number; recordedAt?: string } | undefined,
): { groups: LengthGroup[]; earlier: string } | undefined {
  let first = firstCalls.get(key);
  if (first && first.vectors[0].length !== length) {
    // the first call's files as they are now: deleted or recorded again since (the fix applied, in this process) they are not held against this call
    const now = first.vectors.flatMap((v) => {
      const now = onDisk(v.file);
      return now === undefined ? [] : [{ ...v, ...now, live: false }];
    });
    first = now.length && now.every((v) => v.length === now[0].length) ? { method: first.method, vectors: now } : undefined;
    if (first) firstCalls.set(key, first);
    else firstCalls.delete(key);
  }
  if (!first) {
    const mine = vectors();
    if (mine.length) firstCalls.set(key, { method, vectors: mine });
    return undefined;
  }
  if (first.vectors[0].length === length) return undefined;
  const groups = mixedLengths([...first.vectors.map((v) => ({ ...v, earlier: true })), ...vectors()]);
  return groups && { groups, earlier: first.method };
}
