/**
 * How a VcrCache hit finds its call without AsyncLocalStorage: the call options carry one
 * short string tag, which callbacks may see (never the model or the API key), and options a
 * model freezes are left unmarked.
 */
import { expect } from "chai";
import { inspect } from "node:util";
import type { RunnableConfig } from "@langchain/core/runnables";
import { ChatOpenAI } from "@langchain/openai";
import { Vcr } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { openai, openaiLlm, TEST_KEY } from "../helpers/models";

describe("chat: the call options a VcrCache marks", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

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
      expect(added[0])
        .to.be.a("string")
        .and.match(/^langchain-vcr#\d+$/);
      expect(inspect(options, { depth: 10 })).to.not.include(TEST_KEY);
    }
  });

  it("a model whose call options are frozen still records and replays (the options are not marked then)", async () => {
    class FrozenOptions extends ChatOpenAI {
      override _separateRunnableConfigFromCallOptionsCompat(options?: Partial<this["ParsedCallOptions"]>): [RunnableConfig, this["ParsedCallOptions"]] {
        const [config, callOptions] = super._separateRunnableConfigFromCallOptionsCompat(options);
        return [config, Object.freeze(callOptions)];
      }
    }
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const make = () =>
      new FrozenOptions({ model: "gpt-4o-mini", apiKey: TEST_KEY, maxRetries: 0, cache: vcr.cache, configuration: { baseURL: fake.openaiBaseURL } });
    expect((await make().invoke("frozen")).content).to.equal("echo: frozen");
    expect((await make().invoke("frozen")).content).to.equal("echo: frozen");
    expect(fake.count()).to.equal(1);
  });
});
