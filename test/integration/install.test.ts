/**
 * `vcr.install()` in one process, through the real clients against the loopback fake: what
 * it reaches (models with no cache, built before install() too, their bindTools / withConfig
 * / withStructuredOutput copies and streams, embeddings, model-initiated tool calls), what it
 * leaves alone (another BaseCache, direct tool calls, bypass, after uninstall), one Vcr at a
 * time, the same fixtures as explicit wiring both ways, and a class overriding generate().
 * Every test uninstalls in afterEach: the mocha process is shared with other files.
 */
import { expect } from "chai";

import Module = require("node:module");
import { InMemoryCache } from "@langchain/core/caches";
import { AIMessage, HumanMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { tool } from "@langchain/core/tools";
import { FakeChatModel, FakeEmbeddings, FakeListChatModel, FakeLLM } from "@langchain/core/utils/testing";
import { ChatOpenAI, OpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { createAgent } from "langchain";
import { z } from "zod";
import { Vcr, VcrConfigError, VcrMissError, withVcr } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai, openaiLlm, TEST_KEY } from "../helpers/models";
import { fixtureFiles, readFixtures, tmpDir } from "../helpers/tmp";
import { inOwnTest } from "../helpers/ownTest";
import { stderrOf } from "../helpers/notes";
import { Usage } from "../../src/runner/usage";
import { usageSummaryLine } from "../../src/runner/summary";

const WEATHER = {
  type: "function" as const,
  function: { name: "get_weather", description: "Weather.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};

describe("vcr.install(): one Vcr for every model, embeddings and model-initiated tool call", () => {
  let fake: FakeProvider;
  let dir: string;
  const undo: (() => void)[] = [];
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));
  afterEach(() => undo.splice(0).forEach((u) => u()));

  function install(vcr: Vcr): void {
    undo.push(vcr.install());
  }
  const kinds = () =>
    readFixtures(dir)
      .map((f) => f.kind)
      .sort();
  const embeddings = () =>
    new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } });
  async function drain(stream: AsyncIterable<{ text: string }>): Promise<string[]> {
    const out: string[] = [];
    for await (const c of stream) out.push(c.text);
    return out;
  }

  /** A plain tool whose body runs are counted. */
  function countedWeather() {
    const ran = { count: 0 };
    const weather = tool(
      async ({ city }: { city: string }) => {
        ran.count++;
        return `sunny in ${city}`;
      },
      { name: "get_weather", description: "Weather.", schema: z.object({ city: z.string() }) },
    );
    return { weather, runs: ran };
  }

  it("a second install() is a VcrConfigError naming both; uninstall() twice is harmless; then another Vcr can install", () => {
    const a = new Vcr({ dir });
    const b = new Vcr({ dir: dir + "-b" });
    const uninstall = a.install();
    undo.push(uninstall);
    expect(() => b.install()).to.throw(
      VcrConfigError,
      /vcr\.install\(\) was called while another Vcr is installed \(dir .*, called at test\/integration\/install\.test\.ts:\d+:\d+\)[\s\S]*This Vcr: dir .*-b, called at test\/integration\/install\.test\.ts:\d+:\d+\./,
    );
    expect(() => b.install()).to.throw(VcrConfigError, /\n {2}Fix it: call the function the first install\(\) returned before installing again:\n/);
    // the same directory twice (a test file repeating its setup file's call, trial 36a): one call is one too many; vitest's paragraph only under vitest
    expect(() => a.install())
      .to.throw(
        VcrConfigError,
        /while this Vcr is installed already[\s\S]*\n {2}Fix it: remove one of the two calls: both use \S+, and the one in your setup file covers every test file\.\n/,
      )
      .with.property("message")
      .that.does.not.include("In a vitest setup file");
    expect(() => new Vcr({ dir }).install()).to.throw(VcrConfigError, /another Vcr is installed[\s\S]*Fix it: remove one of the two calls/);
    const vitest = process.env.VITEST;
    process.env.VITEST = "true";
    try {
      expect(() => a.install()).to.throw(
        VcrConfigError,
        /In a vitest setup file .*: add the plugin \(plugins: \[langchainVcr\(\)\] from "langchain-vcr\/vitest"\), and the next file's install\(\) replaces the Vcr an earlier file installed\.$/,
      );
      // one call run again (a setup file, once per test file, in a worker of vitest's VM pools without the plugin): add the plugin, first (trial 47)
      uninstall();
      const setupFile = () => new Vcr({ dir }).install();
      const again = setupFile();
      try {
        expect(setupFile)
          .to.throw(
            VcrConfigError,
            /\n {2}Both are the same call, run again: vitest runs a setup file before every test file[^\n]*\n {2}Fix it: add the plugin to vitest\.config/,
          )
          .with.property("message")
          .that.does.not.include("remove one of the two calls");
      } finally {
        again();
      }
    } finally {
      if (vitest === undefined) delete process.env.VITEST;
      else process.env.VITEST = vitest;
    }
    uninstall();
    uninstall();
    install(b);
  });

  it("uninstall() puts Module._load back, unless something wrapped it after install() (then that wrapper stays in place)", () => {
    const loader = Module as unknown as { _load: unknown };
    const before = loader._load;
    const vcr = new Vcr({ dir });
    vcr.install()();
    expect(loader._load).to.equal(before);
    const uninstall = vcr.install();
    undo.push(uninstall);
    const ours = loader._load;
    expect(ours).not.to.equal(before);
    const later = function (this: unknown, ...args: unknown[]) {
      return (ours as (...a: unknown[]) => unknown).apply(this, args);
    };
    loader._load = later;
    try {
      uninstall();
      expect(loader._load).to.equal(later);
    } finally {
      loader._load = ours; // the "mocking library" goes away; the next uninstall() takes ours out
    }
    vcr.install()();
    expect(loader._load).to.equal(before);
  });

  it("models built before install(), their bindTools/withConfig/withStructuredOutput copies, streams and an LLM record; a new installed Vcr replays them with 0 requests", async () => {
    const model = openai(fake, undefined);
    const llm = openaiLlm(fake, undefined);
    install(new Vcr({ dir, mode: "record_or_replay" }));
    const run = async () => ({
      plain: (await model.invoke("plain")).text,
      bound: (await model.bindTools([WEATHER]).invoke("bound")).text,
      configured: (await model.withConfig({ tags: ["t"] }).invoke("configured")).text,
      structured: await model.withStructuredOutput(z.object({ city: z.string() })).invoke("structured"),
      streamed: await drain(await model.stream("streamed")),
      llm: await llm.invoke("complete"),
    });
    const recorded = await run();
    expect(fake.count()).to.equal(6);
    expect(kinds()).to.deep.equal(["chat", "chat", "chat", "chat", "chat_stream", "llm"]);
    undo.splice(0).forEach((u) => u());

    const replay = new Vcr({ dir, mode: "replay_only" });
    install(replay);
    expect(await run()).to.deep.equal(recorded);
    expect(fake.count()).to.equal(6);
    expect(replay.stats()).to.deep.equal({ replayed: 6, recorded: 0, bypassed: 0, missed: 0 });
  });

  it("createAgent with a string model and a responseFormat (Responses API, json_schema): the structured response replays with 0 requests", async () => {
    const saved = { url: process.env.OPENAI_BASE_URL, key: process.env.OPENAI_API_KEY };
    process.env.OPENAI_BASE_URL = fake.openaiBaseURL;
    process.env.OPENAI_API_KEY = TEST_KEY;
    try {
      const ask = async (mode: "record_or_replay" | "replay_only") => {
        const vcr = new Vcr({ dir, mode });
        const uninstall = vcr.install();
        try {
          const agent = createAgent({ model: "openai:gpt-4o-mini", tools: [], responseFormat: z.object({ city: z.string(), temperature: z.number() }) });
          return (await agent.invoke({ messages: [{ role: "user", content: "Weather in Paris, as JSON." }] })).structuredResponse;
        } finally {
          uninstall();
        }
      };
      const recorded = await ask("record_or_replay");
      expect(recorded).to.deep.equal({ city: "x", temperature: 1 });
      expect(fake.requests.map((r) => [r.path, r.body?.text?.format?.type])).to.deep.equal([["/v1/responses", "json_schema"]]);
      expect(await ask("replay_only")).to.deep.equal(recorded);
      expect(fake.count()).to.equal(1);
    } finally {
      for (const [k, v] of [
        ["OPENAI_BASE_URL", saved.url],
        ["OPENAI_API_KEY", saved.key],
      ] as const) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it("a model with its own BaseCache (InMemoryCache) is not recorded, and under replay_only its calls to the provider are stopped: invoke, stream and a completion model, each a VcrConfigError naming the class and its cache, 0 requests, counted missed; what its cache holds still answers (trial 42 H2: before, it went live under CI, counted nowhere)", async () => {
    install(new Vcr({ dir, mode: "replay_only" }));
    const usage = new Usage().start();
    try {
      const cache = new InMemoryCache();
      const model = openai(fake, cache);
      const err = await model.invoke("mine").catch((e: unknown) => e);
      expect(err).to.be.instanceOf(VcrConfigError);
      expect((err as Error).message).to.include(
        "langchain-vcr: ChatOpenAI has a cache of its own (InMemoryCache), which had no answer for this call, so the call would reach the provider; under replay_only (options.mode) nothing may.\n",
      );
      expect((err as Error).message).to.include("  Fix it: in tests, build ChatOpenAI without `cache:` (or with `cache: true`,");
      expect((err as Error).message).to.match(
        /; then record the call: LANGCHAIN_VCR_MODE=record_or_replay \S.*\. To keep it live on purpose, run it inside withVcr/,
      );
      const streamed = await (async () => {
        for await (const chunk of await model.stream("mine, streamed")) void chunk;
      })().catch((e: unknown) => e);
      expect(streamed).to.be.instanceOf(VcrConfigError);
      expect((streamed as Error).message).to.include("(InMemoryCache), which LangChain does not look a stream up in, so the call would reach the provider");
      const llm = await openaiLlm(fake, new InMemoryCache())
        .invoke("mine, completed")
        .catch((e: unknown) => e);
      expect(llm).to.be.instanceOf(VcrConfigError);
      expect((llm as Error).message).to.include("OpenAI has a cache of its own (InMemoryCache), which had no answer");
      expect(fake.count(), "requests").to.equal(0);
      // the cache filled by a live call on purpose (bypass): it answers under replay_only, as LangChain's cache does
      await withVcr({ mode: "bypass" }, () => model.invoke("filled"));
      expect((await model.invoke("filled")).text).to.equal("echo: filled");
      expect(fake.count(), "the bypassed call only").to.equal(1);
      expect(fixtureFiles(dir)).to.deep.equal([]);
      expect([usage.totals.missed, usage.totals.bypassed]).to.deep.equal([3, 0]);
    } finally {
      usage.stop();
    }
  });

  it("under record_or_replay a model with its own cache calls the provider unrecorded: counted bypassed, noted once per class; its cache then answers the same call; a test double with its own cache is not noted", async () => {
    install(new Vcr({ dir, mode: "record_or_replay" }));
    class OwnCachedChatOpenAI extends ChatOpenAI {}
    const model = new OwnCachedChatOpenAI({
      model: "gpt-4o-mini",
      apiKey: TEST_KEY,
      maxRetries: 0,
      cache: new InMemoryCache(),
      configuration: { baseURL: fake.openaiBaseURL },
    });
    const usage = new Usage().start();
    let text: string[] = [];
    try {
      const warned = await stderrOf(async () => {
        text = [(await model.invoke("mine")).text, (await model.invoke("mine")).text, (await model.invoke("mine too")).text];
        await new FakeListChatModel({ responses: ["A"], cache: new InMemoryCache() }).invoke("double");
      });
      expect(
        warned.split("OwnCachedChatOpenAI has a cache of its own (InMemoryCache), so vcr.install() leaves it alone: its cache had no answer"),
      ).to.have.length(2);
      expect(warned).to.include("  Under replay_only (CI) the same call will be stopped.");
      expect(warned).to.not.include("FakeListChatModel");
    } finally {
      usage.stop();
    }
    expect(text).to.deep.equal(["echo: mine", "echo: mine", "echo: mine too"]);
    expect(fake.count(), "the second 'mine' from its own cache").to.equal(2);
    expect(fixtureFiles(dir)).to.deep.equal([]);
    expect([usage.totals.bypassed, usage.totals.bypassedOwnCache, usage.totals.missed, usage.totals.recorded]).to.deep.equal([2, 2, 0, 0]);
    // the run's summary says these pass only while recording (trial 43 L6)
    expect(usageSummaryLine(usage)).to.include(
      "0 recorded, 2 bypassed (2 by a model with a cache of its own: unrecorded, stopped under replay_only, as in CI), 0 missed",
    );
  });

  it("a model with its own cache, every way it can reach its provider (review): a batch counts each prompt, callback runs end with the error, the new-protocol streamEvents() stops with streaming disabled; under record_or_replay streams and streamEvents v2 count once each", async () => {
    install(new Vcr({ dir, mode: "replay_only" }));
    const usage = new Usage().start();
    const runs: string[] = [];
    const handler = {
      handleChatModelStart: () => void runs.push("start"),
      handleLLMError: () => void runs.push("error"),
      handleLLMEnd: () => void runs.push("end"),
    };
    try {
      const model = openai(fake, new InMemoryCache(), { callbacks: [handler] });
      const batch = await model.generate([[new HumanMessage("one")], [new HumanMessage("two")]]).catch((e: unknown) => e);
      expect(batch).to.be.instanceOf(VcrConfigError);
      expect(runs, "each started run ended with the error").to.deep.equal(["start", "start", "error", "error"]);
      const notStreaming = openai(fake, new InMemoryCache(), { streaming: false }); // ChatOpenAI disables streaming then
      expect(() => notStreaming.streamEvents("new protocol")).to.throw(VcrConfigError, "which LangChain does not look a stream up in");
      expect(fake.count(), "requests").to.equal(0);
      expect(usage.totals.missed).to.equal(3);
    } finally {
      usage.stop();
    }
    undo.splice(0).forEach((u) => u());
    install(new Vcr({ dir, mode: "record_or_replay" }));
    const live = new Usage().start();
    try {
      const model = openai(fake, new InMemoryCache());
      await stderrOf(async () => {
        for await (const chunk of await model.stream("streamed")) void chunk;
        for await (const event of model.streamEvents("events", { version: "v2" })) void event;
      });
    } finally {
      live.stop();
    }
    expect(fake.count(), "requests").to.equal(2);
    expect([live.totals.bypassed, live.totals.bypassedOwnCache, live.totals.missed]).to.deep.equal([2, 2, 0]);
  });

  it("test doubles (FakeListChatModel, FakeChatModel, FakeLLM, FakeEmbeddings, a Fake… class of the test's own) are left alone: their own answers and errors, under replay_only too, nothing written; cache: vcr.cache still records one", async () => {
    const vcr = new Vcr({ dir, mode: "replay_only" });
    install(vcr);
    class FakeFlakyChat extends FakeListChatModel {}
    expect((await new FakeListChatModel({ responses: ["A"] }).invoke("hi")).content).to.equal("A");
    expect((await new FakeListChatModel({ responses: ["B"] }).invoke("hi")).content).to.equal("B"); // not a replay of "A"
    expect((await new FakeFlakyChat({ responses: ["C"] }).invoke("hi")).content).to.equal("C");
    expect((await new FakeChatModel({}).invoke("echo me")).content).to.equal("echo me");
    expect(await new FakeLLM({}).invoke("llm echo")).to.equal("llm echo");
    const thrown = await new FakeListChatModel({ responses: ["x"] }).invoke("hi", { thrownErrorString: "simulated 500" } as never).catch((e: Error) => e);
    expect((thrown as Error).message).to.equal("simulated 500"); // the failure path a test builds it for, not a VcrMissError
    const primary = new FakeListChatModel({ responses: ["x"] }).withConfig({ thrownErrorString: "down" } as never);
    expect((await primary.withFallbacks([new FakeListChatModel({ responses: ["fallback"] })]).invoke("hi")).content).to.equal("fallback");
    expect(await new FakeEmbeddings().embedQuery("some text")).to.have.length(4);
    expect(fixtureFiles(dir)).to.deep.equal([]);
    expect(vcr.stats()).to.deep.equal({ replayed: 0, recorded: 0, bypassed: 0, missed: 0 });
    // a provider's subclass is no double, whatever its name: left alone, it would call the provider unrecorded
    class FakeClockChatOpenAI extends ChatOpenAI {}
    class SyntheticDataEmbeddings extends OpenAIEmbeddings {}
    const realModel = new FakeClockChatOpenAI({ model: "gpt-4o-mini", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } });
    const realEmbeddings = new SyntheticDataEmbeddings({
      model: "text-embedding-3-small",
      apiKey: TEST_KEY,
      maxRetries: 0,
      configuration: { baseURL: fake.openaiBaseURL },
    });
    expect(await realModel.invoke("hi").catch((e: Error) => e)).to.be.instanceOf(VcrMissError);
    expect(await realEmbeddings.embedQuery("hi").catch((e: Error) => e)).to.be.instanceOf(VcrMissError);
    expect(fake.count()).to.equal(0);
    // asked for explicitly: recorded as any model
    const explicit = new Vcr({ dir, mode: "record_or_replay" });
    await new FakeListChatModel({ responses: ["D"], cache: explicit.cache }).invoke("hi");
    expect(kinds()).to.deep.equal(["chat"]);
  });

  it("a model built with cache: true (core's InMemoryCache.global()) is recorded and replayed like one with no cache; its global cache is left as it was", async () => {
    install(new Vcr({ dir, mode: "record_or_replay" }));
    const model = openai(fake, true);
    const global = model.cache as unknown as { cache: unknown };
    expect(global.cache, "core's process-wide map").to.equal((InMemoryCache.global() as unknown as { cache: unknown }).cache);
    expect((await model.invoke("cached in app code")).text).to.equal("echo: cached in app code");
    expect([fake.count(), fixtureFiles(dir).length]).to.deep.equal([1, 1]);
    expect(model.cache).to.equal(global);
    undo.splice(0).forEach((u) => u());
    install(new Vcr({ dir, mode: "replay_only" }));
    const again = openai(fake, true);
    expect((await again.invoke("cached in app code")).text).to.equal("echo: cached in app code");
    const err = await again.invoke("never recorded").catch((e) => e);
    expect(err).to.be.instanceOf(VcrMissError);
    expect(fake.count(), "replay and the miss: 0 requests").to.equal(1);
  });

  it("withVcr({ mode: 'bypass' }) keeps a call live and writes nothing; after uninstall() calls are live and write nothing", async () => {
    const vcr = new Vcr({ dir, mode: "replay_only" });
    const uninstall = vcr.install();
    undo.push(uninstall);
    const model = openai(fake, undefined);
    const weather = tool(async ({ city }: { city: string }) => `sunny in ${city}`, {
      name: "get_weather",
      description: "Weather.",
      schema: z.object({ city: z.string() }),
    });
    await withVcr({ mode: "bypass" }, () => model.invoke("live on purpose"));
    expect(fake.count()).to.equal(1);
    expect(vcr.stats()).to.deep.include({ bypassed: 1, missed: 0 });
    uninstall();
    await model.invoke("after");
    await drain(await model.stream("after, streamed"));
    await embeddings().embedQuery("after");
    expect(await weather.invoke({ type: "tool_call", id: "call_1", name: "get_weather", args: { city: "Oslo" } })).to.deep.include({
      content: "sunny in Oslo",
    });
    expect(fake.count()).to.equal(4);
    expect(fixtureFiles(dir)).to.deep.equal([]);
  });

  it("a model-initiated tool call (a ToolCall) is recorded and replayed without its body; a direct call with plain args runs the body and writes nothing", async () => {
    const { weather, runs: ran } = countedWeather();
    const runs = () => ran.count;
    install(new Vcr({ dir, mode: "record_or_replay" }));
    expect(await weather.invoke({ city: "Rome" })).to.equal("sunny in Rome");
    expect(runs()).to.equal(1);
    expect(fixtureFiles(dir)).to.deep.equal([]);
    const call = { type: "tool_call" as const, id: "call_a", name: "get_weather", args: { city: "Paris" } };
    const first = await weather.invoke(call);
    expect(runs()).to.equal(2);
    expect(kinds()).to.deep.equal(["tool"]);
    undo.splice(0).forEach((u) => u());
    install(new Vcr({ dir, mode: "replay_only" }));
    await inOwnTest({}, async () => {
      const again = await weather.invoke({ ...call, id: "call_b" });
      expect(again.content).to.equal(first.content);
      expect(again.tool_call_id).to.equal("call_b");
    });
    expect(runs()).to.equal(2);
  });

  it("embeddings: an OpenAIEmbeddings built before install() records one fixture per text and replays with 0 requests; an explicit vcr.embeddings() of it under install() records once, no deadlock", async () => {
    const emb = embeddings();
    install(new Vcr({ dir, mode: "record_or_replay" }));
    const docs = await emb.embedDocuments(["a", "b"]);
    const query = await emb.embedQuery("q");
    expect(fake.count("/v1/embeddings")).to.equal(2);
    expect(kinds()).to.deep.equal(["embedding", "embedding", "embedding"]);
    const explicit = new Vcr({ dir, mode: "record_or_replay" }).embeddings(emb);
    expect(await explicit.embedQuery("q")).to.deep.equal(query);
    await explicit.embedQuery("new text");
    expect(fake.count("/v1/embeddings")).to.equal(3);
    expect(fixtureFiles(dir)).to.have.length(4);
    undo.splice(0).forEach((u) => u());
    install(new Vcr({ dir, mode: "replay_only" }));
    expect(await embeddings().embedDocuments(["a", "b"])).to.deep.equal(docs);
    expect(fake.count("/v1/embeddings")).to.equal(3);
  });

  it("cross-way: fixtures recorded explicitly (cache, vcr.embeddings, vcr.tool) replay under install(), and the other way round", async () => {
    const { weather, runs: ran } = countedWeather();
    const runs = () => ran.count;
    const call = (id: string) => ({ type: "tool_call" as const, id, name: "get_weather", args: { city: "Paris" } });
    const explicitWay = async (vcr: Vcr) => ({
      chat: (await openai(fake, vcr.cache).invoke("explicit")).text,
      stream: await drain(await openai(fake, vcr.cache).stream("explicit stream")),
      vector: await vcr.embeddings(embeddings()).embedQuery("explicit"),
      tool: (await inOwnTest({}, () => vcr.tool(weather).invoke(call("c1")))).content,
    });
    const installedWay = async (vcr: Vcr) => {
      const uninstall = vcr.install();
      try {
        return {
          chat: (await openai(fake, undefined).invoke("explicit")).text,
          stream: await drain(await openai(fake, undefined).stream("explicit stream")),
          vector: await embeddings().embedQuery("explicit"),
          tool: (await inOwnTest({}, () => weather.invoke(call("c2")))).content,
        };
      } finally {
        uninstall();
      }
    };
    const recorded = await explicitWay(new Vcr({ dir, mode: "record_or_replay" }));
    expect(fake.count()).to.equal(3);
    expect(runs()).to.equal(1);
    expect(await installedWay(new Vcr({ dir, mode: "replay_only" }))).to.deep.equal(recorded);

    const other = tmpDir();
    const recorded2 = await installedWay(new Vcr({ dir: other, mode: "record_or_replay" }));
    expect(fake.count()).to.equal(6);
    expect(await explicitWay(new Vcr({ dir: other, mode: "replay_only" }))).to.deep.equal(recorded2);
    expect(fake.count()).to.equal(6);
    expect(runs()).to.equal(2);
    expect(fixtureFiles(other).sort()).to.deep.equal(fixtureFiles(dir).sort());
  });

  it("a chat model or LLM class overriding generate() without core's: VcrConfigError naming it, 0 requests (bypass stays live); one that calls super.generate() records and replays", async () => {
    class RogueChat extends ChatOpenAI {
      async generate(messages: BaseMessage[][]): Promise<{ generations: ChatResult["generations"][] }> {
        const result = await this._generate(messages[0], {} as never);
        return { generations: [result.generations] };
      }
    }
    class PoliteChat extends ChatOpenAI {
      async generate(...args: Parameters<ChatOpenAI["generate"]>) {
        return super.generate(...args);
      }
    }
    const fields = { model: "gpt-4o-mini", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } };
    install(new Vcr({ dir, mode: "replay_only" }));
    const err = await new RogueChat(fields).invoke("rogue").catch((e: unknown) => e);
    expect(err).to.be.instanceOf(VcrConfigError);
    expect((err as Error).message).to.match(/^langchain-vcr: RogueChat overrides generate\(\) without calling @langchain\/core's/);
    expect(fake.count()).to.equal(0);
    expect((await withVcr({ mode: "bypass" }, () => new RogueChat(fields).invoke("live on purpose"))).text).to.equal("echo: live on purpose");
    expect(fake.count()).to.equal(1);

    class RogueLlm extends OpenAI {
      async generate(prompts: string[]) {
        return this._generate(prompts, {} as never);
      }
    }
    const llmErr = await new RogueLlm({ ...fields, model: "gpt-3.5-turbo-instruct" }).invoke("rogue").catch((e: unknown) => e);
    expect((llmErr as Error).message).to.match(/^langchain-vcr: RogueLlm overrides generate\(\)/);
    expect(fake.count()).to.equal(1);

    await withVcr({ mode: "record_or_replay" }, () => new PoliteChat(fields).invoke("polite"));
    const replayed = (await new PoliteChat(fields).invoke("polite")) as AIMessage;
    expect(replayed.text).to.equal("echo: polite");
    expect(fake.count()).to.equal(2);
  });
});
