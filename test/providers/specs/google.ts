import { ChatGoogleGenerativeAI, GoogleGenerativeAIEmbeddings } from "@langchain/google-genai";
import { startGoogleFake } from "../fakes/google";
import type { ProviderSpec } from "../spec";

/** AIza + 35 characters: the shape of a Google API key */
export const GOOGLE_KEY = "AIzaFAKEfakeFAKEfakeFAKEfakeFAKEfake123";

export const spec: ProviderSpec = {
  name: "google",
  start: startGoogleFake,
  chat: (url, cache, fields = {}) =>
    new ChatGoogleGenerativeAI({
      model: "gemini-2.5-flash",
      apiKey: GOOGLE_KEY,
      baseUrl: url,
      maxRetries: 0,
      cache: cache as ChatGoogleGenerativeAI["cache"],
      ...fields,
    }),
  embeddings: (url) => new GoogleGenerativeAIEmbeddings({ model: "text-embedding-004", apiKey: GOOGLE_KEY, baseUrl: url, maxRetries: 0 }),
  embeddingRequests: 2,
  credentials: [GOOGLE_KEY],
  images: true,
  // withStructuredOutput defaults to method "jsonSchema": responseSchema + application/json text
  structuredReply: { text: '{"city":"Paris"}' },
  thinkingFields: { thinkingConfig: { includeThoughts: true, thinkingBudget: 1024 } },
  randomToolCallIds: true,
};
