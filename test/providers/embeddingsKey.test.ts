/** What enters an embedding's key, for the provider embeddings clients (through their real clients and fakes). */
import { expect } from "chai";
import type { Embeddings } from "@langchain/core/embeddings";
import { BedrockEmbeddings } from "@langchain/aws";
import { GoogleGenerativeAIEmbeddings } from "@langchain/google-genai";
import { MistralAIEmbeddings } from "@langchain/mistralai";
import { Vcr } from "../../src/index";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";
import type { Fake } from "./fakes/base";
import { bedrockClient, spec as bedrock } from "./specs/bedrock";
import { GOOGLE_KEY, spec as google } from "./specs/google";
import { MISTRAL_KEY, spec as mistral } from "./specs/mistral";
import type { ProviderSpec } from "./spec";

type Make = (url: string) => Embeddings;
const CASES: [string, ProviderSpec, Make, Make, "busts" | "same"][] = [
  [
    "BedrockEmbeddings modelParameters.dimensions",
    bedrock,
    (url) => new BedrockEmbeddings({ model: "amazon.titan-embed-text-v2:0", client: bedrockClient(url), modelParameters: { dimensions: 256 } }),
    (url) => new BedrockEmbeddings({ model: "amazon.titan-embed-text-v2:0", client: bedrockClient(url), modelParameters: { dimensions: 512 } }),
    "busts",
  ],
  [
    "BedrockEmbeddings model id",
    bedrock,
    (url) => new BedrockEmbeddings({ model: "amazon.titan-embed-text-v1", client: bedrockClient(url) }),
    (url) => new BedrockEmbeddings({ model: "amazon.titan-embed-text-v2:0", client: bedrockClient(url) }),
    "busts",
  ],
  [
    "GoogleGenerativeAIEmbeddings taskType",
    google,
    (url) => new GoogleGenerativeAIEmbeddings({ model: "text-embedding-004", apiKey: GOOGLE_KEY, baseUrl: url, taskType: "RETRIEVAL_QUERY" as never }),
    (url) => new GoogleGenerativeAIEmbeddings({ model: "text-embedding-004", apiKey: GOOGLE_KEY, baseUrl: url, taskType: "SEMANTIC_SIMILARITY" as never }),
    "busts",
  ],
  [
    "GoogleGenerativeAIEmbeddings API keys and base URLs",
    google,
    (url) => new GoogleGenerativeAIEmbeddings({ model: "text-embedding-004", apiKey: GOOGLE_KEY, baseUrl: url }),
    (url) =>
      new GoogleGenerativeAIEmbeddings({
        model: "text-embedding-004",
        apiKey: "AIzaANOTHERanotherANOTHERanother0000000",
        baseUrl: url.replace("127.0.0.1", "localhost"),
      }),
    "same",
  ],
  [
    "BedrockEmbeddings credentials, region and endpoint",
    bedrock,
    (url) => new BedrockEmbeddings({ model: "amazon.titan-embed-text-v1", client: bedrockClient(url) }),
    (url) =>
      new BedrockEmbeddings({
        model: "amazon.titan-embed-text-v1",
        region: "eu-west-1",
        client: bedrockClient(url, "eu-west-1", { accessKeyId: "AKIAOTHEROTHEROTHER1", secretAccessKey: "x".repeat(40), sessionToken: "other-session" }),
      }),
    "same",
  ],
  [
    "MistralAIEmbeddings API keys",
    mistral,
    (url) => new MistralAIEmbeddings({ model: "mistral-embed", apiKey: MISTRAL_KEY, serverURL: url }),
    (url) => new MistralAIEmbeddings({ model: "mistral-embed", apiKey: "another-mistral-key-0000000000", serverURL: url }),
    "same",
  ],
];

describe("embeddings keys for the provider clients", () => {
  const fakes = new Map<ProviderSpec, Fake>();
  before(async () => {
    for (const s of [bedrock, google, mistral]) fakes.set(s, await s.start());
  });
  after(async () => {
    for (const f of fakes.values()) await f.close();
    removeTmpDirs();
  });
  for (const [name, spec, a, b, expected] of CASES) {
    it(`${name} → ${expected === "busts" ? "two fixtures" : "one fixture, the second call replays"}`, async () => {
      const dir = tmpDir();
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      const fake = fakes.get(spec)!;
      await vcr.embeddings(a(fake.url)).embedQuery("hello");
      const requests = fake.count();
      await vcr.embeddings(b(fake.url)).embedQuery("hello");
      expect(fixtureFiles(dir)).to.have.length(expected === "busts" ? 2 : 1);
      expect(fake.count()).to.equal(expected === "busts" ? requests + 1 : requests);
    });
  }
});
