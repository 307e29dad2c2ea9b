/**
 * Streaming record/replay: `.stream()`, `streamEvents` (v1, v2 and the new protocol) and
 * token-streaming callers (LangGraph `streamMode: "messages"`) of any chat model whose
 * `cache` is a `VcrCache` record and replay `chat_stream` fixtures chunk by chunk.
 * See `patch.ts` for the mechanism and `session.ts` for when a fixture is written.
 * Text-completion models answer a stream with one replayed `invoke()` (`llm.ts`).
 */
export { installStreamPatches, type StreamCore } from "./patch";
export { installLlmStreamPatch } from "./llm";
export type { StreamResponse, StoredChunk, StoredMessageChunk, StoredNewToken } from "./chunks";
