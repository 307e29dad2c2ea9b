/** Regression tests for defects found in review: each failed (or hung) before its fix. */
import { expect } from "chai";
import { SCHEMA_VERSION } from "../../src/store/fixture";
import * as fs from "node:fs";
import * as path from "node:path";
import { inspect } from "node:util";
import { HumanMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { ChatOpenAI } from "@langchain/openai";
import { Vcr, VcrConfigError, VcrFixtureError, withVcr } from "../../src/index";
import { requestHash } from "../../src/canonical/json";
import { chatRequest } from "../../src/canonical/chat";
import { identity } from "../../src/canonical/normalize";
import { onScopeEvent } from "../../src/scope";
import { findSecret } from "../../src/secrets";
import { collectStats } from "../../src/cli/stats";
import { formatFixture } from "../../src/store/format";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { ollama, openai, openaiLlm, TEST_KEY } from "../helpers/models";
import { startFakeProvider } from "../helpers/fakeProvider";
import { fixtureFiles, readFixtures } from "../helpers/tmp";

describe("review fixes", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("one generate() holding the same request twice answers both (it used to wait on itself forever)", async function () {
    this.timeout(10000);
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const out = await openai(fake, vcr.cache).generate([[new HumanMessage("twice")], [new HumanMessage("twice")]]);
    expect(out.generations.map((g) => g[0].text)).to.deep.equal(["echo: twice", "echo: twice"]);
    expect(fixtureFiles(dir)).to.have.length(1);
    const llm = await openaiLlm(fake, vcr.cache).generate(["again", "again"]);
    expect(llm.generations.map((g) => g[0].text)).to.deep.equal(["echo: again", "echo: again"]);
    const replay = await withVcr({ mode: "replay_only" }, () => openai(fake, vcr.cache).generate([[new HumanMessage("twice")], [new HumanMessage("twice")]]));
    expect(replay.generations.map((g) => g[0].text)).to.deep.equal(["echo: twice", "echo: twice"]);
  });

  it("message-likes passed straight to generate() are keyed by their text (they all shared one key)", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const model = openai(fake, vcr.cache);
    const a = await model.generate([["hello" as never]]);
    const b = await model.generate([[["human", "goodbye"] as never]]);
    expect(a.generations[0][0].text).to.equal("echo: hello");
    expect(b.generations[0][0].text).to.equal("echo: goodbye");
    expect(readFixtures(dir).map((f) => f.request.messages[0]).sort((x, y) => x.content.localeCompare(y.content))).to.deep.equal([
      { role: "user", content: "goodbye" },
      { role: "user", content: "hello" },
    ]);
  });

  it("a chat fixture whose response is damaged is a VcrFixtureError naming the file, not a TypeError", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const request = chatRequest(openai(fake, vcr.cache), [new HumanMessage("damaged")], {}, identity);
    const hash = requestHash("chat", request);
    const file = path.join(dir, `${hash}.json`);
    fs.writeFileSync(file, JSON.stringify({ schemaVersion: SCHEMA_VERSION, kind: "chat", hash, recordedAt: "x", request, response: { generation: [] } }));
    const err = await openai(fake, vcr.cache).invoke("damaged").catch((e) => e);
    expect(err).to.be.instanceOf(VcrFixtureError);
    expect(err.message).to.include(file).and.include('"response.generations"');
    expect(fake.count()).to.equal(0);
  });

  it("a text block starting with data: and a stray % is text, not a crash", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const msg = new HumanMessage({ content: [{ type: "text", text: "data:50% off" }] });
    await openai(fake, vcr.cache).invoke([msg]);
    expect(readFixtures(dir)[0].request.messages[0].content).to.deep.equal([{ type: "text", text: "data:50% off" }]);
  });

  it("a Date inside a content block is keyed by its value, not as {}", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const ask = (d: string) => openai(fake, vcr.cache).invoke([new HumanMessage({ content: [{ type: "text", text: "when?", meta: { at: new Date(d) } } as never] })]);
    await ask("2026-01-01T00:00:00Z");
    await ask("2027-01-01T00:00:00Z");
    expect(fixtureFiles(dir)).to.have.length(2);
    expect(readFixtures(dir).map((f) => f.request.messages[0].content[0].meta.at).sort()).to.deep.equal(["2026-01-01T00:00:00.000Z", "2027-01-01T00:00:00.000Z"]);
  });

  it("the secret scan reads mixed arrays whose first element is a number", () => {
    expect(findSecret({ r: [1, "sk-proj-abcdefghijklmnopqrstuvwxyz012345"] }, [], new Set())).to.deep.equal({ path: "$.r[1]", pattern: "openai_key" });
    expect(findSecret({ v: [0.1, 0.2, 0.3] }, [], new Set())).to.equal(undefined);
  });

  it("a live lookup (tool execute mode, bypass) still marks an existing fixture as used, so prune keeps it", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    await openai(fake, vcr.cache).invoke("kept by bypass");
    const used: string[] = [];
    const stop = onScopeEvent((e) => (e.type === "used" ? used.push(path.basename(e.file)) : undefined));
    try {
      await withVcr({ mode: "bypass" }, () => openai(fake, vcr.cache).invoke("kept by bypass"));
    } finally {
      stop();
    }
    expect(used).to.deep.equal(fixtureFiles(dir));
  });

  it("stats of a fixture whose model is \"__proto__\" counts it and pollutes nothing", () => {
    const request = { model: "__proto__", messages: [{ role: "user", content: "x" }] };
    const hash = requestHash("chat", request);
    fs.writeFileSync(path.join(dir, `${hash}.json`), formatFixture({ schemaVersion: SCHEMA_VERSION, kind: "chat", hash, recordedAt: "x", request, response: { generations: [] } }));
    const stats = collectStats(dir, path.join(dir, "no-ledgers"), dir);
    expect(stats.byModel["__proto__"].count).to.equal(1);
    expect((Object.prototype as Record<string, unknown>).count).to.equal(undefined);
  });

  it("allowSecretPatterns that is not an array of names is a VcrConfigError", () => {
    expect(() => new Vcr({ dir, allowSecretPatterns: "bearer_token" as never })).to.throw(VcrConfigError, "must be an array");
    expect(() => new Vcr({ dir, allowSecretPatterns: [1] as never })).to.throw(VcrConfigError, "must be an array");
  });
  describe("second review (the hit path without AsyncLocalStorage)", () => {
    it("callbacks get call options whose only addition is a short string tag: no model, no API key", async () => {
      const seen: Record<PropertyKey, unknown>[] = [];
      const handler = {
        handleChatModelStart(_llm: unknown, _messages: unknown, _runId: string, _parent?: string, extra?: Record<string, unknown>) {
          seen.push(extra?.options as Record<PropertyKey, unknown>);
        },
        handleLLMStart(_llm: unknown, _prompts: unknown, _runId: string, _parent?: string, extra?: Record<string, unknown>) {
          seen.push(extra?.options as Record<PropertyKey, unknown>);
        },
      };
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      await openai(fake, vcr.cache).invoke("tagged?", { callbacks: [handler] });
      await openaiLlm(fake, vcr.cache).invoke("tagged?", { callbacks: [handler] });
      expect(seen).to.have.length(2);
      for (const options of seen) {
        const added = Object.getOwnPropertySymbols(options).map((sym) => options[sym]);
        expect(added).to.have.length(1);
        expect(added[0]).to.be.a("string").and.match(/^langchain-vcr#\d+$/);
        expect(inspect(options, { depth: 10 })).to.not.include(TEST_KEY);
      }
    });

    it("an aborted ChatOllama call that still resolves (its stream ends early, answering \"\") records nothing", async function () {
      this.timeout(10000);
      const slow = await startFakeProvider({ latencyMs: 300 });
      try {
        const vcr = new Vcr({ dir, mode: "record_or_replay" });
        const controller = new AbortController();
        setTimeout(() => controller.abort(), 100);
        await ollama(slow, vcr.cache)
          .invoke("slow question", { signal: controller.signal })
          .catch(() => undefined); // it may resolve with "" or reject: either way nothing is recorded
        expect(fixtureFiles(dir)).to.deep.equal([]);
        const answer = await ollama(slow, vcr.cache).invoke("slow question");
        expect(answer.content).to.equal("echo: slow question");
        expect(readFixtures(dir).map((f) => f.response.generations[0].text)).to.deep.equal(["echo: slow question"]);
      } finally {
        await slow.close();
      }
    });

    it("generate() with new and recorded inputs mixed returns every answer at its own index (LangChain's own caches lose some)", async () => {
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      const model = openai(fake, vcr.cache);
      await model.generate([[new HumanMessage("recorded one")], [new HumanMessage("recorded two")]]);
      const texts = async (prompts: string[]) => (await model.generate(prompts.map((p) => [new HumanMessage(p)]))).generations.map((g) => g.map((x) => x.text));
      expect(await texts(["new a", "recorded one", "new b", "recorded two"])).to.deep.equal([["echo: new a"], ["echo: recorded one"], ["echo: new b"], ["echo: recorded two"]]);
      expect(await texts(["recorded two", "new c"])).to.deep.equal([["echo: recorded two"], ["echo: new c"]]);
      const llm = openaiLlm(fake, vcr.cache);
      await llm.generate(["llm recorded"]);
      const out = await llm.generate(["llm new", "llm recorded"]);
      expect(out.generations.map((g) => g[0].text)).to.deep.equal(["echo: llm new", "echo: llm recorded"]);
      expect(fake.count()).to.equal(7); // only the new inputs went live
    });

    it("a model whose call options are frozen still records and replays (the options are not marked then)", async () => {
      class FrozenOptions extends ChatOpenAI {
        override _separateRunnableConfigFromCallOptionsCompat(options?: Partial<this["ParsedCallOptions"]>): [RunnableConfig, this["ParsedCallOptions"]] {
          const [config, callOptions] = super._separateRunnableConfigFromCallOptionsCompat(options);
          return [config, Object.freeze(callOptions)];
        }
      }
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      const make = () => new FrozenOptions({ model: "gpt-4o-mini", apiKey: TEST_KEY, maxRetries: 0, cache: vcr.cache, configuration: { baseURL: fake.openaiBaseURL } });
      expect((await make().invoke("frozen")).content).to.equal("echo: frozen");
      expect((await make().invoke("frozen")).content).to.equal("echo: frozen");
      expect(fake.count()).to.equal(1);
    });

    it("input generate() cannot coerce is a rejected promise, as without a VcrCache (it threw synchronously)", async () => {
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      const bad = [[{ not: "a message" } as never]];
      const withVcrCache = openai(fake, vcr.cache).generate(bad);
      const without = openai(fake, undefined).generate(bad);
      expect(withVcrCache).to.be.instanceOf(Promise);
      const [a, b] = await Promise.all([withVcrCache.catch((e: Error) => e), without.catch((e: Error) => e)]);
      expect(a).to.be.instanceOf(Error);
      expect((a as Error).message).to.equal((b as Error).message);
      expect(fake.count()).to.equal(0);
    });
  });
});
