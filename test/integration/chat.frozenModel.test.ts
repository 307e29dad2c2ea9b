/**
 * A model object that is frozen (or sealed): langchain-vcr cannot put its per-instance
 * helpers on it. With `cache: vcr.cache` its invoke() still records and replays; a native
 * stream (which needs a shadow on the instance) and, under vcr.install(), any call (which
 * needs the cache lent to the instance) fail with a VcrConfigError naming the class before
 * any request — never a TypeError from langchain-vcr's internals, never a live call.
 */
import { expect } from "chai";
import type { BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { ChatOpenAI } from "@langchain/openai";
import { Vcr, withVcr } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai, TEST_KEY } from "../helpers/models";
import { fixtureFiles } from "../helpers/tmp";

describe("chat: a frozen model object", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  async function failure(run: () => Promise<unknown>): Promise<Error> {
    try {
      await run();
    } catch (e) {
      return e as Error;
    }
    throw new Error("expected the call to fail");
  }
  async function drain(stream: Promise<AsyncIterable<unknown>>): Promise<number> {
    let n = 0;
    for await (const _ of await stream) n++;
    return n;
  }

  it("with cache: vcr.cache, invoke() records once and replays with 0 requests", async () => {
    const recorded = await Object.freeze(openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache)).invoke("frozen");
    expect(fake.count()).to.equal(1);
    expect(fixtureFiles(dir)).to.have.length(1);
    const replayed = await Object.freeze(openai(fake, new Vcr({ dir, mode: "replay_only" }).cache)).invoke("frozen");
    expect(fake.count()).to.equal(1);
    expect(replayed.content).to.equal(recorded.content);
  });

  it("with cache: vcr.cache, .stream() is a VcrConfigError naming the class, 0 requests; inside withVcr bypass it streams live and writes nothing", async () => {
    const model = Object.freeze(openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache));
    const error = await failure(() => drain(model.stream("frozen")));
    expect(error.name).to.equal("VcrConfigError");
    expect(error.message).to.match(/^langchain-vcr: cannot record or replay a stream of ChatOpenAI: the model object is frozen or sealed/);
    expect(error.message).to.match(/Fix it: do not freeze the model/);
    expect(fake.count()).to.equal(0);
    expect(await withVcr({ mode: "bypass" }, () => drain(model.stream("live on purpose")))).to.be.greaterThan(1);
    expect(fake.count()).to.equal(1);
    expect(fixtureFiles(dir)).to.have.length(0);
  });

  it("under vcr.install(), invoke() and .stream() of a frozen model with no cache are VcrConfigErrors naming the class, 0 requests", async () => {
    const uninstall = new Vcr({ dir, mode: "record_or_replay" }).install();
    try {
      const model = Object.freeze(openai(fake, undefined));
      const invoked = await failure(() => model.invoke("frozen"));
      expect(invoked.name).to.equal("VcrConfigError");
      expect(invoked.message).to.match(/^langchain-vcr: vcr\.install\(\) cannot route a call of ChatOpenAI through the Vcr/);
      const streamed = await failure(() => drain(model.stream("frozen")));
      expect(streamed.name).to.equal("VcrConfigError");
      expect(streamed.message).to.match(/a stream of ChatOpenAI/);
    } finally {
      uninstall();
    }
    expect(fake.count()).to.equal(0);
    expect(fixtureFiles(dir)).to.have.length(0);
  });

  it("a frozen instance of a class overriding generate() without core's, with cache: vcr.cache: the overridden-generate VcrConfigError, 0 requests", async () => {
    class RogueChat extends ChatOpenAI {
      async generate(messages: BaseMessage[][]): Promise<{ generations: ChatResult["generations"][] }> {
        const result = await this._generate(messages[0], {} as never);
        return { generations: [result.generations] };
      }
    }
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const model = Object.freeze(
      new RogueChat({ model: "gpt-4o-mini", apiKey: TEST_KEY, maxRetries: 0, cache: vcr.cache, configuration: { baseURL: fake.openaiBaseURL } }),
    );
    const error = await failure(() => model.invoke("frozen"));
    expect(error.name).to.equal("VcrConfigError");
    expect(error.message).to.match(/^langchain-vcr: RogueChat overrides generate\(\) without calling @langchain\/core's/);
    expect(fake.count()).to.equal(0);
    expect(fixtureFiles(dir)).to.have.length(0);
  });
});
