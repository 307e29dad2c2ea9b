/**
 * Which of OpenAI's two APIs a ChatOpenAI call goes through, and which one a fixture was
 * recorded through. The request LangChain builds for a plain call is the same for both (its
 * model, messages and sampling parameters: the same key), but the answer is not: Chat Completions
 * gives a string `content` and `chatcmpl-` ids, the Responses API content blocks, `resp_` ids and
 * its own metadata. ChatOpenAI picks the API per call (`useResponsesApi`, built-in tools, models
 * LangChain sends there by default, a new `@langchain/openai`), so a fixture of the other API is
 * refused on replay rather than handed back in the shape the client no longer returns.
 */
import type { Fixture } from "../../store/fixture";
import { isRec } from "../../kinds/text";

export type OpenAiApi = "Responses API" | "Chat Completions API";

/** The API `model` sends this call to, or undefined for a client that does not choose (not ChatOpenAI). */
export function openAiApiOf(model: object, callOptions: unknown): OpenAiApi | undefined {
  const choose = (model as { _useResponsesApi?: unknown })._useResponsesApi;
  if (typeof choose !== "function") return undefined;
  try {
    return choose.call(model, callOptions) === true ? "Responses API" : "Chat Completions API";
  } catch {
    return undefined; // the client's own choice threw: its call will say why
  }
}

/** A kept fixture's response is read once. */
const recordedApis = new WeakMap<object, OpenAiApi | null>();

/**
 * The API a chat or chat_stream response was recorded through, from what LangChain's OpenAI
 * converters leave in it: the Responses API's `object: "response"` (a stream's, in its last
 * chunk), Chat Completions' `finish_reason` (which the Responses API never sets). Undefined for
 * a response that says neither (another provider's).
 */
export function recordedOpenAiApi(response: unknown): OpenAiApi | undefined {
  if (!isRec(response)) return undefined;
  const known = recordedApis.get(response);
  if (known !== undefined) return known ?? undefined;
  const items = Array.isArray(response.generations) ? response.generations : Array.isArray(response.chunks) ? response.chunks : [];
  let api: OpenAiApi | null = null;
  for (const item of items) {
    if (!isRec(item)) continue;
    const message = isRec(item.message) ? item.message : {};
    const meta = isRec(message.response_metadata) ? message.response_metadata : {};
    const info = isRec(item.generationInfo) ? item.generationInfo : {};
    if (meta.object === "response") {
      api = "Responses API";
      break;
    }
    if ("finish_reason" in meta || "finish_reason" in info) api = "Chat Completions API";
  }
  recordedApis.set(response, api);
  return api ?? undefined;
}

/** Why a found fixture must not answer this call (its API is not the call's), or undefined. */
export function otherApiProblem(model: object, callOptions: unknown, fixture: Fixture): string | undefined {
  const recorded = recordedOpenAiApi(fixture.response);
  if (recorded === undefined) return undefined;
  const now = openAiApiOf(model, callOptions);
  if (now === undefined || now === recorded) return undefined;
  return (
    `it was recorded through OpenAI's ${recorded}, and this call goes through the ${now}: the request is the same, ` +
    `the answer's shape is not (${recorded === "Responses API" ? "content blocks and resp_ ids" : "string content and chatcmpl- ids"}, where the client now returns ` +
    `${now === "Responses API" ? "content blocks and resp_ ids" : "string content and chatcmpl- ids"}). ChatOpenAI chooses the API per call: useResponsesApi, ` +
    `built-in tools, and some models go to the Responses API, and a new @langchain/openai may choose differently`
  );
}
