/**
 * Azure OpenAI on loopback: chat completions and embeddings under the deployment's path,
 * POST /openai/deployments/<deployment>/chat/completions?api-version=… (and …/embeddings?…);
 * streamed usage on the last chunk; OpenAI's error body. Each request's deployment is kept in
 * `deployments`, in order, so a test can tell which deployment a call reached.
 */
import { startChatCompletionsFake } from "./chatCompletions";
import type { Fake } from "./base";

const DEPLOYMENT = /^\/openai\/deployments\/([^/?]+)\//;

export interface AzureFake extends Fake {
  /** the deployment each request named, in order */
  deployments(): string[];
}

export async function startAzureFake(): Promise<AzureFake> {
  const fake = await startChatCompletionsFake({
    path: /^\/openai\/deployments\/[^/?]+\/chat\/completions\?api-version=[^&]+$/,
    embeddingsPath: /^\/openai\/deployments\/[^/?]+\/embeddings\?api-version=[^&]+$/,
    // AzureChatOpenAI asks for a JSON-schema answer for withStructuredOutput: answer both schemas of the key table
    jsonSchemaDefault: JSON.stringify({ city: "ok", country: "ok" }),
    streamUsage: "chunk",
    idPrefix: "chatcmpl-azure-fake-",
    toolCallId: (serial, i) => `call_azure_${serial}_${i}`,
    errorBody: (status) => ({ error: { message: `fake ${status}`, type: "invalid_request_error", code: String(status), param: null } }),
  });
  return { ...fake, deployments: () => fake.requests.map((r) => DEPLOYMENT.exec(r.path)?.[1] ?? "(none)") };
}
