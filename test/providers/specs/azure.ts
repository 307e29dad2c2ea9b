import { AzureChatOpenAI, AzureOpenAIEmbeddings } from "@langchain/openai";
import { startAzureFake } from "../fakes/azure";
import type { ProviderSpec } from "../spec";

/** 32 hex digits: the shape of an Azure OpenAI key */
export const AZURE_KEY = "0123456789abcdef0123456789abcdef";
export const API_VERSION = "2024-10-21";

export const spec: ProviderSpec = {
  name: "azure",
  start: startAzureFake,
  chat: (url, cache, fields = {}) =>
    new AzureChatOpenAI({
      model: "gpt-4o",
      azureOpenAIApiKey: AZURE_KEY,
      azureOpenAIEndpoint: url,
      azureOpenAIApiDeploymentName: "gpt-4o-prod",
      azureOpenAIApiVersion: API_VERSION,
      maxRetries: 0,
      cache: cache as AzureChatOpenAI["cache"],
      ...fields,
    }),
  embeddings: (url) =>
    new AzureOpenAIEmbeddings({
      azureOpenAIApiKey: AZURE_KEY,
      azureOpenAIBasePath: `${url}/openai/deployments`,
      azureOpenAIApiDeploymentName: "embed-deploy",
      azureOpenAIApiVersion: API_VERSION,
      maxRetries: 0,
    }),
  embeddingRequests: 3, // AzureOpenAIEmbeddings sends one text a request (its default batchSize is 1)
  credentials: [AZURE_KEY],
  images: true,
  // AzureChatOpenAI asks for a JSON schema (response_format), so the answer is the JSON text
  structuredReply: { text: JSON.stringify({ city: "Paris" }) },
};
