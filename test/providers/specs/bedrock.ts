import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { BedrockEmbeddings, ChatBedrockConverse } from "@langchain/aws";
import { startBedrockFake } from "../fakes/bedrock";
import type { ProviderSpec } from "../spec";

// the SDK's "node >= 22 after January 2027" notice, once per process, is noise in test output
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";

/** Shaped like AWS temporary credentials: ASIA + 16, a 40-character secret, a session token. */
export const AWS_CREDENTIALS = {
  accessKeyId: "ASIAFAKEFAKEFAKE1234",
  secretAccessKey: "fakeSecretKey/fakeSecretKey+fakeSecret00",
  sessionToken: "FwoGZXIvYXdzEFAKEsessionTOKENfakeFAKEfakeFAKE",
};

/** ChatBedrockConverse wipes `endpoint` from its clientOptions: a loopback needs an injected client. */
export function bedrockClient(url: string, region = "us-east-1", credentials = AWS_CREDENTIALS): BedrockRuntimeClient {
  return new BedrockRuntimeClient({ endpoint: url, region, credentials, maxAttempts: 1 });
}

export const spec: ProviderSpec = {
  name: "bedrock",
  start: startBedrockFake,
  chat: (url, cache, fields = {}) =>
    new ChatBedrockConverse({
      model: "anthropic.claude-3-5-haiku-20241022-v1:0",
      region: "us-east-1",
      client: bedrockClient(url),
      maxRetries: 0,
      cache: cache as ChatBedrockConverse["cache"],
      ...fields,
    }),
  embeddings: (url) => new BedrockEmbeddings({ model: "amazon.titan-embed-text-v1", region: "us-east-1", client: bedrockClient(url) }),
  embeddingRequests: 3,
  credentials: [AWS_CREDENTIALS.accessKeyId, AWS_CREDENTIALS.secretAccessKey, AWS_CREDENTIALS.sessionToken],
  images: true,
  structuredReply: { toolCalls: [{ name: "city_answer", args: { city: "Paris" } }] },
  thinkingFields: { additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: 1024 } }, maxTokens: 2048 },
};
