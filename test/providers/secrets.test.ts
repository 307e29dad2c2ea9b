/**
 * Each provider's credential shapes are known to the scanner, and the literal credentials each
 * real client holds are found whatever it calls the field (src/clientSecrets.ts).
 */
import { expect } from "chai";
import { ChatAnthropic } from "@langchain/anthropic";
import { BedrockEmbeddings, ChatBedrockConverse } from "@langchain/aws";
import { ChatGoogleGenerativeAI, GoogleGenerativeAIEmbeddings } from "@langchain/google-genai";
import { ChatGroq } from "@langchain/groq";
import { ChatMistralAI, MistralAIEmbeddings } from "@langchain/mistralai";
import { AzureChatOpenAI, ChatOpenAI } from "@langchain/openai";
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { callSecrets, clientSecrets, envSecrets } from "../../src/clientSecrets";
import { findSecret, maskSecrets } from "../../src/secrets";

const AWS = {
  accessKeyId: "AKIAFIELDSFIELDS1234",
  secretAccessKey: "fieldsSecret/fieldsSecret+fieldsSecret00",
  sessionToken: "FwoGZXIvYXdzFIELDSsessionTOKEN0000000000",
};
const scan = (text: string) => findSecret({ text }, [], new Set())?.pattern;

describe("secrets: every provider's credential shapes", () => {
  const shapes: Record<string, string> = {
    anthropic_key: "sk-ant-api03-Zx9yW8vU7tS6rQ5pO4nM3lK2jI1hG0fE",
    google_api_key: "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q",
    aws_access_key: "AKIAIOSFODNN7EXAMPLE",
    groq_key: "gsk_1a2B3c4D5e6F7g8H9i0J1k2L3m4N5o6P7q8R9s0T1u2V3w4X5y",
    langsmith_key: "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", // trial 53: written to a fixture before
    xai_key: "xai-Zx9yW8vU7tS6rQ5pO4nM3lK2jI1hG0fEZx9yW8vU7tS6rQ5pO4nM3lK2jI1hG0fE1a2b3c4d5e6f7g8h9i0j",
    perplexity_key: "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",
    tavily_key: "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",
    pinecone_key: "pcsk_4Xb9Qa_0a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8s9T0u1V2w3X",
  };
  for (const [pattern, value] of Object.entries(shapes)) {
    it(`${pattern}: ${value.slice(0, 8)}… is caught`, () => expect(scan(`here: ${value} end`)).to.equal(pattern));
  }
  const more: Record<string, string[]> = {
    github_token: ["github_pat_11ABCDEFG0abcdefghijkl_mnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUV"],
    jwt: ["eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"],
    slack_token: ["xoxb-1234567890-0987654321-AbCdEfGhIjKlMnOp"],
    stripe_key: ["sk_live_4eC39HqLyjWDarjtT1zdp7dc", "rk_live_51Habcdefghijklmnopqrstu"],
    huggingface_token: ["hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345"],
    npm_token: ["npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"],
    google_oauth_token: ["ya29.a0AfH6SMBx1234567890abcdefghijklmnop"],
    url_credentials: ["postgres://app:s3cretPass@db.internal:5432/app", "https://user:pa55@proxy.example.com"],
  };
  for (const [pattern, values] of Object.entries(more)) {
    it(`${pattern}: ${values.length} shape(s) caught`, () => {
      for (const v of values) expect(scan(`value ${v} end`), v).to.equal(pattern);
    });
  }
  it("look-alikes of the newer shapes are not: a URL with an @ but no password, a mailto, one base64 part, a word with hf_", () => {
    for (const text of [
      "https://example.com/@user/repo",
      "mailto:someone@example.com",
      "git@github.com:org/repo.git",
      "eyJhbGciOiJIUzI1NiJ9 alone",
      "the hf_ prefix",
      "lsv2_pt_ keys look like lsv2_pt_<32 hex>_<10 hex>",
      "xai-grok-4 is a model",
      "tvly-search results",
      "sk_test_4eC39HqLyjWDarjtT1zdp7dc",
      "http://localhost:8080,admin@example.com", // a port, then an address in a CSV row
      "postgres://user:password@localhost:5432/app", // a placeholder password in a coding question
      "redis://default:6379@cache.internal",
      "amqp://guest:<password>@broker",
    ]) {
      expect(scan(text), text).to.equal(undefined);
    }
  });
  it("a key spelled out over an array's elements is caught joined, with the place it was read at", () => {
    const key = "sk-proj-CsMehGAkW0123456789abcdefXYZ";
    const chunks = key.match(/.{1,4}/g)!.map((text) => ({ text, message: { tool_call_chunks: [{ args: text }] } }));
    expect(findSecret({ response: { chunks } }, [], new Set())).to.deep.equal({ path: "$.response.chunks[*].text, joined", pattern: "openai_key" });
    expect(findSecret({ response: { parts: ["my key is vllm-", "literal-", "0042"] } }, ["vllm-literal-0042"], new Set())).to.deep.equal({
      path: "$.response.parts[*], joined",
      pattern: "client_api_key",
    });
    // only a response is read joined: two messages of a conversation make up no key between them
    expect(findSecret({ request: { messages: [{ content: "prefix is sk-" }, { content: "abcdefghijklmnopqrstuvwx" }] } }, [], new Set())).to.equal(undefined);
    expect(findSecret({ chunks: [{ text: "sk-" }, { text: "short" }] }, [], new Set()), "no key once joined").to.equal(undefined);
  });
  it("maskSecrets masks a private key's whole block and a URL's credentials, not its host; text without secrets is unchanged", () => {
    const pem = "-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA1234567890abcdef\n-----END RSA PRIVATE KEY-----";
    expect(maskSecrets({ a: `key: ${pem} done` }, [], new Set())).to.deep.equal({ a: "key: [secret: private_key] done" });
    expect(maskSecrets(["postgres://app:s3cretPass@db.internal:5432/app"], [], new Set())).to.deep.equal(["[secret: url_credentials]db.internal:5432/app"]);
    const plain = { messages: [{ role: "user", content: "What is 2 + 2? See https://example.com/a@b" }] };
    expect(maskSecrets(plain, [], new Set())).to.deep.equal(plain);
  });
  it("ASIA… (temporary AWS access keys) is caught", () => expect(scan("ASIAJEXAMPLEXEG2JICE")).to.equal("aws_access_key"));
  it("an AWS secret access key next to its name (env, JSON, ini) is caught", () => {
    for (const text of [
      "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
      '"secretAccessKey": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"',
      "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ]) {
      expect(scan(text), text).to.equal("aws_secret_key");
    }
  });
  it("an AWS session token is caught by its fixed prefix", () => {
    expect(scan("token IQoJb3JpZ2luX2VjEXAMPLEtokenEXAMPLEtoken")).to.equal("aws_session_token");
    expect(scan(AWS.sessionToken)).to.equal("aws_session_token");
  });
  it("a Google API key ending in - or _ is caught wherever it ends (a query string, quotes, the end of the text)", () => {
    // 35 characters of [0-9A-Za-z_-] after AIza: 1 key in 64 ends in "-", after which \b never matched
    for (const key of ["AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6-", "AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6_"]) {
      for (const text of [key, `url?key=${key}`, `"${key}"`, `key=${key}&alt=sse`]) expect(scan(text), text).to.equal("google_api_key");
    }
  });
  it("AIza inside a longer token is not a Google API key (36 key characters after it, or a word before it)", () => {
    expect(scan("AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6-x")).to.equal(undefined);
    expect(scan("AIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Qx")).to.equal(undefined);
    expect(scan("xAIzaSyA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q")).to.equal(undefined);
  });
  it("look-alikes are not: a 40-character hex commit id, a sha256, a bare 40-character base64 run, words with gsk_", () => {
    expect(scan("commit 3f9c2b7e4a1d8c6b5e0f9a8b7c6d5e4f3a2b1c0d")).to.equal(undefined);
    expect(scan("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")).to.equal(undefined);
    expect(scan("wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")).to.equal(undefined);
    expect(scan("the gsk_ prefix")).to.equal(undefined);
  });
});

describe("secrets: the literal credentials each real client holds", () => {
  const cases: [string, () => object, string[]][] = [
    ["ChatAnthropic apiKey", () => new ChatAnthropic({ model: "m", apiKey: "anthropic-literal-1" }), ["anthropic-literal-1"]],
    ["ChatAnthropic anthropicApiKey", () => new ChatAnthropic({ model: "m", anthropicApiKey: "anthropic-literal-2" }), ["anthropic-literal-2"]],
    ["ChatGoogleGenerativeAI", () => new ChatGoogleGenerativeAI({ model: "m", apiKey: "google-literal-1" }), ["google-literal-1"]],
    ["GoogleGenerativeAIEmbeddings", () => new GoogleGenerativeAIEmbeddings({ apiKey: "google-literal-2" }), ["google-literal-2"]],
    [
      "ChatBedrockConverse credentials",
      () => new ChatBedrockConverse({ model: "m", region: "us-east-1", credentials: AWS }),
      [AWS.accessKeyId, AWS.secretAccessKey, AWS.sessionToken],
    ],
    ["ChatGroq", () => new ChatGroq({ model: "m", apiKey: "groq-literal-1" }), ["groq-literal-1"]],
    ["ChatMistralAI", () => new ChatMistralAI({ model: "m", apiKey: "mistral-literal-1" }), ["mistral-literal-1"]],
    ["MistralAIEmbeddings", () => new MistralAIEmbeddings({ apiKey: "mistral-literal-2" }), ["mistral-literal-2"]],
    ["ChatOpenAI (unchanged)", () => new ChatOpenAI({ model: "m", apiKey: "openai-literal-1" }), ["openai-literal-1"]],
  ];
  for (const [name, make, literals] of cases) {
    it(`${name}: ${literals.length} literal(s) found`, () => {
      const found = clientSecrets(make() as Record<string, unknown>);
      expect(found).to.include.members(literals);
      expect(found.every((s) => s.length >= 8)).to.equal(true);
    });
  }
  it("BedrockEmbeddings (and any injected BedrockRuntimeClient) keep credentials in a closure: none is readable without asking (callSecrets does), and the patterns catch the access key id and session token", () => {
    expect(clientSecrets(new BedrockEmbeddings({ region: "us-east-1", credentials: AWS }) as unknown as Record<string, unknown>)).to.deep.equal([]);
    expect(scan(AWS.accessKeyId)).to.equal("aws_access_key");
    expect(scan(AWS.sessionToken)).to.equal("aws_session_token");
  });
  it("callSecrets asks an AWS SDK client for the credentials it resolved: given, injected with a client, or from the environment", async () => {
    const secrets = [AWS.secretAccessKey, AWS.sessionToken];
    const asRecord = (o: object) => o as unknown as Record<string, unknown>;
    expect(await callSecrets(asRecord(new BedrockEmbeddings({ region: "us-east-1", credentials: AWS })))).to.include.members(secrets);
    const client = new BedrockRuntimeClient({ region: "us-east-1", credentials: AWS });
    expect(await callSecrets(asRecord(new ChatBedrockConverse({ model: "m", region: "us-east-1", client })))).to.include.members(secrets);
    const saved = { ...process.env };
    try {
      Object.assign(process.env, {
        AWS_ACCESS_KEY_ID: "AKIAENVIRONMENT12345",
        AWS_SECRET_ACCESS_KEY: "envSecret/envSecret+envSecret/envSecret00",
        AWS_SESSION_TOKEN: "",
      });
      expect(await callSecrets(asRecord(new ChatBedrockConverse({ model: "m", region: "us-east-1" })))).to.include("envSecret/envSecret+envSecret/envSecret00");
    } finally {
      for (const k of ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"]) if (saved[k] === undefined) delete process.env[k];
      Object.assign(process.env, saved);
    }
    expect(await callSecrets(asRecord(new ChatOpenAI({ model: "m", apiKey: "openai-literal-1" })))).to.deep.equal(["openai-literal-1"]);
  });
  it("callSecrets takes a bearer-token client's token, and never runs its credential chain (profiles, credential_process, the metadata service)", async () => {
    let chainRuns = 0;
    const client = new BedrockRuntimeClient({
      region: "us-east-1",
      authSchemePreference: ["httpBearerAuth"],
      token: async () => ({ token: "bedrock-bearer-0123456789" }),
      credentials: async () => {
        chainRuns++;
        return AWS;
      },
    });
    const found = await callSecrets(new ChatBedrockConverse({ model: "m", region: "us-east-1", client }) as unknown as Record<string, unknown>);
    expect(found).to.include("bedrock-bearer-0123456789");
    expect(chainRuns).to.equal(0);
  });
  it("envSecrets: the values of credential variables shaped like a credential, named by their variable", () => {
    const env = {
      GITHUB_TOKEN: "ghp_notAShape0123",
      AWS_SECRET_ACCESS_KEY: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY0",
      MY_SERVICE_API_KEY: "svc-key-20261204",
      DB_PASSWORD: "password",
      APP_SECRET: "correct horse battery 9",
      SHORT_TOKEN: "abc123",
      NO_DIGIT_TOKEN: "abcdefghijklmnop",
      LANGCHAIN_VCR_SOME_TOKEN: "langchain-vcr-0123456789",
      SYSTEM_ACCESSTOKEN: "azure-pipelines-0123456789",
      HOME: "/home/user0123456789",
    };
    expect(envSecrets(env)).to.deep.equal([
      { value: "ghp_notAShape0123", variable: "GITHUB_TOKEN" },
      { value: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY0", variable: "AWS_SECRET_ACCESS_KEY" },
      { value: "svc-key-20261204", variable: "MY_SERVICE_API_KEY" },
      { value: "azure-pipelines-0123456789", variable: "SYSTEM_ACCESSTOKEN" },
    ]);
    // allowed by name, as a pattern is
    const known = envSecrets(env);
    expect(findSecret({ text: "svc-key-20261204" }, known, new Set())?.pattern).to.equal("environment_secret");
    expect(findSecret({ text: "svc-key-20261204" }, known, new Set(["environment_secret"]))).to.equal(undefined);
  });
  it("an injected SDK client that keeps its key as a bare token (cohere-ai's CohereClient: client._options.token, the only way to give ChatCohere and CohereEmbeddings another URL) is found; a stop token or a token count is not", () => {
    // the shape ChatCohere({ client: new CohereClient({ token, environment }) }) has (the package is not a dependency here)
    const cohere = { model: "command-r", client: { _options: { token: "cohere-literal-1", environment: "http://127.0.0.1:9/cohere" } } };
    expect(clientSecrets(cohere)).to.deep.equal(["cohere-literal-1"]);
    expect(clientSecrets({ client: { _options: { accessToken: "oauth-literal-1", refresh_token: "refresh-literal-1" } } })).to.deep.equal([
      "oauth-literal-1",
      "refresh-literal-1",
    ]);
    expect(clientSecrets({ lc_kwargs: { stop_token: "<|im_end|>", maxTokens: "12345678", tokenizer: "cl100k_base" } })).to.deep.equal([]);
  });
  it("the credentials a client sends in its headers and query on every call (a gateway's, an Azure APIM's) are found by their HTTP names; a bearer's token without its scheme; other headers are not", () => {
    const openai = new ChatOpenAI({
      model: "m",
      apiKey: "openai-literal-1",
      configuration: {
        baseURL: "http://127.0.0.1:9/v1",
        defaultHeaders: {
          Authorization: "Bearer gateway-bearer-1",
          "x-api-key": "gateway-xkey-1",
          "Ocp-Apim-Subscription-Key": "apim-subscription-1",
          "x-tenant": "tenant-name-long",
          "anthropic-version": "2023-06-01",
        },
        defaultQuery: { "api-key": "query-literal-1", "api-version": "2024-10-21" },
      },
    });
    const found = clientSecrets(openai as unknown as Record<string, unknown>);
    expect(found).to.include.members(["openai-literal-1", "gateway-bearer-1", "gateway-xkey-1", "apim-subscription-1", "query-literal-1"]);
    expect(found).not.to.include.members(["Bearer gateway-bearer-1", "tenant-name-long", "2023-06-01", "2024-10-21"]);
    const azure = new AzureChatOpenAI({
      azureOpenAIApiKey: "azure-literal-1",
      azureOpenAIEndpoint: "http://127.0.0.1:9",
      azureOpenAIApiDeploymentName: "dep",
      azureOpenAIApiVersion: "2024-10-21",
      configuration: { defaultHeaders: { "api-key": "azure-header-1" } },
    });
    expect(clientSecrets(azure as unknown as Record<string, unknown>)).to.include.members(["azure-literal-1", "azure-header-1"]);
    const anthropic = new ChatAnthropic({
      model: "m",
      apiKey: "anthropic-literal-1",
      clientOptions: { defaultHeaders: { "X-Auth-Token": "anthropic-header-1" } },
    });
    expect(clientSecrets(anthropic as unknown as Record<string, unknown>)).to.include.members(["anthropic-literal-1", "anthropic-header-1"]);
    expect(clientSecrets({ clientConfig: { defaultHeaders: new Headers({ authorization: "Basic aGVhZGVyczpsaXRlcmFs" }) } })).to.deep.equal([
      "aGVhZGVyczpsaXRlcmFs",
    ]);
  });
  it("headers given as a list of [name, value] pairs (the OpenAI SDK takes them), a Map, or a Headers of another realm (jsdom has no global one) are read too", () => {
    const tuples = new ChatOpenAI({
      model: "m",
      apiKey: "openai-literal-2",
      configuration: {
        baseURL: "http://127.0.0.1:9/v1",
        defaultHeaders: [
          ["x-api-key", "tuple-xkey-1"],
          ["x-team", "team-name-long"],
        ] as never,
      },
    });
    const found = clientSecrets(tuples as unknown as Record<string, unknown>);
    expect(found).to.include.members(["openai-literal-2", "tuple-xkey-1"]);
    expect(found).not.to.include("team-name-long");
    expect(clientSecrets({ configuration: { defaultHeaders: new Map([["Authorization", "Bearer map-bearer-1"]]) } })).to.deep.equal(["map-bearer-1"]);
    // a header given several values (Record<string, string | string[]>): each is read under the header's name
    expect(
      clientSecrets({ configuration: { defaultHeaders: { "x-api-key": ["list-key-one-1", "list-key-two-2"], "x-team": ["team-name-long"] } } }),
    ).to.deep.equal(["list-key-one-1", "list-key-two-2"]);
    // what a Headers of another realm (a polyfill, jsdom's) is to this one: not an instance of the global class
    const foreign = { entries: () => new Headers({ "api-key": "foreign-header-1" }).entries(), get: () => null, has: () => false };
    expect(clientSecrets({ configuration: { defaultHeaders: foreign } })).to.deep.equal(["foreign-header-1"]);
  });
  it("names of environment variables and other settings are not taken for secrets", () => {
    const found = clientSecrets(
      new ChatGroq({ model: "llama-3.3-70b-versatile", apiKey: "groq-literal-1", temperature: 0.2 }) as unknown as Record<string, unknown>,
    );
    expect(found).not.to.include("GROQ_API_KEY");
    expect(found).not.to.include("llama-3.3-70b-versatile");
  });
});
