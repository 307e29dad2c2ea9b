/**
 * The canonical parameters of a model's last call, found again without recomputing them: a
 * model asked again with the same `invocationParams()` output (every call of a bound model in
 * a test, or an agent's turns) gets the same canonical parameters. Exact: they are reused only
 * when the raw parameters are the same JSON tree as the ones they were computed from
 * (`sameJson`), and computed in full otherwise. What is kept is never handed out: each call
 * gets its own copy.
 */
import { sameJson } from "./hashMemo";
import { copyJson } from "../store/parsedCache";

interface Kept {
  raw: unknown;
  params: Record<string, unknown>;
}

const LAST = new WeakMap<object, Kept>();

/** `compute(raw)`, or the frozen result of the model's last call when `raw` is the same JSON tree as that call's. */
export function rememberedParams(
  model: object,
  raw: Record<string, unknown>,
  compute: (raw: Record<string, unknown>) => Record<string, unknown>,
): Record<string, unknown> {
  const kept = LAST.get(model);
  if (kept && sameJson(raw, kept.raw)) return copyJson(kept.params);
  const copy = copyJson(raw);
  const params = compute(raw);
  // only a plain JSON tree is kept (a copy of a Date or a class instance is not what was computed from)
  if (sameJson(raw, copy)) LAST.set(model, { raw: copy, params: copyJson(params) });
  return params;
}
