/** generate() with several prompts in one call through VcrCache: repeats, partial hits, and input it cannot coerce. */
import { expect } from "chai";
import { HumanMessage } from "@langchain/core/messages";
import { Vcr, withVcr } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { openai, openaiLlm } from "../helpers/models";
import { fixtureFiles } from "../helpers/tmp";

describe("chat: generate() with several prompts", () => {
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

  it("generate() with new and recorded inputs mixed returns every answer at its own index (LangChain's own caches lose some)", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const model = openai(fake, vcr.cache);
    await model.generate([[new HumanMessage("recorded one")], [new HumanMessage("recorded two")]]);
    const texts = async (prompts: string[]) => (await model.generate(prompts.map((p) => [new HumanMessage(p)]))).generations.map((g) => g.map((x) => x.text));
    expect(await texts(["new a", "recorded one", "new b", "recorded two"])).to.deep.equal([
      ["echo: new a"],
      ["echo: recorded one"],
      ["echo: new b"],
      ["echo: recorded two"],
    ]);
    expect(await texts(["recorded two", "new c"])).to.deep.equal([["echo: recorded two"], ["echo: new c"]]);
    const llm = openaiLlm(fake, vcr.cache);
    await llm.generate(["llm recorded"]);
    const out = await llm.generate(["llm new", "llm recorded"]);
    expect(out.generations.map((g) => g[0].text)).to.deep.equal(["echo: llm new", "echo: llm recorded"]);
    expect(fake.count()).to.equal(7); // only the new inputs went live
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
