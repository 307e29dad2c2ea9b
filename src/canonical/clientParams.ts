/**
 * Request parameters a client sends on every call but leaves out of its `invocationParams()`,
 * because it hands them to its SDK client once, at construction. Without this they would
 * never reach the key, and two models that ask the provider different things would share a
 * fixture. Named per client (its `_llmType()`), so no other client's key moves.
 */
const CLIENT_FIELDS: Readonly<Record<string, readonly string[]>> = {
  // ChatGoogleGenerativeAI: getGenerativeModel({ safetySettings }) puts them in every request body
  googlegenerativeai: ["safetySettings"],
};

/** The parameters `model`'s client sends beyond its `invocationParams()`, or undefined for a client that sends none. */
export function clientOnlyParams(model: { _llmType?(): string }): Record<string, unknown> | undefined {
  const fields = CLIENT_FIELDS[model._llmType?.() ?? ""];
  if (!fields) return undefined;
  const out: Record<string, unknown> = {};
  for (const f of fields) {
    const v = (model as Record<string, unknown>)[f];
    if (v !== undefined && v !== null) out[f] = v;
  }
  return out;
}
