/**
 * Which provider's answer a chat fixture holds, and the request a call of another provider is
 * keyed by when it finds one. The key names the model, not the provider: the same model and
 * parameters asked of two providers build one request (ChatGroq and ChatMistralAI asking
 * `mistral-saba-24b` at their shared defaults; ChatOpenAI and ChatOllama asking `llama3.2`). Handed
 * the other provider's answer, a call returned that provider's metadata (`model_provider: "groq"`
 * on a ChatMistralAI message), even on its first recording run, and the second provider was
 * never called (user trial 43). So, as for OpenAI's two APIs (./openaiApi.ts), a call that finds
 * an answer another provider gave is keyed by its request with `provider` added, and misses or
 * records there; the first one recorded keeps its key (no fixture already written changes name).
 *
 * An answer says its provider in `response_metadata.model_provider` (@langchain/core 1.1 and
 * later, for the clients below); a caller says its own in `getLsParams().ls_provider` (ChatDeepSeek,
 * whose is OpenAI's "openai", by its `_llmType()`). Only those pairs are compared: an answer that
 * names no provider (ChatMistralAI 1.2 names none; an older core, none at all) or a caller this
 * table does not know still replays as before. ChatXAI's answers carry OpenAI's converter's
 * "openai", as ChatDeepSeek's did before @langchain/deepseek 1.0.5 (its answers now say
 * "deepseek"): an "openai" answer replays to either, so the fixtures they recorded keep replaying,
 * and one recorded by ChatOpenAI still does (trial 48: ChatDeepSeek then ChatXAI asking the same
 * model name, the xAI call got DeepSeek's answer).
 */
import type { Fixture } from "../../store/fixture";
import { isRec } from "../../kinds/text";
import { answerItems, OPENAI_API_MEMBER, ownApiRequest } from "./openaiApi";

/** An answer's `model_provider` → the `ls_provider` of each client whose answers carry it. */
const CALLERS_OF: Readonly<Record<string, readonly string[]>> = {
  openai: ["openai", "azure", "xai", "deepseek"], // ChatOpenAI, AzureChatOpenAI; ChatXAI's answers, ChatDeepSeek's before 1.0.5
  deepseek: ["deepseek"],
  xai: ["xai"], // ChatXAIResponses (its Chat Completions answers say "openai")
  anthropic: ["anthropic"],
  "google-genai": ["google_genai"],
  "bedrock-converse": ["amazon_bedrock"],
  groq: ["groq"],
  ollama: ["ollama"],
};

/** A caller whose `ls_provider` is another client's, by its `_llmType()`: ChatDeepSeek says "openai". */
const CALLER_OF_TYPE: Readonly<Record<string, string>> = { deepseek: "deepseek" };

/** The callers compared: each of the table's, and ChatMistralAI, whose answers name no provider. */
const KNOWN_CALLERS: ReadonlySet<string> = new Set([...Object.values(CALLERS_OF).flat(), "mistral"]);

/** The member a request of another provider gets, with the caller's `ls_provider`. */
export const PROVIDER_MEMBER = "provider";

/**
 * The provider a chat or chat_stream response was recorded from (`model_provider`), read from the
 * end, where a stream says it; undefined for one that names none. No cache: read on every hit,
 * like the OpenAI API, and a plain read costs less than a lookup.
 */
export function recordedProvider(response: unknown): string | undefined {
  const items = answerItems(response);
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    const meta = isRec(item) && isRec(item.message) && isRec(item.message.response_metadata) ? item.message.response_metadata : undefined;
    if (typeof meta?.model_provider === "string") return meta.model_provider;
  }
  return undefined;
}

/** A caller's `ls_provider` when this table compares it ("" when not), by model: a client's never changes between calls. */
const providerOfModel = new WeakMap<object, string>();

function callerProvider(model: object, callOptions: unknown): string | undefined {
  let provider = providerOfModel.get(model);
  if (provider === undefined) {
    try {
      const m = model as { getLsParams?: (o: unknown) => { ls_provider?: unknown }; _llmType?: () => unknown };
      const type = m._llmType?.();
      const ls = typeof type === "string" && Object.hasOwn(CALLER_OF_TYPE, type) ? CALLER_OF_TYPE[type] : m.getLsParams?.(callOptions ?? {})?.ls_provider;
      provider = typeof ls === "string" && KNOWN_CALLERS.has(ls) ? ls : "";
    } catch {
      return undefined; // the client's own method threw: compare nothing this time
    }
    providerOfModel.set(model, provider);
  }
  return provider === "" ? undefined : provider;
}

/**
 * The request this call is keyed by when the fixture found for its request holds another
 * provider's answer: the same request with `provider` (the caller's `ls_provider`). Undefined
 * when the found fixture answers this call, or either side is not known.
 */
export function ownProviderRequest(model: object, callOptions: unknown, fixture: Fixture, request: () => unknown): unknown {
  const caller = callerProvider(model, callOptions); // first: a caller the table does not know reads no answer
  if (caller === undefined) return undefined;
  const recorded = recordedProvider(fixture.response);
  if (recorded === undefined || !Object.hasOwn(CALLERS_OF, recorded) || CALLERS_OF[recorded].includes(caller)) return undefined;
  const base = request();
  return isRec(base) && !(PROVIDER_MEMBER in base) ? { ...base, [PROVIDER_MEMBER]: caller } : undefined;
}

/**
 * The request a chat call is keyed by instead, when the fixture found for its request answers
 * another form of the call: the other OpenAI API's answer, or another provider's. Undefined when
 * the fixture answers it.
 */
export function ownFormRequest(model: object, callOptions: unknown, fixture: Fixture, request: () => unknown): unknown {
  return ownApiRequest(model, callOptions, fixture, request) ?? ownProviderRequest(model, callOptions, fixture, request);
}

/**
 * The request a call keyed by `ownFormRequest` was made from (the key whose fixture holds the other
 * API's or provider's answer), or undefined for one not keyed so.
 */
export function otherFormRequest(request: unknown): Record<string, unknown> | undefined {
  if (!isRec(request)) return undefined;
  // a string: a request parameter of that name (OpenRouter's `provider` routing object) is not a form
  const member = OPENAI_API_MEMBER in request ? OPENAI_API_MEMBER : typeof request[PROVIDER_MEMBER] === "string" ? PROVIDER_MEMBER : undefined;
  if (member === undefined) return undefined;
  const { [member]: _form, ...same } = request;
  return same;
}
