/**
 * Which of OpenAI's two APIs a ChatOpenAI call goes through, and which one a fixture was
 * recorded through. The request LangChain builds for a plain call is the same for both (its
 * model, messages and sampling parameters: the same key), but the answer is not: Chat Completions
 * gives a string `content` and `chatcmpl-` ids, the Responses API content blocks, `resp_` ids and
 * its own metadata. ChatOpenAI picks the API per call (`useResponsesApi`, built-in tools, models
 * LangChain sends there by default, a new `@langchain/openai`), so a fixture of the other API is
 * not handed back in the shape the client no longer returns: the call is keyed by its request
 * with the API added (`ownApiRequest`), and misses or records there.
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

/**
 * The API a chat or chat_stream response was recorded through, from what LangChain's OpenAI
 * converters leave in it: the Responses API's `object: "response"` (a stream's, in its last
 * chunk), Chat Completions' `finish_reason` (which the Responses API never sets). Undefined for
 * a response that says neither (another provider's). Read from the end, where a stream says it,
 * with no cache: a replay reads it on every hit, and a plain read costs less than a lookup.
 */
export function recordedOpenAiApi(response: unknown): OpenAiApi | undefined {
  const items = answerItems(response);
  for (let i = items.length - 1; i >= 0; i--) {
    const item = items[i];
    if (!isRec(item)) continue;
    const meta = isRec(item.message) && isRec(item.message.response_metadata) ? item.message.response_metadata : undefined;
    if (meta?.object === "response") return "Responses API";
    if ((meta && "finish_reason" in meta) || (isRec(item.generationInfo) && "finish_reason" in item.generationInfo)) return "Chat Completions API";
  }
  return undefined;
}

/** A chat response's generations, or a chat_stream response's chunks: where an answer says who gave it (read from the end). */
export function answerItems(response: unknown): unknown[] {
  if (!isRec(response)) return [];
  return Array.isArray(response.generations) ? response.generations : Array.isArray(response.chunks) ? response.chunks : [];
}

/** The member a request of the other API gets (`openai_api`), and its values. */
export const OPENAI_API_MEMBER = "openai_api";
const MEMBER_VALUE: Record<OpenAiApi, string> = { "Responses API": "responses", "Chat Completions API": "chat_completions" };

/**
 * The request this call is keyed by when the fixture found for its request was recorded through
 * the other OpenAI API: the same request with `openai_api` ("responses" or "chat_completions"),
 * so each API's answer has a fixture of its own, and the first one recorded keeps its key (no
 * fixture already written changes name). Undefined when the found fixture answers this call.
 */
export function ownApiRequest(model: object, callOptions: unknown, fixture: Fixture, request: () => unknown): unknown {
  if (typeof (model as { _useResponsesApi?: unknown })._useResponsesApi !== "function") return undefined; // not ChatOpenAI: nothing more to read
  const recorded = recordedOpenAiApi(fixture.response);
  if (recorded === undefined) return undefined;
  const now = openAiApiOf(model, callOptions);
  if (now === undefined || now === recorded) return undefined;
  const base = request();
  return isRec(base) && !(OPENAI_API_MEMBER in base) ? { ...base, [OPENAI_API_MEMBER]: MEMBER_VALUE[now] } : undefined;
}
