import { expect } from "chai";
import { ChatOpenAI, OpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { ChatOllama, OllamaEmbeddings } from "@langchain/ollama";
import { AIMessageChunk, HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { FakeProvider, fakeVector, startFakeProvider } from "./fakeProvider";

const weatherTool = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
  name: "get_weather",
  description: "Get the weather for a city",
  schema: z.object({ city: z.string(), days: z.number() }),
});

describe("fakeProvider (loopback fake model provider)", function () {
  this.timeout(10000);
  let fake: FakeProvider;

  beforeEach(async () => {
    fake = await startFakeProvider();
  });
  afterEach(async () => {
    await fake.close();
  });

  const chatOpenAI = (extra: Record<string, unknown> = {}) =>
    new ChatOpenAI({
      model: "gpt-4o-mini",
      apiKey: "sk-test",
      maxRetries: 0,
      configuration: { baseURL: fake.openaiBaseURL },
      ...extra,
    });
  const chatOllama = () => new ChatOllama({ model: "llama3.2", baseUrl: fake.ollamaBaseUrl, maxRetries: 0 });

  it("listens on 127.0.0.1 and exposes the base URLs", function () {
    this.timeout(10000);
    expect(fake.url).to.match(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(fake.openaiBaseURL).to.equal(fake.url + "/v1");
    expect(fake.ollamaBaseUrl).to.equal(fake.url);
  });

  it("fakeVector is deterministic and Float32-representable", function () {
    this.timeout(10000);
    const v = fakeVector("hello", 40);
    expect(v).to.have.length(40);
    expect(fakeVector("hello", 40)).to.deep.equal(v);
    expect(fakeVector("hello", 8)).to.deep.equal(v.slice(0, 8));
    expect(fakeVector("world", 8)).to.not.deep.equal(v.slice(0, 8));
    for (const x of v) {
      expect(x).to.be.within(-1, 1);
      expect(Math.fround(x)).to.equal(x);
    }
  });

  it("ChatOpenAI.invoke gets the default echo reply with usage and a unique id", async function () {
    this.timeout(10000);
    const model = chatOpenAI();
    const msg = await model.invoke("hi");
    expect(msg.content).to.equal("echo: hi");
    expect(msg.id).to.equal("chatcmpl-fake-1");
    expect(msg.usage_metadata?.input_tokens).to.equal(1);
    expect(msg.usage_metadata?.output_tokens).to.equal(2);
    expect(msg.usage_metadata?.total_tokens).to.equal(3);
    const second = await model.invoke([
      new HumanMessage({
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b" },
        ],
      }),
    ]);
    expect(second.content).to.equal("echo: ab");
    expect(second.id).to.equal("chatcmpl-fake-2");
    expect(fake.count("/v1/chat/completions")).to.equal(2);
    expect(fake.count()).to.equal(2);
    const req = fake.requests[0];
    expect(req.method).to.equal("POST");
    expect(req.path).to.equal("/v1/chat/completions");
    expect(req.headers.authorization).to.equal("Bearer sk-test");
    expect(req.body.model).to.equal("gpt-4o-mini");
    expect(req.body.messages).to.deep.equal([{ role: "user", content: "hi" }]);
  });

  it("ChatOpenAI.bindTools parses a scripted tool call", async function () {
    this.timeout(10000);
    fake.enqueue({ toolCalls: [{ name: "get_weather", args: { city: "Paris", days: 3 } }] });
    const msg = await chatOpenAI().bindTools([weatherTool]).invoke("weather in Paris?");
    expect(msg.tool_calls).to.have.length(1);
    expect(msg.tool_calls![0].name).to.equal("get_weather");
    expect(msg.tool_calls![0].args).to.deep.equal({ city: "Paris", days: 3 });
    expect(msg.tool_calls![0].id).to.equal("call_fake_1");
    expect(msg.response_metadata.finish_reason).to.equal("tool_calls");
    expect(fake.requests[0].body.tools[0].function.name).to.equal("get_weather");
    // queue consumed: next call is the default echo
    const next = await chatOpenAI().invoke("again");
    expect(next.content).to.equal("echo: again");
  });

  it("ChatOpenAI.stream streams text in several chunks and reports usage", async function () {
    this.timeout(10000);
    fake.enqueue({ content: "the quick brown fox jumps" });
    const chunks: AIMessageChunk[] = [];
    for await (const c of await chatOpenAI().stream("go")) chunks.push(c);
    const text = chunks.map((c) => c.content).join("");
    expect(text).to.equal("the quick brown fox jumps");
    expect(chunks.filter((c) => typeof c.content === "string" && c.content.length > 0).length).to.be.greaterThan(3);
    const body = fake.requests[0].body;
    expect(body.stream).to.equal(true);
    expect(body.stream_options).to.deep.equal({ include_usage: true });
    const full = chunks.reduce((a, b) => a.concat(b));
    expect(full.usage_metadata?.output_tokens).to.equal(5);
    expect(full.usage_metadata?.input_tokens).to.equal(1);
  });

  it("ChatOpenAI.stream streams a tool call as tool_call_chunks", async function () {
    this.timeout(10000);
    fake.enqueue({ toolCalls: [{ name: "get_weather", args: { city: "San Francisco", days: 10 } }] });
    const chunks: AIMessageChunk[] = [];
    for await (const c of await chatOpenAI().bindTools([weatherTool]).stream("weather?")) chunks.push(c);
    const withToolChunks = chunks.filter((c) => (c.tool_call_chunks ?? []).length > 0);
    expect(withToolChunks.length).to.be.greaterThan(3);
    expect(withToolChunks[0].tool_call_chunks![0].name).to.equal("get_weather");
    expect(withToolChunks[0].tool_call_chunks![0].id).to.equal("call_fake_1");
    const full = chunks.reduce((a, b) => a.concat(b));
    expect(full.tool_calls).to.have.length(1);
    expect(full.tool_calls![0].args).to.deep.equal({ city: "San Francisco", days: 10 });
    expect(full.response_metadata.finish_reason).to.equal("tool_calls");
  });

  it("ChatOpenAI.withStructuredOutput gets a trivially valid JSON object", async function () {
    this.timeout(10000);
    const schema = z.object({ name: z.string(), age: z.number(), ok: z.boolean(), tags: z.array(z.string()) });
    const out = await chatOpenAI().withStructuredOutput(schema).invoke("extract");
    expect(out).to.deep.equal({ name: "x", age: 1, ok: true, tags: [] });
    expect(fake.requests[0].body.response_format.type).to.equal("json_schema");
  });

  it("ChatOpenAI.withStructuredOutput (functionCalling) gets a forced tool call with filled args", async function () {
    this.timeout(10000);
    const schema = z.object({ answer: z.string(), confidence: z.number() });
    const out = await chatOpenAI().withStructuredOutput(schema, { method: "functionCalling", name: "extract" }).invoke("extract");
    expect(out).to.deep.equal({ answer: "x", confidence: 1 });
    expect(fake.requests[0].body.tool_choice).to.deep.equal({ type: "function", function: { name: "extract" } });
  });

  it("a scripted 500 makes ChatOpenAI (maxRetries: 0) throw and is consumed", async function () {
    this.timeout(10000);
    fake.enqueue({ status: 500 });
    let error: any;
    try {
      await chatOpenAI().invoke("boom");
    } catch (e) {
      error = e;
    }
    expect(error, "expected a throw").to.not.equal(undefined);
    expect(String(error?.message)).to.contain("fake error");
    expect(fake.count("/v1/chat/completions")).to.equal(1);
    expect((await chatOpenAI().invoke("fine")).content).to.equal("echo: fine");
  });

  it("ChatOllama.invoke gets the echo reply with usage", async function () {
    this.timeout(10000);
    const msg = await chatOllama().invoke("hello there");
    expect(msg.content).to.equal("echo: hello there");
    expect(msg.usage_metadata?.input_tokens).to.equal(2);
    expect(msg.usage_metadata?.output_tokens).to.equal(3);
    expect(msg.response_metadata.done_reason).to.equal("stop");
    expect(fake.count("/api/chat")).to.equal(1);
    const body = fake.requests[0].body;
    expect(body.model).to.equal("llama3.2");
    expect(body.stream).to.equal(true);
    expect(body.messages).to.deep.equal([{ role: "user", content: "hello there" }]);
  });

  it("ChatOllama.bindTools parses a scripted tool call", async function () {
    this.timeout(10000);
    fake.enqueue({
      toolCalls: [
        { name: "get_weather", args: { city: "Oslo", days: 2 } },
        { name: "get_weather", args: { city: "Rome", days: 1 } },
      ],
    });
    const msg = await chatOllama().bindTools([weatherTool]).invoke("weather?");
    expect(msg.tool_calls).to.have.length(2);
    expect(msg.tool_calls![0].name).to.equal("get_weather");
    expect(msg.tool_calls![0].args).to.deep.equal({ city: "Oslo", days: 2 });
    expect(msg.tool_calls![1].args).to.deep.equal({ city: "Rome", days: 1 });
    expect(fake.requests[0].body.tools[0].function.name).to.equal("get_weather");
  });

  it("ChatOllama.withStructuredOutput (format schema) gets a trivially valid object", async function () {
    this.timeout(10000);
    const schema = z.object({ title: z.string(), score: z.number(), nested: z.object({ flag: z.boolean() }) });
    const out = await chatOllama().withStructuredOutput(schema).invoke("extract");
    expect(out).to.deep.equal({ title: "x", score: 1, nested: { flag: true } });
    expect(fake.requests[0].body.format.type).to.equal("object");
  });

  it("a scripted 500 makes ChatOllama throw", async function () {
    this.timeout(10000);
    fake.enqueue({ status: 500 });
    let error: any;
    try {
      await chatOllama().invoke("boom");
    } catch (e) {
      error = e;
    }
    expect(String(error?.message)).to.contain("fake error");
  });

  it("OpenAIEmbeddings decodes base64 Float32 vectors equal to fakeVector", async function () {
    this.timeout(10000);
    const emb = new OpenAIEmbeddings({
      model: "text-embedding-3-small",
      apiKey: "sk-test",
      maxRetries: 0,
      configuration: { baseURL: fake.openaiBaseURL },
    });
    const vectors = await emb.embedDocuments(["alpha", "beta"]);
    expect(vectors).to.have.length(2);
    expect(vectors[0]).to.deep.equal(fakeVector("alpha", 8));
    expect(vectors[1]).to.deep.equal(fakeVector("beta", 8));
    vectors[0].forEach((x, i) => expect(x === fakeVector("alpha", 8)[i]).to.equal(true));
    expect(fake.requests[0].body.encoding_format).to.equal("base64");
    expect(fake.requests[0].body.input).to.deep.equal(["alpha", "beta"]);

    const wide = new OpenAIEmbeddings({
      model: "text-embedding-3-small",
      apiKey: "sk-test",
      dimensions: 16,
      maxRetries: 0,
      configuration: { baseURL: fake.openaiBaseURL },
    });
    expect(await wide.embedQuery("gamma")).to.deep.equal(fakeVector("gamma", 16));

    const floats = new OpenAIEmbeddings({
      model: "text-embedding-3-small",
      apiKey: "sk-test",
      encodingFormat: "float",
      maxRetries: 0,
      configuration: { baseURL: fake.openaiBaseURL },
    });
    expect(await floats.embedQuery("delta")).to.deep.equal(fakeVector("delta", 8));
    expect(fake.count("/v1/embeddings")).to.equal(3);
  });

  it("OllamaEmbeddings.embedQuery returns fakeVector(text, 8)", async function () {
    this.timeout(10000);
    const emb = new OllamaEmbeddings({ model: "nomic-embed-text", baseUrl: fake.ollamaBaseUrl, maxRetries: 0 });
    expect(await emb.embedQuery("hello")).to.deep.equal(fakeVector("hello", 8));
    const docs = await emb.embedDocuments(["a", "b"]);
    expect(docs).to.deep.equal([fakeVector("a", 8), fakeVector("b", 8)]);
    expect(fake.count("/api/embed")).to.equal(2);
  });

  it("OpenAI (text completion LLM) invoke and batch get echo replies", async function () {
    this.timeout(10000);
    const llm = new OpenAI({
      model: "gpt-3.5-turbo-instruct",
      apiKey: "sk-test",
      maxRetries: 0,
      configuration: { baseURL: fake.openaiBaseURL },
    });
    expect(await llm.invoke("say something")).to.equal("echo: say something");
    const res = await llm.generate(["one", "two"]);
    expect(res.generations.map((g) => g[0].text)).to.deep.equal(["echo: one", "echo: two"]);
    expect(fake.count("/v1/completions")).to.equal(2);
    expect(fake.requests[1].body.prompt).to.deep.equal(["one", "two"]);
  });

  it("unknown paths get a 404 JSON and are recorded; reset clears requests and queue", async function () {
    this.timeout(10000);
    const res = await fetch(fake.url + "/nope?x=1");
    expect(res.status).to.equal(404);
    expect(((await res.json()) as any).error.code).to.equal("not_found");
    expect(fake.count("/nope")).to.equal(1);
    expect(fake.requests[0].method).to.equal("GET");
    fake.enqueue({ content: "scripted" });
    fake.reset();
    expect(fake.count()).to.equal(0);
    expect((await chatOpenAI().invoke("after reset")).content).to.equal("echo: after reset");
  });

  it("latencyMs delays responses", async function () {
    this.timeout(10000);
    const slow = await startFakeProvider({ latencyMs: 150 });
    try {
      const t0 = Date.now();
      await fetch(slow.url + "/v1/embeddings", { method: "POST", body: JSON.stringify({ input: "x" }) });
      expect(Date.now() - t0).to.be.at.least(140);
    } finally {
      await slow.close();
    }
  });
});
