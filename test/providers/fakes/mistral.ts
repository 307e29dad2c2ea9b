/**
 * Mistral's chat completions on loopback: POST /v1/chat/completions (and /v1/embeddings); streamed usage on the
 * last chunk; tool-call ids of 9 letters and digits (Mistral's own shape); Mistral's error body.
 */
import { startChatCompletionsFake } from "./chatCompletions";
import type { Fake } from "./base";

export function startMistralFake(): Promise<Fake> {
  return startChatCompletionsFake({
    path: "/v1/chat/completions",
    streamUsage: "chunk",
    embeddingsPath: "/v1/embeddings",
    idPrefix: "cmpl-mistral-fake-",
    toolCallId: (serial, i) => `f${serial}x${i}`.padEnd(9, "0").slice(0, 9),
    errorBody: (status) => ({
      object: "error",
      message: `fake ${status}`,
      type: status === 401 ? "unauthorized" : status === 429 ? "rate_limited" : "internal_error",
      param: null,
      code: String(status),
    }),
  });
}
