/**
 * A tool whose body calls a model (a subagent behind deepagents' `task` tool, an agent wrapped as a
 * tool): its fixture replays its answer without running the body, so the inner model calls are never
 * looked up on replay. Recording it says so, once per tool, naming the count and the way to check them.
 */
import { expect } from "chai";
import { tool } from "@langchain/core/tools";
import { OpenAIEmbeddings } from "@langchain/openai";
import { z } from "zod";
import { Vcr } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai, TEST_KEY } from "../helpers/models";
import { inOwnTest } from "../helpers/ownTest";
import { stderrOf } from "../helpers/notes";

describe("a tool whose body calls a model, recorded", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));
  let saved: string | undefined;
  beforeEach(() => ((saved = process.env.LANGCHAIN_VCR_QUIET), delete process.env.LANGCHAIN_VCR_QUIET)); // the suite's set-up silences notes
  afterEach(() => (saved === undefined ? delete process.env.LANGCHAIN_VCR_QUIET : (process.env.LANGCHAIN_VCR_QUIET = saved)));

  it("says once per tool how many model calls its body made, which replay will not look up; a tool that calls none says nothing", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const researcher = vcr.tool(
      tool(
        async ({ topic }) =>
          String((await openai(fake, vcr.cache).invoke(`Research ${topic}.`)).content) +
          " / " +
          String((await openai(fake, vcr.cache).invoke(`Check ${topic}.`)).content),
        {
          name: "research_subagent",
          description: "Asks a research subagent.",
          schema: z.object({ topic: z.string() }),
        },
      ),
    );
    const plain = vcr.tool(tool(async ({ q }) => `found ${q}`, { name: "lookup", description: "Looks up.", schema: z.object({ q: z.string() }) }));
    const first = await stderrOf(() => inOwnTest({}, () => Promise.all([researcher.invoke({ topic: "Paris" }), plain.invoke({ q: "x" })])));
    expect(first.match(/made \d+ model call/g)).to.deep.equal(["made 2 model call"]);
    expect(first).to.include('tool "research_subagent" made 2 model call(s) inside its body while it was recorded');
    expect(first).to.include("not looked up on replay").and.include('"Tools that call a model"');
    expect(fake.count()).to.equal(2);
    const again = await stderrOf(() => inOwnTest({}, () => researcher.invoke({ topic: "Rome" })));
    expect(again).to.not.include("model call(s) inside its body"); // once per tool
    expect(fake.count()).to.equal(4);
    const replayed = await stderrOf(() => inOwnTest({ mode: "replay_only" }, () => researcher.invoke({ topic: "Paris" })));
    expect(replayed).to.not.include("model call(s)");
    expect(fake.count()).to.equal(4);
  });

  it("a retrieval tool whose body embeds its query is noted too: a changed index would still answer from the recorded search", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const embeddings = vcr.embeddings(new OpenAIEmbeddings({ apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } }));
    const search = vcr.tool(
      tool(async ({ query }) => `nearest to ${(await embeddings.embedQuery(query)).length}-dimension vector`, {
        name: "search_docs",
        description: "Searches the docs.",
        schema: z.object({ query: z.string() }),
      }),
    );
    const first = await stderrOf(() => inOwnTest({}, () => search.invoke({ query: "refund policy" })));
    expect(first).to.include('tool "search_docs" made 1 embedding lookup(s) inside its body while it was recorded');
    expect(first).to.include("the text a retriever embeds").and.not.include("model call(s)");
    expect(fake.count()).to.equal(1);
    const replayed = await stderrOf(() => inOwnTest({ mode: "replay_only" }, () => search.invoke({ query: "refund policy" })));
    expect(replayed).to.not.include("embedding lookup(s)");
    expect(fake.count()).to.equal(1);
  });
});
