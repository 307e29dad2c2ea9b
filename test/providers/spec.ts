/** What a provider's test needs to know about it: how to start its fake and build its real clients. */
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { Embeddings } from "@langchain/core/embeddings";
import type { Fake, Reply } from "./fakes/base";

export interface ProviderSpec {
  /** the file name under specs/ (the replay child loads it by this name) */
  name: string;
  start(): Promise<Fake>;
  /** the real client, pointed at the fake; `fields` are passed through to its constructor */
  chat(url: string, cache: unknown, fields?: Record<string, unknown>): BaseChatModel;
  /** the real embeddings client, when the package has one */
  embeddings?(url: string): Embeddings;
  /** HTTP requests embedQuery(1 text) + embedDocuments(2 texts) make (a batch endpoint or one per text) */
  embeddingRequests?: number;
  /** the literal credentials `chat()`/`embeddings()` give the clients: none may reach disk */
  credentials: readonly string[];
  /** takes standard image content blocks (a data URL) */
  images: boolean;
  /** what the fake answers to withStructuredOutput(z.object({ city }), { name: "city_answer" }) */
  structuredReply: Reply;
  /** where the client puts a stream's token usage: ChatGroq 1.3 only in response_metadata.usage. @default "usage_metadata" */
  streamedUsage?: "usage_metadata" | "response_metadata";
  /** constructor fields that turn extended thinking on, when the provider has it */
  thinkingFields?: Record<string, unknown>;
  /** the client makes its tool calls' ids itself, at random (ChatGoogleGenerativeAI): two live answers with a tool call differ in them */
  randomToolCallIds?: boolean;
}
