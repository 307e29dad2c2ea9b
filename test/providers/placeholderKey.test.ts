/**
 * docs/providers.md, "Replaying in CI": which clients refuse to be built without an API key (so
 * CI needs a placeholder in their key's env variable, though replay never sends it) and which
 * build without one. When a provider package changes this, the table there must change too.
 */
import { expect } from "chai";
import { ChatAnthropic } from "@langchain/anthropic";
import { BedrockEmbeddings, ChatBedrockConverse } from "@langchain/aws";
import { ChatGoogleGenerativeAI, GoogleGenerativeAIEmbeddings } from "@langchain/google-genai";
import { ChatGroq } from "@langchain/groq";
import { ChatDeepSeek } from "@langchain/deepseek";
import { ChatXAI } from "@langchain/xai";
import { ChatMistralAI, MistralAIEmbeddings } from "@langchain/mistralai";
import { ChatOllama, OllamaEmbeddings } from "@langchain/ollama";
import { AzureChatOpenAI, AzureOpenAIEmbeddings, ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { withEnv } from "../helpers/env";

const KEY_VARS = [
  "OPENAI_API_KEY",
  "ANTHROPIC_API_KEY",
  "GOOGLE_API_KEY",
  "GEMINI_API_KEY",
  "GROQ_API_KEY",
  "MISTRAL_API_KEY",
  "AWS_ACCESS_KEY_ID",
  "AWS_SECRET_ACCESS_KEY",
  "AWS_PROFILE",
  "AZURE_OPENAI_API_KEY",
  "AZURE_OPENAI_API_INSTANCE_NAME",
  "AZURE_OPENAI_ENDPOINT",
  "DEEPSEEK_API_KEY",
  "XAI_API_KEY",
];
const noKeys = Object.fromEntries(KEY_VARS.map((k) => [k, undefined]));

/** Each client that needs a key: the variable, and the words of its error the docs quote. */
const needKey: [string, string, string, () => unknown][] = [
  ["ChatAnthropic", "ANTHROPIC_API_KEY", "Anthropic API key not found", () => new ChatAnthropic({ model: "claude-haiku-4-5" })],
  [
    "ChatGoogleGenerativeAI",
    "GOOGLE_API_KEY",
    "Please set an API key for Google GenerativeAI",
    () => new ChatGoogleGenerativeAI({ model: "gemini-2.5-flash" }),
  ],
  [
    "GoogleGenerativeAIEmbeddings",
    "GOOGLE_API_KEY",
    "Please set an API key for Google GenerativeAI",
    () => new GoogleGenerativeAIEmbeddings({ model: "text-embedding-004" }),
  ],
  ["ChatGroq", "GROQ_API_KEY", "Groq API key not found", () => new ChatGroq({ model: "llama-3.3-70b-versatile" })],
  ["ChatMistralAI", "MISTRAL_API_KEY", "API key MISTRAL_API_KEY is missing", () => new ChatMistralAI({ model: "mistral-small-latest" })],
  ["MistralAIEmbeddings", "MISTRAL_API_KEY", "API key missing for MistralAI", () => new MistralAIEmbeddings({})],
  ["ChatDeepSeek", "DEEPSEEK_API_KEY", "Deepseek API key not found", () => new ChatDeepSeek({ model: "deepseek-chat" })],
  ["ChatXAI", "XAI_API_KEY", "xAI API key not found", () => new ChatXAI({ model: "grok-3" })],
  [
    "AzureChatOpenAI",
    "AZURE_OPENAI_API_KEY",
    "Azure OpenAI API key or Token Provider not found",
    () => new AzureChatOpenAI({ azureOpenAIApiDeploymentName: "gpt-4o-prod", azureOpenAIApiVersion: "2024-10-21" }),
  ],
];
const buildWithout: [string, () => unknown][] = [
  ["ChatOpenAI", () => new ChatOpenAI({ model: "gpt-4o-mini" })],
  ["OpenAIEmbeddings", () => new OpenAIEmbeddings({})],
  ["AzureOpenAIEmbeddings", () => new AzureOpenAIEmbeddings({ azureOpenAIApiDeploymentName: "emb", azureOpenAIApiVersion: "2024-10-21" })],
  ["ChatOllama", () => new ChatOllama({ model: "llama3.2" })],
  ["OllamaEmbeddings", () => new OllamaEmbeddings({ model: "nomic-embed-text" })],
  ["BedrockEmbeddings", () => new BedrockEmbeddings({ model: "amazon.titan-embed-text-v2:0", region: "us-east-1" })],
  ["ChatBedrockConverse", () => new ChatBedrockConverse({ model: "anthropic.claude-3-5-haiku-20241022-v1:0", region: "us-east-1" })],
];

describe("building a client with no API key in the environment (what CI without secrets needs)", () => {
  it('ChatOpenAI builds its SDK client for moderation (moderateContent(), openAIModerationMiddleware) only with a key: "Missing credentials" without OPENAI_API_KEY, and any placeholder in it builds', () => {
    const client = () => new ChatOpenAI({ model: "gpt-4o-mini" })._getClientOptions(undefined);
    withEnv(noKeys, () => expect(client).to.throw("Missing credentials"));
    withEnv({ ...noKeys, OPENAI_API_KEY: "replay-placeholder" }, () => expect(client()).to.be.an("object"));
  });
  for (const [name, variable, words, build] of needKey) {
    it(`${name} throws "${words}" without ${variable}, and builds with any placeholder in it`, () => {
      withEnv(noKeys, () => expect(build).to.throw(words));
      withEnv({ ...noKeys, [variable]: "replay-placeholder" }, () => expect(build()).to.be.an("object"));
    });
  }
  for (const [name, build] of buildWithout) {
    it(`${name} builds without one`, () => withEnv(noKeys, () => expect(build()).to.be.an("object")));
  }
});
