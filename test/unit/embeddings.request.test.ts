/** The canonical embedding request: provider, model, dimensions, output options, query vs document, text — nothing else. */
import { expect } from "chai";
import { Embeddings } from "@langchain/core/embeddings";
import { AzureOpenAIEmbeddings, OpenAIEmbeddings } from "@langchain/openai";
import { OllamaEmbeddings } from "@langchain/ollama";
import { CacheBackedEmbeddings } from "@langchain/classic/embeddings/cache_backed";
import { InMemoryStore } from "@langchain/core/stores";
import { canonicalJson } from "../../src/canonical/json";
import { identity as noNormalize } from "../../src/canonical/normalize";
import { describeEmbedding, embeddingRequest, embeddingsIdentity, truncateText } from "../../src/adapters/embeddings/request";

class MyEmbeddings extends Embeddings {
  modelName = "my-model-v2";
  taskType = "RETRIEVAL_DOCUMENT";
  normalize = () => "a method, not an option";
  apiKey = "test-key-custom";
  endpoint = "http://127.0.0.1:9999";
  constructor() {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return texts.map(() => [1]);
  }
  async embedQuery(): Promise<number[]> {
    return [1];
  }
}

describe("embeddings: canonical request", () => {
  it("reads OpenAIEmbeddings' model, dimensions and output options, never key, host, batch size or timeout", () => {
    const inner = new OpenAIEmbeddings({
      model: "text-embedding-3-small",
      dimensions: 256,
      encodingFormat: "float",
      stripNewLines: false,
      apiKey: "test-key-openai",
      batchSize: 7,
      timeout: 1234,
      maxRetries: 3,
      maxConcurrency: 5,
      configuration: { baseURL: "http://127.0.0.1:4321/v1", organization: "org-test" },
    });
    const request = embeddingRequest(embeddingsIdentity(inner), "document", "hello", noNormalize);
    expect(request).to.deep.equal({
      provider: "openai",
      model: "text-embedding-3-small",
      dimensions: 256,
      options: { encodingFormat: "float", stripNewLines: false },
      input_type: "document",
      text: "hello",
    });
    const json = canonicalJson(request);
    for (const leak of ["test-key", "127.0.0.1", "4321", "org-test", "1234", "batch", "timeout", "Retries", "Concurrency"]) {
      expect(json, leak).to.not.include(leak);
    }
  });

  it("keeps OpenAI's default stripNewLines (it changes what is sent) and omits unset dimensions", () => {
    const inner = new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "test-key" });
    expect(embeddingRequest(embeddingsIdentity(inner), "query", "q", noNormalize)).to.deep.equal({
      provider: "openai",
      model: "text-embedding-3-small",
      options: { stripNewLines: true },
      input_type: "query",
      text: "q",
    });
  });

  it("names Azure 'azure_openai' and keys on its deployment, not its key, instance or version", () => {
    const inner = new AzureOpenAIEmbeddings({
      azureOpenAIApiKey: "test-key-azure",
      azureOpenAIApiInstanceName: "my-instance",
      azureOpenAIApiDeploymentName: "embed-deploy",
      azureOpenAIApiVersion: "2024-02-01",
    });
    const identity = embeddingsIdentity(inner);
    expect(identity.provider).to.equal("azure_openai");
    expect(identity.options).to.deep.equal({ stripNewLines: true, deployment: "embed-deploy" });
    const json = canonicalJson(embeddingRequest(identity, "document", "x", noNormalize));
    for (const leak of ["test-key", "my-instance", "2024-02-01"]) expect(json, leak).to.not.include(leak);
  });

  it("reads OllamaEmbeddings' model, dimensions, truncate and output-changing requestOptions; never baseUrl, keepAlive or runtime options", () => {
    const inner = new OllamaEmbeddings({
      model: "nomic-embed-text",
      baseUrl: "http://127.0.0.1:11434",
      dimensions: 64,
      truncate: true,
      keepAlive: "5m",
      requestOptions: { numCtx: 512, numThread: 8, useMmap: true, numGpu: 1 },
    });
    expect(embeddingRequest(embeddingsIdentity(inner), "document", "doc", noNormalize)).to.deep.equal({
      provider: "ollama",
      model: "nomic-embed-text",
      dimensions: 64,
      options: { truncate: true, requestOptions: { num_ctx: 512 } },
      input_type: "document",
      text: "doc",
    });
  });

  it("keys any other Embeddings by its class name, modelName and plain output fields (no methods, keys or endpoints)", () => {
    const request = embeddingRequest(embeddingsIdentity(new MyEmbeddings()), "query", "t", noNormalize);
    expect(request).to.deep.equal({
      provider: "MyEmbeddings",
      model: "my-model-v2",
      options: { taskType: "RETRIEVAL_DOCUMENT" },
      input_type: "query",
      text: "t",
    });
  });

  it("keys a CacheBackedEmbeddings by the model it wraps (it never changes a vector)", () => {
    const openai = new OpenAIEmbeddings({ model: "text-embedding-3-small", dimensions: 32, apiKey: "test-key" });
    const wrapped = CacheBackedEmbeddings.fromBytesStore(openai, new InMemoryStore<Uint8Array>());
    expect(embeddingsIdentity(wrapped)).to.deep.equal(embeddingsIdentity(openai));
    expect(embeddingsIdentity(wrapped).className).to.equal("OpenAIEmbeddings");
  });

  it("applies the normalizer to the text only", () => {
    const inner = new OpenAIEmbeddings({ model: "m-2024-01-01", apiKey: "test-key" });
    const request = embeddingRequest(embeddingsIdentity(inner), "document", "on 2024-01-01", (t) => t.replace(/\d{4}-\d{2}-\d{2}/g, "<DATE>"));
    expect(request.text).to.equal("on <DATE>");
    expect(request.model).to.equal("m-2024-01-01");
  });

  it("describes the caller with class, model and the text cut to 80 characters", () => {
    const inner = new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "test-key" });
    const id = embeddingsIdentity(inner);
    expect(describeEmbedding(id, embeddingRequest(id, "query", "short", noNormalize))).to.equal(
      'OpenAIEmbeddings (model "text-embedding-3-small") for the query text "short"',
    );
    const long = "x".repeat(100);
    expect(truncateText(long)).to.equal('"' + "x".repeat(80) + '…"');
    expect(truncateText('a"b')).to.equal('"a\\"b"');
  });
});
