/** Groq's OpenAI-compatible API on loopback: POST /openai/v1/chat/completions; streamed usage in `x_groq`. */
import { startChatCompletionsFake } from "./chatCompletions";
import type { Fake } from "./base";

const TYPES: Record<number, string> = { 401: "invalid_api_key", 429: "rate_limit_exceeded", 500: "internal_server_error" };

export function startGroqFake(): Promise<Fake> {
  return startChatCompletionsFake({
    path: "/openai/v1/chat/completions",
    streamUsage: "x_groq",
    idPrefix: "chatcmpl-groq-fake-",
    toolCallId: (serial, i) => `call_groq_${serial}_${i}`,
    errorBody: (status) => ({ error: { message: `fake ${status}`, type: "invalid_request_error", code: TYPES[status] ?? "unknown" } }),
  });
}
