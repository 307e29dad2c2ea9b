/** Real LangChain clients pointed at the loopback fake provider. */
import { ChatOllama } from "@langchain/ollama";
import { ChatOpenAI, OpenAI } from "@langchain/openai";
import type { FakeProvider } from "./fakeProvider";

export const TEST_KEY = "test-key-not-a-secret-1";
/** A port nothing listens on: a client pointed here cannot reach any provider. */
export const CLOSED_PORT_URL = "http://127.0.0.1:9/v1";

/** ChatOpenAI with no real key and no provider to reach (a replay in a fresh process). */
export function offlineOpenAI(cache: unknown): ChatOpenAI {
  return new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: "no-key",
    maxRetries: 0,
    cache: cache as ChatOpenAI["cache"],
    configuration: { baseURL: CLOSED_PORT_URL },
  });
}

export function openai(fake: Pick<FakeProvider, "openaiBaseURL">, cache: unknown, fields: Record<string, unknown> = {}): ChatOpenAI {
  const { configuration, ...rest } = fields;
  return new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: TEST_KEY,
    maxRetries: 0,
    cache: cache as ChatOpenAI["cache"],
    configuration: { baseURL: fake.openaiBaseURL, ...(configuration as object) },
    ...rest,
  });
}

export function ollama(fake: FakeProvider, cache: unknown, fields: Record<string, unknown> = {}): ChatOllama {
  return new ChatOllama({ model: "llama3.2", baseUrl: fake.ollamaBaseUrl, maxRetries: 0, cache: cache as ChatOllama["cache"], ...fields });
}

export function openaiLlm(fake: FakeProvider, cache: unknown, fields: Record<string, unknown> = {}): OpenAI {
  return new OpenAI({
    model: "gpt-3.5-turbo-instruct",
    apiKey: TEST_KEY,
    maxRetries: 0,
    cache: cache as OpenAI["cache"],
    configuration: { baseURL: fake.openaiBaseURL },
    ...fields,
  });
}
