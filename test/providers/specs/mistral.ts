import { ChatMistralAI, MistralAIEmbeddings } from "@langchain/mistralai";
import { startMistralFake } from "../fakes/mistral";
import type { ProviderSpec } from "../spec";

export const MISTRAL_KEY = "mistral-fake-key-0123456789abcdefABCDEF";

export const spec: ProviderSpec = {
  name: "mistral",
  start: startMistralFake,
  chat: (url, cache, fields = {}) =>
    new ChatMistralAI({ model: "mistral-small-latest", apiKey: MISTRAL_KEY, serverURL: url, maxRetries: 0, cache: cache as ChatMistralAI["cache"], ...fields }),
  embeddings: (url) => new MistralAIEmbeddings({ model: "mistral-embed", apiKey: MISTRAL_KEY, serverURL: url, maxRetries: 0 }),
  embeddingRequests: 2,
  credentials: [MISTRAL_KEY],
  images: true,
  structuredReply: { toolCalls: [{ name: "city_answer", args: { city: "Paris" } }] },
};
