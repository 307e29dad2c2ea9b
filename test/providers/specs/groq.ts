import { ChatGroq } from "@langchain/groq";
import { startGroqFake } from "../fakes/groq";
import type { ProviderSpec } from "../spec";

// the SDK logs the malformed event of the error tests before it throws; the error itself is what the tests check
process.env.GROQ_LOG ??= "off";

/** gsk_ + 52 characters: the shape of a Groq API key */
export const GROQ_KEY = "gsk_fakeFAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKEfakeFAKE1234";

export const spec: ProviderSpec = {
  name: "groq",
  start: startGroqFake,
  chat: (url, cache, fields = {}) =>
    new ChatGroq({ model: "llama-3.3-70b-versatile", apiKey: GROQ_KEY, baseUrl: url, maxRetries: 0, cache: cache as ChatGroq["cache"], ...fields }),
  credentials: [GROQ_KEY],
  images: true,
  streamedUsage: "response_metadata",
  structuredReply: { toolCalls: [{ name: "city_answer", args: { city: "Paris" } }] },
};
