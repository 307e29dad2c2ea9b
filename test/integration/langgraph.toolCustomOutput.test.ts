/**
 * A tool body's custom stream output under the real createAgent: chunks it writes to LangGraph's
 * `config.writer` (streamMode "custom") and events it dispatches with core's `dispatchCustomEvent`
 * (streamEvents v2 `on_custom_event`). Replay never runs the body, so before they were lost on
 * replay (a user trial: 5 stream chunks recorded, 3 replayed). Now the recording keeps them in the
 * tool fixture (`custom`) and replay emits them again, in order, before the recorded answer: the
 * same chunks and events with 0 requests and the body run 0 times.
 */
import { expect } from "chai";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { dispatchCustomEvent } from "@langchain/core/callbacks/dispatch";
import { RunnableLambda, type RunnableConfig } from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import type { LangGraphRunnableConfig } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { z } from "zod";
import { Vcr, VcrRecordError, VcrSecretError, type VcrMode } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { openai } from "../helpers/models";
import { stderrOf } from "../helpers/notes";
import { inOwnTest } from "../helpers/ownTest";
import { fixtureFiles, readFixtures } from "../helpers/tmp";

const QUESTION = "Find llamas, please.";

describe("a tool's custom stream output (config.writer, dispatchCustomEvent) under createAgent", function () {
  this.timeout(30000);
  let fake: FakeProvider;
  let dir: string;
  let bodies: number;
  useFakeAndDir((f, d) => ((fake = f), (dir = d), (bodies = 0)), "vcr-tool-custom-", {
    answers: [{ question: QUESTION, toolTurns: [[{ name: "progress_search", args: { q: "llamas" } }]], answer: "Found llamas." }],
  });

  const progressSearch = tool(
    async ({ q }: { q: string }, config: LangGraphRunnableConfig) => {
      bodies++;
      config.writer?.({ at: new Date("2025-01-02T03:04:05.000Z"), q, stage: "searching" });
      await dispatchCustomEvent("search_progress", { pct: 50, q }, config);
      config.writer?.({ q, stage: "done" });
      return `results for ${q}`;
    },
    { name: "progress_search", description: "Search with progress.", schema: z.object({ q: z.string() }) },
  );

  function agent(mode: VcrMode, t = progressSearch) {
    const vcr = new Vcr({ dir, mode });
    return createAgent({ model: openai(fake, vcr.cache), tools: vcr.tools([t]) });
  }

  /** The custom chunks and the names of the nodes that updated, as `stream(..., { streamMode: ["custom", "updates"] })` yields them. */
  async function streamed(mode: VcrMode): Promise<unknown[]> {
    return inOwnTest({}, async () => {
      const out: unknown[] = [];
      const stream = await agent(mode).stream({ messages: [{ role: "user", content: QUESTION }] }, { streamMode: ["custom", "updates"] });
      for await (const [kind, chunk] of stream) out.push(kind === "custom" ? ["custom", chunk] : ["updates", Object.keys(chunk as object)]);
      return out;
    });
  }

  it("streamMode custom: the 2 chunks the body wrote are recorded in the tool fixture and replayed under replay_only (5 chunks each run), with 0 requests and the body run 0 times", async () => {
    const recorded = await streamed("record_or_replay");
    expect(recorded).to.deep.equal([
      ["updates", ["model_request"]],
      ["custom", { at: new Date("2025-01-02T03:04:05.000Z"), q: "llamas", stage: "searching" }],
      ["custom", { q: "llamas", stage: "done" }],
      ["updates", ["tools"]],
      ["updates", ["model_request"]],
    ]);
    expect([fake.count(), bodies]).to.deep.equal([2, 1]);
    // no callback listens to this stream, so the custom event went nowhere live, and nothing records it
    const toolFixture = readFixtures(dir).find((f) => f.kind === "tool")!;
    expect(toolFixture.response).to.deep.equal({
      result: "results for llamas",
      custom: [
        { writer: { at: { $vcr: "Date", value: "2025-01-02T03:04:05.000Z" }, q: "llamas", stage: "searching" } },
        { writer: { q: "llamas", stage: "done" } },
      ],
    });
    const replayed = await streamed("replay_only");
    expect(replayed).to.deep.equal(recorded);
    expect([fake.count(), bodies]).to.deep.equal([2, 1]);
  });

  it("streamEvents v2: the on_custom_event the body dispatched is replayed on the tool's own run, between on_tool_start and on_tool_end, with 0 requests and the body run 0 times", async () => {
    const events = (mode: VcrMode) =>
      inOwnTest({}, async () => {
        const seen: unknown[] = [];
        let toolRun: string | undefined;
        for await (const e of agent(mode).streamEvents({ messages: [{ role: "user", content: QUESTION }] }, { version: "v2" })) {
          if (e.event === "on_tool_start") toolRun = e.run_id;
          if (["on_custom_event", "on_tool_start", "on_tool_end"].includes(e.event)) {
            seen.push([e.event, e.name, e.event === "on_custom_event" ? e.data : null, e.event === "on_custom_event" ? e.run_id === toolRun : null]);
          }
        }
        return seen;
      });
    const recorded = await events("record_or_replay");
    expect(recorded).to.deep.equal([
      ["on_tool_start", "progress_search", null, null],
      ["on_custom_event", "search_progress", { pct: 50, q: "llamas" }, true],
      ["on_tool_end", "progress_search", null, null],
    ]);
    expect([fake.count(), bodies]).to.deep.equal([2, 1]);
    const replayed = await events("replay_only");
    expect(replayed).to.deep.equal(recorded);
    expect([fake.count(), bodies]).to.deep.equal([2, 1]);
  });

  it("an async-generator tool: its custom events replay between the chunks it yielded, in the recorded order", async () => {
    const gen = tool(
      async function* ({ q }: { q: string }, config: RunnableConfig) {
        bodies++;
        await dispatchCustomEvent("step", { n: 1 }, config);
        yield `${q}-1`;
        await dispatchCustomEvent("step", { n: 2 }, config);
        yield `${q}-2`;
        await dispatchCustomEvent("step", { n: 3 }, config);
        return `results for ${q}`;
      },
      { name: "progress_search", description: "Search with progress.", schema: z.object({ q: z.string() }) },
    );
    const order = (mode: VcrMode) =>
      inOwnTest({}, async () => {
        const seen: unknown[] = [];
        const handler = BaseCallbackHandler.fromMethods({
          handleToolEvent: (chunk: unknown) => void seen.push(["chunk", chunk]),
          handleCustomEvent: (name: string, data: unknown) => void seen.push([name, data]),
        });
        await agent(mode, gen).invoke({ messages: [{ role: "user", content: QUESTION }] }, { callbacks: [handler] });
        return seen;
      });
    const recorded = await order("record_or_replay");
    expect(recorded).to.deep.equal([
      ["step", { n: 1 }],
      ["chunk", "llamas-1"],
      ["step", { n: 2 }],
      ["chunk", "llamas-2"],
      ["step", { n: 3 }],
    ]);
    expect(readFixtures(dir).find((f) => f.kind === "tool")!.response).to.deep.include({
      custom: [
        { event: "step", data: { n: 1 } },
        { event: "step", data: { n: 2 }, at: 1 },
        { event: "step", data: { n: 3 }, at: 2 },
      ],
    });
    const replayed = await order("replay_only");
    expect(replayed).to.deep.equal(recorded);
    expect([fake.count(), bodies]).to.deep.equal([2, 1]);
  });

  /** What recording one call of a tool whose body writes `chunk` to `config.writer` threw (outside a graph: a writer that drops it). */
  async function recordWriting(chunk: unknown): Promise<unknown> {
    const writes = tool(
      async ({ q }: { q: string }, config: LangGraphRunnableConfig) => {
        config.writer?.(chunk);
        return `results for ${q}`;
      },
      { name: "progress_search", description: "Search with progress.", schema: z.object({ q: z.string() }) },
    );
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const toolCall = { type: "tool_call" as const, id: "c1", name: "progress_search", args: { q: "llamas" } };
    return inOwnTest({}, () => vcr.tool(writes).invoke(toolCall, { writer: () => undefined } as RunnableConfig)).then(
      () => undefined,
      (e: unknown) => e,
    );
  }

  it("a chunk that cannot be recorded faithfully (a class instance) is refused while recording, naming custom[0].writer, and no tool fixture is written", async () => {
    class Progress {
      constructor(readonly pct: number) {}
    }
    const err = await recordWriting(new Progress(10));
    expect(err).to.be.instanceOf(VcrRecordError);
    expect((err as Error).message).to.contain(
      `tool "progress_search" emitted custom stream output (config.writer or dispatchCustomEvent) that cannot be recorded faithfully: an instance of Progress at custom[0].writer.`,
    );
    expect(fixtureFiles(dir)).to.deep.equal([]);
  });

  it("a credential in a chunk is refused by the fixture's secret scan (VcrSecretError), and nothing is written", async () => {
    const err = await recordWriting({ debug: "using key sk-proj-abcdefghijklmnopqrstuvwxyz0123456789ABCD" });
    expect(err).to.be.instanceOf(VcrSecretError);
    expect((err as Error).message).to.contain("custom[0].writer.debug");
    expect(fixtureFiles(dir)).to.deep.equal([]);
  });

  it("a custom event dispatched by a run inside the body (not on the tool's run) is not recorded, and the recording warns once", async () => {
    const inner = RunnableLambda.from(async (q: string, config?: RunnableConfig) => {
      await dispatchCustomEvent("inner_step", { q }, config);
      return q;
    });
    const viaChain = tool(
      async ({ q }: { q: string }, config: RunnableConfig) => {
        bodies++;
        await inner.invoke(q, config);
        return `results for ${q}`;
      },
      { name: "chain_search", description: "Search through a chain.", schema: z.object({ q: z.string() }) },
    );
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const seen: string[] = [];
    const handler = BaseCallbackHandler.fromMethods({ handleCustomEvent: (name: string) => void seen.push(name) });
    const text = await stderrOf(() =>
      inOwnTest({}, () => vcr.tool(viaChain).invoke({ type: "tool_call", id: "c1", name: "chain_search", args: { q: "llamas" } }, { callbacks: [handler] })),
    );
    expect(seen).to.deep.equal(["inner_step"]);
    expect(text).to.contain(`tool "chain_search": 1 custom event(s) were dispatched by runs inside its body`);
    expect(readFixtures(dir)[0].response).to.deep.equal({ result: "results for llamas" });
  });
});
