/**
 * Who answers a streamed call of a model whose cache is a `VcrCache`: the stream adapter
 * (a `chat_stream` fixture) or the chat cache (a `chat` fixture).
 *
 * - `.stream()`, `streamEvents` and the new-protocol `streamEvents()` are streams.
 * - A `generate()` / `invoke()` is a plain call keyed by the chat cache, unless core is
 *   going to stream it because a callback handler asked for tokens (LangGraph's
 *   `streamMode: "messages"`, `streamEvents` over a chain): then the chat cache stands
 *   aside and the call is recorded and replayed as a stream, so the handler sees the same
 *   chunks offline. The decision mirrors `_generateUncached` in `@langchain/core`.
 * - Inside any other `generate()` of the same model (e.g. ChatOpenAI's `streaming: true`,
 *   whose `_generate` streams internally) the chunks pass through untouched: the chat cache
 *   already keys that call.
 */
import { modelCallForKey, modelCallOfOptions } from "../chat/call";
import { vcrCacheOf } from "../chat/vcrCacheOf";

/**
 * Whether the stream adapter records / replays this `_streamResponseChunks` (or
 * `_streamChatModelEvents`) call. A generate() of the same model is recognised by its call
 * options, which carry the call (core and providers pass them, or a `{ ...copy }`, down).
 */
export function vcrHandlesStream(model: { cache?: unknown }, options: unknown): boolean {
  if (!vcrCacheOf(model)) return false;
  const call = modelCallOfOptions(options);
  return !(call && call.model === model && !call.streamed);
}

/** The chat cache stands aside for the generate() call whose llmKey this is: its chunks are a stream. */
export function markStreamed(model: object, llmKey: unknown): boolean {
  const call = modelCallForKey(llmKey);
  if (!call || call.model !== model) return false;
  call.streamed = true;
  return true;
}

interface HandlerLike {
  lc_prefer_streaming?: boolean;
  lc_prefer_chat_model_stream_events?: boolean;
}

/** The handlers a `callbacks` value holds: an array of handlers, or a CallbackManager. */
const NO_HANDLERS: readonly HandlerLike[] = [];

function handlersOf(callbacks: unknown): readonly HandlerLike[] {
  if (Array.isArray(callbacks)) return callbacks as HandlerLike[];
  const handlers = (callbacks as { handlers?: unknown } | undefined)?.handlers;
  return Array.isArray(handlers) ? (handlers as HandlerLike[]) : NO_HANDLERS;
}

/**
 * Whether core's `_generateUncached` will stream this call: one message list, streaming not
 * disabled, the model streams natively, and a handler prefers tokens or stream events.
 */
export function generateWillStream(
  model: { disableStreaming?: boolean; callbacks?: unknown },
  messageLists: number,
  runCallbacks: unknown,
  nativeChunks: boolean,
): boolean {
  if (messageLists !== 1 || model.disableStreaming || !nativeChunks) return false;
  return handlersOf(runCallbacks).some(prefersStream) || handlersOf(model.callbacks).some(prefersStream);
}

function prefersStream(h: HandlerLike | undefined): boolean {
  return !!h && (!!h.lc_prefer_streaming || !!h.lc_prefer_chat_model_stream_events);
}
