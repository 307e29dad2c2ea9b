import { ChatAnthropic } from "@langchain/anthropic";
import { startAnthropicFake } from "../fakes/anthropic";
import type { ProviderSpec } from "../spec";

// the SDK logs the malformed event of the error tests before it throws; the error itself is what the tests check
process.env.ANTHROPIC_LOG ??= "off";

export const ANTHROPIC_KEY = "sk-ant-api03-fakefakefakefakefakefakefake-AAAA";

export const spec: ProviderSpec = {
  name: "anthropic",
  start: startAnthropicFake,
  chat: (url, cache, fields = {}) =>
    new ChatAnthropic({
      model: "claude-haiku-4-5",
      apiKey: ANTHROPIC_KEY,
      anthropicApiUrl: url,
      maxRetries: 0,
      cache: cache as ChatAnthropic["cache"],
      ...fields,
    }),
  credentials: [ANTHROPIC_KEY],
  images: true,
  structuredReply: { toolCalls: [{ name: "city_answer", args: { city: "Paris" } }] },
  thinkingFields: { thinking: { type: "enabled", budget_tokens: 1024 }, maxTokens: 2048 },
};
