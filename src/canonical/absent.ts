/**
 * Values a provider treats exactly as if the parameter were not sent. A client that starts
 * (or stops) sending one of them after a library upgrade asks the provider the same thing, so
 * it must not re-key every fixture: the rule is one table, and each entry names the parameter
 * by the path its client uses (all of them names only that provider's client sends, so
 * ChatOpenAI and ChatOllama keys never move).
 *
 * A default that changes the answer (ChatAnthropic's default max_tokens, ChatGroq's default
 * temperature) is NOT here: it is sent, it matters, and a new default is a new request.
 */
import { isDeepStrictEqual } from "node:util";

export const ABSENT_VALUES: readonly { path: readonly string[]; value: unknown; client: string }[] = [
  { path: ["betas"], value: [], client: "ChatAnthropic (no beta headers)" },
  { path: ["stop_sequences"], value: [], client: "ChatAnthropic" },
  { path: ["generationConfig", "stopSequences"], value: [], client: "ChatGoogleGenerativeAI" },
  { path: ["generationConfig"], value: {}, client: "ChatGoogleGenerativeAI" },
  { path: ["safetySettings"], value: [], client: "ChatGoogleGenerativeAI (the API's default thresholds)" },
  { path: ["inferenceConfig", "stopSequences"], value: [], client: "ChatBedrockConverse" },
  { path: ["inferenceConfig"], value: {}, client: "ChatBedrockConverse" },
  { path: ["safePrompt"], value: false, client: "ChatMistralAI (the API's default)" },
];

/**
 * `invocation` without the parameters that hold a value their provider treats as absent (and
 * without a parent object that leaves empty); the input is not changed.
 */
export function withoutAbsent(invocation: Record<string, unknown>): Record<string, unknown> {
  let out = invocation;
  for (const { path, value } of ABSENT_VALUES) {
    const parent = path.slice(0, -1).reduce<unknown>((o, k) => (o && typeof o === "object" ? (o as Record<string, unknown>)[k] : undefined), out);
    const last = path[path.length - 1];
    if (!parent || typeof parent !== "object" || !Object.hasOwn(parent, last) || !isDeepStrictEqual(defined((parent as Record<string, unknown>)[last]), value))
      continue;
    out = dropPath(out, path);
  }
  return out;
}

function dropPath(obj: Record<string, unknown>, path: readonly string[]): Record<string, unknown> {
  const [head, ...rest] = path;
  const copy = { ...obj };
  const inner = rest.length === 0 ? {} : dropPath(copy[head] as Record<string, unknown>, rest);
  if (Object.keys(defined(inner) as object).length === 0)
    delete copy[head]; // a parent left empty (generationConfig: {}) is not sent either
  else copy[head] = inner;
  return copy;
}

/** An object without its undefined members (which JSON, and so the provider, never sees). */
function defined(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined));
}
