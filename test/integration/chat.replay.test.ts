import { expect } from "chai";
import { SCHEMA_VERSION } from "../../src/store/fixture";
import { InMemoryCache } from "@langchain/core/caches";
import { awaitAllCallbacks } from "@langchain/core/callbacks/promises";
import { HumanMessage } from "@langchain/core/messages";
import { createAgent, tool } from "langchain";
import * as fs from "node:fs";
import * as path from "node:path";
import { z } from "zod";
import { Vcr, VcrConfigError, VcrMissError, withVcr } from "../../src/index";
import { inOwnTest } from "../helpers/ownTest";
import { Usage } from "../../src/runner/usage";
import { runChild } from "../helpers/child";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { ollama, openai, openaiLlm, TEST_KEY } from "../helpers/models";
import { allBytes, fixtureFiles, readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("chat record → replay through VcrCache", () => {
  let fake: FakeProvider;
  let dir: string;
  let vcr: Vcr;
  beforeEach(async () => {
    fake = await startFakeProvider();
    dir = tmpDir();
    vcr = new Vcr({ dir, mode: "record_or_replay" });
  });
  afterEach(async () => {
    await fake.close();
    removeTmpDirs();
  });

  it("records once, then replays with 0 requests and the same message (usage restored)", async () => {
    const model = openai(fake, vcr.cache);
    const live = await model.invoke("What is 2+2?");
    expect(fake.count()).to.equal(1);
    const replayed = await model.invoke("What is 2+2?");
    expect(fake.count()).to.equal(1);
    expect(replayed.content).to.equal(live.content);
    expect(replayed.id).to.equal(live.id);
    expect(replayed.response_metadata).to.deep.include({ finish_reason: "stop", model_name: "gpt-4o-mini" });
    expect(replayed.usage_metadata?.total_tokens).to.equal(live.usage_metadata?.total_tokens).and.to.be.greaterThan(0);
    expect(replayed.usage_metadata?.input_tokens).to.equal(live.usage_metadata?.input_tokens);
    expect(vcr.stats()).to.deep.equal({ replayed: 1, recorded: 1, bypassed: 0, missed: 0 });
    expect(fixtureFiles(dir)).to.have.length(1);
    const [fx] = readFixtures(dir);
    expect(fx).to.include({ schemaVersion: SCHEMA_VERSION, kind: "chat" });
    expect(fx.request).to.deep.equal({ model: "gpt-4o-mini", messages: [{ role: "user", content: "What is 2+2?" }] });
  });

  it("a replayed call's callbacks see what any LangChain cache hit reports (cached, zero usage); the caller gets the recorded usage", async () => {
    const model = openai(fake, vcr.cache);
    const live = await model.invoke("usage, please");
    const ends: { cached: unknown; usage: unknown }[] = [];
    const handler = {
      handleLLMEnd(output: { generations: object[][] }, _runId: string, _p?: string, _t?: string[], extra?: Record<string, unknown>) {
        const usage = (output.generations[0][0] as { message?: { usage_metadata?: unknown } }).message?.usage_metadata;
        ends.push({ cached: extra?.cached, usage: JSON.parse(JSON.stringify(usage)) });
      },
    };
    const [replayed] = (await model.generate([[new HumanMessage("usage, please")]], { callbacks: [handler] })).generations[0];
    expect(fake.count()).to.equal(1);
    expect(ends).to.deep.equal([{ cached: true, usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } }]);
    const message = (replayed as unknown as { message: { usage_metadata?: unknown } }).message;
    const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown; // what a fixture can hold
    expect(json(message.usage_metadata)).to.deep.equal(json(live.usage_metadata)).and.to.deep.include({ total_tokens: 5 });
    expect(json((await model.invoke("usage, please")).usage_metadata)).to.deep.equal(json(live.usage_metadata));
  });

  it("a callback that reads the replayed output after the call returned (LangSmith's tracer, in the background) still sees zero usage; the caller's message has the recorded usage", async () => {
    const model = openai(fake, vcr.cache);
    const live = await model.invoke("read it later");
    const held: { message?: { usage_metadata?: unknown } }[] = [];
    const handler = {
      handleLLMEnd(output: { generations: object[][] }) {
        held.push(output.generations[0][0] as { message?: { usage_metadata?: unknown } }); // read when the call is over, as a tracer serializes its runs later
      },
    };
    const replayed = await model.invoke("read it later", { callbacks: [handler] });
    await awaitAllCallbacks();
    const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
    expect(fake.count()).to.equal(1);
    expect(json(replayed.usage_metadata)).to.deep.equal(json(live.usage_metadata));
    expect(live.usage_metadata?.total_tokens).to.be.greaterThan(0);
    expect(held).to.have.length(1);
    expect(held[0].message).to.not.equal(replayed, "the caller's message is its own");
    expect(json(held[0].message?.usage_metadata)).to.deep.equal({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });
    // a batch of two replays: each input's caller-side message has its usage, the callbacks' ones stay at zero
    const second = await model.invoke("read it later, too");
    const both = await model.generate([[new HumanMessage("read it later")], [new HumanMessage("read it later, too")]], { callbacks: [handler] });
    expect(fake.count()).to.equal(2);
    expect(
      both.generations.map((g) => (g[0] as unknown as { message: { usage_metadata?: { total_tokens?: number } } }).message.usage_metadata?.total_tokens),
    ).to.deep.equal([live.usage_metadata?.total_tokens, second.usage_metadata?.total_tokens]);
    await awaitAllCallbacks(); // callbacks run in the background: all of them have run now
    expect(held.slice(1).map((g) => json(g.message?.usage_metadata))).to.deep.equal([
      { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
      { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    ]);
  });

  it("a fixture recorded without usage (a server that sends none) replays a message with none; the callbacks' copy has core's zeros", async () => {
    const model = openai(fake, vcr.cache);
    await model.invoke("no usage here");
    const [file] = fixtureFiles(dir);
    const fx = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8")) as { response: { generations: { message: Record<string, unknown> }[] } };
    expect(fx.response.generations[0].message.usage_metadata).to.not.equal(undefined);
    delete fx.response.generations[0].message.usage_metadata;
    fs.writeFileSync(path.join(dir, file), JSON.stringify(fx, null, 2) + "\n");
    const held: { message?: { usage_metadata?: unknown } }[] = [];
    const handler = {
      handleLLMEnd(output: { generations: object[][] }) {
        held.push(output.generations[0][0] as { message?: { usage_metadata?: unknown } });
      },
    };
    const replayed = await withVcr({ mode: "replay_only" }, () => model.invoke("no usage here", { callbacks: [handler] }));
    await awaitAllCallbacks();
    expect(fake.count()).to.equal(1);
    expect(replayed.usage_metadata).to.equal(undefined);
    expect(held).to.have.length(1);
    expect(held[0].message).to.not.equal(replayed);
    expect(held[0].message?.usage_metadata).to.deep.equal({ input_tokens: 0, output_tokens: 0, total_tokens: 0 });
  });

  it("a text-completion model's .stream() and streamEvents are one llm fixture, replayed with 0 requests (they used to reach the provider even in replay_only)", async () => {
    const collect = async (stream: AsyncIterable<string>) => {
      const parts: string[] = [];
      for await (const part of stream) parts.push(part);
      return parts;
    };
    const live = await collect(await openaiLlm(fake, vcr.cache).stream("stream a completion"));
    expect(live).to.deep.equal(["echo: stream a completion"]);
    expect(fake.count()).to.equal(1);
    const replayed = await withVcr({ mode: "replay_only" }, async () => collect(await openaiLlm(fake, vcr.cache).stream("stream a completion")));
    expect(replayed).to.deep.equal(live);
    const events = await withVcr({ mode: "replay_only" }, async () => {
      const names: string[] = [];
      for await (const ev of openaiLlm(fake, vcr.cache).streamEvents("stream a completion", { version: "v2" })) names.push(ev.event);
      return names;
    });
    expect(events).to.include("on_llm_end");
    expect(fake.count()).to.equal(1);
    expect(readFixtures(dir).map((f) => f.kind)).to.deep.equal(["llm"]);
    const miss = await withVcr({ mode: "replay_only" }, async () => collect(await openaiLlm(fake, vcr.cache).stream("never recorded"))).catch(
      (e: unknown) => e,
    );
    expect(miss).to.be.instanceOf(VcrMissError);
    expect(fake.count()).to.equal(1);
  });

  it("replays in a new process with no server and no key (replay_only)", async () => {
    await openai(fake, vcr.cache).invoke("offline please");
    await fake.close();
    const script = path.join(__dirname, "../helpers/scripts/replayChat.ts");
    const child = await runChild(process.execPath, ["-r", "ts-node/register/transpile-only", script], {
      cwd: path.join(__dirname, "../.."),
      env: {
        ...process.env,
        TS_NODE_TRANSPILE_ONLY: "true",
        LANGCHAIN_VCR_MODE: "replay_only",
        FIXTURE_DIR: dir,
        PROMPT: "offline please",
        OPENAI_API_KEY: "",
      },
    });
    expect(child.status, child.stderr).to.equal(0);
    expect(JSON.parse(child.stdout.trim().split("\n").pop()!)).to.deep.equal({
      content: "echo: offline please",
      stats: { replayed: 1, recorded: 0, bypassed: 0, missed: 0 },
    });
  });

  it("batch: each input is its own fixture; the second batch makes 0 requests", async () => {
    const model = openai(fake, vcr.cache);
    const first = await model.batch(["a", "b", "c"]);
    expect(fake.count()).to.equal(3);
    const second = await model.batch(["a", "b", "c"]);
    expect(fake.count()).to.equal(3);
    expect(second.map((m) => m.content)).to.deep.equal(first.map((m) => m.content));
    expect(fixtureFiles(dir)).to.have.length(3);
  });

  it("generate() with several message lists keys each list on its own messages", async () => {
    const model = openai(fake, vcr.cache);
    const lists = [[new HumanMessage("one")], [new HumanMessage("two")]];
    const live = await model.generate(lists);
    expect(fake.count()).to.equal(2);
    const replay = await model.generate(lists);
    expect(fake.count()).to.equal(2);
    expect(replay.generations.map((g) => g[0].text)).to.deep.equal(live.generations.map((g) => g[0].text));
    expect(replay.generations.map((g) => g[0].text)).to.deep.equal(["echo: one", "echo: two"]);
  });

  it("bindTools: tool calls replay with their args", async () => {
    const getWeather = tool(async () => "sunny", { name: "get_weather", description: "Weather for a city", schema: z.object({ city: z.string() }) });
    fake.enqueue({ toolCalls: [{ name: "get_weather", args: { city: "Paris" } }] });
    const model = openai(fake, vcr.cache).bindTools([getWeather]);
    const live = await model.invoke("weather in Paris?");
    const replay = await model.invoke("weather in Paris?");
    expect(fake.count()).to.equal(1);
    expect(replay.tool_calls).to.deep.equal(live.tool_calls);
    expect(replay.tool_calls?.[0]).to.deep.include({ name: "get_weather", args: { city: "Paris" } });
    const [fx] = readFixtures(dir);
    expect(fx.request.tools).to.deep.equal([
      {
        name: "get_weather",
        description: "Weather for a city",
        // schema version 2: the "$schema" dialect URI the provider received is not part of the key
        parameters: {
          additionalProperties: false,
          properties: { city: { type: "string" } },
          required: ["city"],
          type: "object",
        },
      },
    ]);
  });

  for (const method of ["jsonSchema", "functionCalling"] as const) {
    it(`withStructuredOutput (${method}) replays the parsed object`, async () => {
      const schema = z.object({ answer: z.string(), confidence: z.number() });
      const model = openai(fake, vcr.cache).withStructuredOutput(schema, { method });
      const live = await model.invoke("structured please");
      const replay = await model.invoke("structured please");
      expect(fake.count()).to.equal(1);
      expect(replay).to.deep.equal(live);
      const [fx] = readFixtures(dir);
      const text = JSON.stringify(fx.request);
      expect(text).to.include('"confidence"');
      expect(text).not.to.include("_zod"); // clean JSON Schema, never zod internals
    });
  }

  it("ChatOllama withStructuredOutput (format) replays", async () => {
    const model = ollama(fake, vcr.cache).withStructuredOutput(z.object({ city: z.string() }));
    const live = await model.invoke("a city");
    const replay = await model.invoke("a city");
    expect(fake.count()).to.equal(1);
    expect(replay).to.deep.equal(live);
    expect(readFixtures(dir)[0].request.response_format.type).to.equal("json_schema");
  });

  it("a fixture recorded through ChatOllama is one key with ChatOpenAI's for the same model and parameters, but its answer (model_provider: ollama) is not handed to ChatOpenAI: that call records beside it", async () => {
    const viaOllama = await ollama(fake, vcr.cache, { model: "shared-model", temperature: 0 }).invoke("same question");
    expect(fake.count("/api/chat")).to.equal(1);
    expect(viaOllama.response_metadata.model_provider).to.equal("ollama");
    const viaOpenAI = await openai(fake, vcr.cache, { model: "shared-model", temperature: 0 }).invoke("same question");
    expect([fake.count("/api/chat"), fake.count("/v1/chat/completions")]).to.deep.equal([1, 1]);
    expect(viaOpenAI.response_metadata.model_provider).to.equal("openai");
    const fixtures = readFixtures(dir);
    expect(fixtures.map((f) => f.request.provider).sort()).to.deep.equal(["openai", undefined]);
    // each replays its own: 0 requests more
    const again = [
      await ollama(fake, vcr.cache, { model: "shared-model", temperature: 0 }).invoke("same question"),
      await openai(fake, vcr.cache, { model: "shared-model", temperature: 0 }).invoke("same question"),
    ];
    expect(fake.count()).to.equal(2);
    expect(again.map((m) => m.response_metadata.model_provider)).to.deep.equal(["ollama", "openai"]);
  });

  it("ChatOllama's answer, then ChatOpenAI's through Chat Completions, then through the Responses API: three fixtures, each call its own answer (a redirect is asked again at the key it leads to: review L1)", async () => {
    const same = { model: "shared-model", temperature: 0 };
    const counts = () => [fake.count("/api/chat"), fake.count("/v1/chat/completions"), fake.count("/v1/responses")];
    const recorded = [
      await ollama(fake, vcr.cache, same).invoke("same question"),
      await openai(fake, vcr.cache, same).invoke("same question"),
      await openai(fake, vcr.cache, { ...same, useResponsesApi: true }).invoke("same question"),
    ];
    expect(counts(), "one request each").to.deep.equal([1, 1, 1]);
    const requests = readFixtures(dir).map((f) => [f.request.provider, f.request.openai_api]);
    expect(requests.map((r) => JSON.stringify(r)).sort()).to.deep.equal(['["openai","responses"]', '["openai",null]', "[null,null]"]);
    // the Responses API answer is its own, not the Chat Completions one found under the provider key
    expect(recorded[2].response_metadata.object).to.equal("response");
    expect(recorded[1].response_metadata.object).to.not.equal("response");
    // sealed: each replays its own, 0 requests, and the Responses API call uses the two files it passes through
    const sealed = new Vcr({ dir, mode: "replay_only" });
    const usage = new Usage("responses only").start();
    const again = await openai(fake, sealed.cache, { ...same, useResponsesApi: true }).invoke("same question");
    usage.stop();
    expect(usage.used.size, "the plain key, the provider key and its own").to.equal(3);
    const replayed = [await ollama(fake, sealed.cache, same).invoke("same question"), await openai(fake, sealed.cache, same).invoke("same question"), again];
    expect(counts()).to.deep.equal([1, 1, 1]);
    expect(replayed.map((m) => m.content)).to.deep.equal(recorded.map((m) => m.content));
    expect(replayed.map((m) => m.response_metadata.object === "response")).to.deep.equal([false, false, true]);
    expect(sealed.stats()).to.include({ replayed: 3, missed: 0 });
  });

  it("text-completion LLMs go through the same cache with kind llm", async () => {
    const llm = openaiLlm(fake, vcr.cache);
    const live = await llm.invoke("complete me");
    const replay = await llm.invoke("complete me");
    expect(fake.count("/v1/completions")).to.equal(1);
    expect(replay).to.equal(live);
    const [fx] = readFixtures(dir);
    expect(fx.kind).to.equal("llm");
    expect(fx.request.prompt).to.equal("complete me");
  });

  it("createAgent: a second recording run of the same agent makes 0 requests and runs no tool twice", async () => {
    let toolRuns = 0;
    const getOrder = tool(
      async ({ orderId }: { orderId: string }) => {
        toolRuns++;
        return `order ${orderId} shipped`;
      },
      { name: "get_order", description: "Order status", schema: z.object({ orderId: z.string() }) },
    );
    const run = async () => {
      fake.enqueue({ toolCalls: [{ name: "get_order", args: { orderId: "42" } }] }, { content: "It shipped." });
      const agent = createAgent({ model: openai(fake, vcr.cache), tools: [vcr.tool(getOrder)] });
      const out = await agent.invoke({ messages: [{ role: "user", content: "Where is order 42?" }] });
      fake.reset();
      return out.messages.map((m) => `${m.getType()}:${typeof m.content === "string" ? m.content : JSON.stringify(m.content)}`);
    };
    // each run is its own scope, as two tests would be: repeats of a tool call are counted per scope
    const first = await inOwnTest({}, run);
    expect(vcr.stats().recorded).to.be.greaterThan(0);
    const before = vcr.stats();
    const second = await inOwnTest({}, run);
    expect(fake.count()).to.equal(0);
    expect(second).to.deep.equal(first);
    expect(first[first.length - 1]).to.equal("ai:It shipped.");
    expect(vcr.stats().recorded).to.equal(before.recorded);
    expect(toolRuns).to.equal(1);
  });

  it("invoke() on a ChatOpenAI built with streaming: true records without downloading tiktoken ranks (offline trap)", async function () {
    this.timeout(15000); // before the fix this hung on the network for minutes
    const model = openai(fake, vcr.cache, { streaming: true });
    const started = Date.now();
    const live = await model.invoke("stream me as a plain call");
    expect(Date.now() - started).to.be.below(10000);
    const replay = await model.invoke("stream me as a plain call");
    expect(fake.count()).to.equal(1);
    expect(replay.content).to.equal(live.content).and.equal("echo: stream me as a plain call");
    expect(readFixtures(dir).map((f) => f.kind)).to.deep.equal(["chat"]);
  });

  it("core's llmKey (which holds the API key) is never built for a VcrCache call; other caches still get it", async () => {
    const seen: string[] = [];
    const lookup = vcr.cache.lookup.bind(vcr.cache);
    vcr.cache.lookup = (prompt: string, llmKey: string) => (seen.push(llmKey), lookup(prompt, llmKey));
    await openai(fake, vcr.cache).invoke("which key?");
    await openai(fake, vcr.cache).invoke("which key?");
    expect(seen).to.have.length(2);
    for (const key of seen) expect(key).to.match(/^langchain-vcr#\d+$/); // the call's own key: no option, no secret
    expect(seen[0]).to.not.equal(seen[1]);
    const direct = await vcr.cache.lookup("which key?", seen[0]).catch((e: unknown) => e); // that call is over
    expect(direct).to.be.instanceOf(VcrConfigError);
    expect((direct as Error).message).to.match(/calls vcr\.cache\.lookup\(\) itself/);
    class Spy extends InMemoryCache {
      keys: string[] = [];
      override lookup(prompt: string, llmKey: string) {
        this.keys.push(llmKey);
        return super.lookup(prompt, llmKey);
      }
    }
    const spy = new Spy();
    await openai(fake, spy).invoke("which key?");
    expect(spy.keys).to.have.length(1);
    expect(spy.keys[0]).to.include("gpt-4o-mini").and.include(TEST_KEY); // LangChain's own key, untouched
  });

  it("never writes the client's API key", async () => {
    await openai(fake, vcr.cache).invoke("hi");
    await ollama(fake, vcr.cache).invoke("hi");
    expect(fixtureFiles(dir)).to.have.length.greaterThan(0);
    expect(allBytes(dir)).not.to.include(TEST_KEY);
    expect(allBytes(dir)).not.to.include(String(fake.url.split(":").pop()));
  });
});
