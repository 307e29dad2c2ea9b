/**
 * The canonical parameters of a model's last call, found again without recomputing them: a
 * model asked again with the same `invocationParams()` output (every call of a bound model in
 * a test, or an agent's turns) gets the same canonical parameters. Exact: they are reused only
 * when the raw parameters are the same plain JSON tree as the ones they were computed from
 * (`sameJson.ts`), and computed in full otherwise. They are computed from a private copy taken
 * first (canonicalParams copies every object it keeps, so its result shares nothing with that
 * copy), and what is kept is never handed out: each later call gets its own copy.
 * Module state on purpose: a WeakMap by model, holding no model alive.
 */
import { copyJson } from "./copy";
import { canonicalParams } from "./params";
import { sameJson } from "./sameJson";

interface Kept {
  raw: unknown;
  params: Record<string, unknown>;
}

const LAST = new WeakMap<object, Kept>();
/** @internal how often the parameters were found again (`hits`) or computed (`computed`); read by tests. */
export const paramsMemoCounts = { hits: 0, computed: 0 };

/** `canonicalParams(raw)`, found again when `raw` is the same JSON tree as on `model`'s last call. */
export function rememberedParams(model: object, raw: Record<string, unknown>): Record<string, unknown> {
  const kept = LAST.get(model);
  if (kept && sameJson(raw, kept.raw)) {
    paramsMemoCounts.hits++;
    return copyJson(kept.params);
  }
  paramsMemoCounts.computed++;
  const copy = copyJson(raw);
  if (!sameJson(raw, copy)) return canonicalParams(raw); // not a plain JSON tree: never kept
  const params = canonicalParams(copy);
  // kept as a copy: a fresh object with fast properties (canonicalParams may delete a member,
  // which leaves an object slow to copy on every later call)
  LAST.set(model, { raw: copy, params: copyJson(params) });
  return params;
}
