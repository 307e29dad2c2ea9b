/**
 * Streaming record/replay: `.stream()`, `streamEvents` (v1, v2 and the new protocol) and
 * token-streaming callers (LangGraph `streamMode: "messages"`) of any chat model whose
 * `cache` is a `VcrCache` record and replay `chat_stream` fixtures chunk by chunk.
 * See `patch.ts` for the mechanism and `session.ts` for when a fixture is written.
 */
export { installStreamPatches, type StreamCore } from "./patch";
export type { StreamResponse, StoredChunk, StoredMessageChunk, StoredNewToken } from "./chunks";
