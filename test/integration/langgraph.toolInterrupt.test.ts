/**
 * LangGraph `interrupt()` inside a wrapped tool (a human-approval tool), under the real
 * `createAgent` (its ToolNode) with a MemorySaver and a real ChatOpenAI over the loopback fake.
 * The interrupted call is recorded as an interrupt and replayed through LangGraph's own
 * `interrupt()` (the graph pauses with the same value and id, the body never runs); the resumed
 * call has its own fixture, keyed by the resume value, so another answer is another fixture.
 */
import { expect } from "chai";
import { Annotation, Command, END, MemorySaver, START, StateGraph, interrupt } from "@langchain/langgraph";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { createReactAgent } from "@langchain/langgraph/prebuilt";
import { stderrOf } from "../helpers/notes";
import { z } from "zod";
import { Vcr, type VcrMode } from "../../src/index";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { inOwnTest } from "../helpers/ownTest";
import { openai } from "../helpers/models";
import { readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";

const QUESTION = "Please refund order 77.";
const TWICE = "Refund order 5 twice, please.";
const WITH_STOCK = "Refund order 9 and check the stock of A1.";

/** A human-approval tool: `onBody` counts its runs; it refunds when the human answers "yes". */
function approvalTool(onBody: () => void) {
  return tool(
    async ({ orderId }: { orderId: string }) => {
      onBody();
      return interrupt({ question: `Refund order ${orderId}?` }) === "yes" ? `Refunded order ${orderId}.` : "Declined.";
    },
    { name: "approved_refund", description: "Refund an order once a human approves.", schema: z.object({ orderId: z.string() }) },
  );
}

describe("LangGraph interrupt() inside a wrapped tool (createAgent, MemorySaver)", function () {
  this.timeout(30000);
  let fake: FakeProvider;
  let dir: string;
  beforeEach(async () => {
    fake = await startFakeProvider({
      answers: [
        { question: QUESTION, toolTurns: [[{ name: "approved_refund", args: { orderId: "77" } }]], answer: "All done with order 77." },
        {
          question: WITH_STOCK,
          toolTurns: [
            [
              { name: "approved_refund", args: { orderId: "9" } },
              { name: "get_stock", args: { sku: "A1" } },
            ],
          ],
          answer: "Refunded, and A1 is in stock.",
        },
        // two identical calls in one turn, each interrupting: createAgent runs each in a task of its own
        {
          question: TWICE,
          toolTurns: [
            [
              { name: "approved_refund", args: { orderId: "5" } },
              { name: "approved_refund", args: { orderId: "5" } },
            ],
          ],
          answer: "Both done.",
        },
      ],
    });
    dir = tmpDir("vcr-tool-interrupt-");
  });
  afterEach(async () => {
    await fake.close();
    removeTmpDirs();
  });

  /** One test's run: ask, see the interrupt, resume with `answer`; what the graph showed, and how often the body ran past the interrupt. */
  async function run(
    mode: VcrMode,
    answer: string,
    { title = "refund test", toolMode, question = QUESTION }: { title?: string; toolMode?: "replay" | "execute"; question?: string } = {},
  ): Promise<{ interrupts: unknown; last: string; toolResult: string; refunds: number; bodyStarts: number }> {
    const vcr = new Vcr({ dir, mode, toolMode });
    let refunds = 0;
    let bodyStarts = 0;
    const approvedRefund = tool(
      async ({ orderId }: { orderId: string }) => {
        bodyStarts++;
        const approval = interrupt({ question: `Refund order ${orderId}?` }) as string;
        if (approval !== "yes") return `Refund of order ${orderId} declined.`;
        refunds++;
        return `Refunded order ${orderId}.`;
      },
      { name: "approved_refund", description: "Refund an order once a human approves.", schema: z.object({ orderId: z.string() }) },
    );
    const model = openai(fake, vcr.cache);
    const agent = createAgent({ model, tools: vcr.tools([approvedRefund]), checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "t1" } };
    return inOwnTest(
      {},
      async () => {
        const first = (await agent.invoke({ messages: [{ role: "user", content: question }] }, config)) as {
          __interrupt__?: { id?: string; value: unknown }[];
        };
        // one pending interrupt takes the answer as it is; several take it by interrupt id
        const pending = first.__interrupt__ ?? [];
        const resume = pending.length > 1 ? Object.fromEntries(pending.map((i) => [i.id!, answer])) : answer;
        const resumed = await agent.invoke(new Command({ resume }), config);
        const messages = resumed.messages;
        return {
          // the id hashes the task's checkpoint namespace, new in every run, recorded or live: only its presence is compared
          interrupts: first.__interrupt__?.map((i) => ({ id: typeof i.id, value: i.value })),
          last: String(messages.at(-1)?.text),
          refunds,
          bodyStarts,
          toolResult: String(messages.at(-2)?.text),
        };
      },
      title,
    );
  }

  it("records the interrupt and the resumed call; replay_only pauses and resumes the same way with 0 requests and 0 body runs", async () => {
    const recorded = await run("record_or_replay", "yes");
    expect(recorded.interrupts).to.deep.equal([{ id: "string", value: { question: "Refund order 77?" } }]);
    expect(recorded).to.include({ last: "All done with order 77.", refunds: 1, bodyStarts: 2 });
    const requests = fake.count();
    expect(requests).to.equal(2);
    const tools = readFixtures(dir).filter((f) => f.kind === "tool");
    expect(tools.map((f) => [f.request.resume ?? null, Object.keys(f.response).sort()])).to.have.deep.members([
      [null, ["interrupt"]],
      [["yes"], ["result", "resumed"]],
    ]);
    expect(tools.find((f) => f.request.resume)!.response.resumed).to.equal(1);

    const replayed = await run("replay_only", "yes");
    expect(replayed).to.deep.equal({ ...recorded, refunds: 0, bodyStarts: 0 });
    expect(fake.count()).to.equal(requests);
  });

  it("another resume value is another fixture: it records under record_or_replay (the body runs), and never replays the first answer", async () => {
    await run("record_or_replay", "yes");
    const declined = await run("record_or_replay", "no");
    expect(declined).to.include({ toolResult: "Refund of order 77 declined.", refunds: 0, bodyStarts: 1 });
    const resumes = readFixtures(dir)
      .filter((f) => f.kind === "tool" && f.request.resume)
      .map((f) => f.request.resume);
    expect(resumes).to.have.deep.members([["yes"], ["no"]]);
    const again = await run("replay_only", "no");
    expect(again).to.include({ toolResult: "Refund of order 77 declined.", bodyStarts: 0 });
  });

  it("record_always and tool mode execute record the resumed call under its resume key too (they never read the interrupt's fixture)", async () => {
    const always = await run("record_always", "yes");
    expect(always).to.include({ toolResult: "Refunded order 77.", refunds: 1, bodyStarts: 2 });
    const executed = await run("record_or_replay", "yes", { toolMode: "execute" });
    expect(executed).to.include({ toolResult: "Refunded order 77.", refunds: 1, bodyStarts: 2 });
    const tools = readFixtures(dir).filter((f) => f.kind === "tool");
    expect(tools.map((f) => f.request.resume ?? null)).to.have.deep.members([null, ["yes"]]);
    const replayed = await run("replay_only", "yes");
    expect(replayed).to.include({ toolResult: "Refunded order 77.", refunds: 0, bodyStarts: 0 });
  });

  it("two identical calls in one turn, each interrupting (a task each): both pause, both resume, replayed with 0 body runs", async () => {
    const recorded = await run("record_or_replay", "yes", { question: TWICE });
    expect(recorded.interrupts).to.deep.equal([
      { id: "string", value: { question: "Refund order 5?" } },
      { id: "string", value: { question: "Refund order 5?" } },
    ]);
    expect(recorded).to.include({ last: "Both done.", refunds: 2, bodyStarts: 4 });
    const tools = readFixtures(dir).filter((f) => f.kind === "tool");
    expect(tools.map((f) => [f.request.call ?? 1, f.request.resume ?? null])).to.have.deep.members([
      [1, null],
      [2, null],
      [1, ["yes"]],
      [2, ["yes"]],
    ]);
    const requests = fake.count();
    const replayed = await run("replay_only", "yes", { question: TWICE });
    expect(replayed).to.deep.equal({ ...recorded, refunds: 0, bodyStarts: 0 });
    expect(fake.count()).to.equal(requests);
  });

  it("createReactAgent: its default ToolNode (one task for a turn's calls) cannot tell which call took a resume value, so it records neither and says why; version v2 records and replays", async () => {
    const agentRun = async (mode: VcrMode, version: "v1" | "v2") => {
      const vcr = new Vcr({ dir, mode });
      let bodies = 0;
      const approvedRefund = approvalTool(() => bodies++);
      const getStock = tool(
        async ({ sku }: { sku: string }) => {
          bodies++;
          await new Promise((r) => setTimeout(r, 20)); // still running when the refund interrupts
          return `${sku}: 3 in stock`;
        },
        { name: "get_stock", description: "Stock of a product.", schema: z.object({ sku: z.string() }) },
      );
      const model = openai(fake, vcr.cache);
      const agent = createReactAgent({ llm: model, tools: vcr.tools([approvedRefund, getStock]), checkpointer: new MemorySaver(), version });
      const config = { configurable: { thread_id: `t-${version}` } };
      return inOwnTest({}, async () => {
        await agent.invoke({ messages: [{ role: "user", content: WITH_STOCK }] }, config);
        const done = await agent.invoke(new Command({ resume: "yes" }), config);
        return { last: String(done.messages.at(-1)?.text), bodies };
      });
    };
    let v1: { last: string; bodies: number } | undefined;
    const warned = await stderrOf(async () => (v1 = await agentRun("record_or_replay", "v1")));
    expect(v1!.last).to.equal("Refunded, and A1 is in stock.");
    expect(warned).to.include('tool "approved_refund" ran beside other tool calls in one LangGraph task while interrupt() was used');
    expect(warned).to.include('createReactAgent({ ..., version: "v2" })');
    expect(readFixtures(dir).filter((f) => f.kind === "tool" && f.request.args?.orderId === "9")).to.deep.equal([]); // never a wrong attribution on disk
    // replayed as it was recorded, the refund misses: its miss says why recording again will not help (before: only the record command)
    const missed = await agentRun("replay_only", "v1").then(
      () => "replayed",
      (e: Error) => e.message,
    );
    expect(missed)
      .to.include("no recorded fixture for this tool request")
      .and.include('tool "approved_refund" runs beside other tool calls in one LangGraph task');
    expect(missed).to.include("recording again will not help").and.include("one Send per tool call");
    // under bypass nothing is ever recorded: nothing to say (before: the same warning)
    const bypassWarned = await stderrOf(() => agentRun("bypass", "v1"));
    expect(bypassWarned).to.not.include("ran beside other tool calls");

    const recorded = await agentRun("record_or_replay", "v2");
    expect(recorded.last).to.equal("Refunded, and A1 is in stock.");
    const requests = fake.count();
    const replayed = await agentRun("replay_only", "v2");
    expect(replayed).to.deep.equal({ last: recorded.last, bodies: 0 });
    expect(fake.count()).to.equal(requests);
    // v2's fixtures replayed by a v1 agent: the interrupt is not replayed beside the other call; loud, 0 bodies
    const mixed = await agentRun("replay_only", "v1").then(
      () => "replayed",
      (e: Error) => e.message,
    );
    // the tool's own error: the model turn that carries it (the ToolNode's error message) throws it
    expect(mixed).to.include('tool "approved_refund" runs beside other tool calls in one LangGraph task');
  });

  it("a task that runs several wrapped calls never replays an interrupt beside another call: a VcrConfigError, also on stderr, that names version v2", async () => {
    await run("record_or_replay", "yes", { question: TWICE }); // createAgent: a task per call
    const vcr = new Vcr({ dir, mode: "replay_only" });
    let bodies = 0;
    const approvedRefund = approvalTool(() => bodies++);
    const agent = createReactAgent({ llm: openai(fake, vcr.cache), tools: vcr.tools([approvedRefund]), checkpointer: new MemorySaver() }); // v1: one task
    let failure: Error | undefined;
    const stderr = await stderrOf(() =>
      inOwnTest({}, () => agent.invoke({ messages: [{ role: "user", content: TWICE }] }, { configurable: { thread_id: "v1" } })).catch(
        (e: Error) => void (failure = e),
      ),
    );
    expect(stderr).to.include('tool "approved_refund" runs beside other tool calls in one LangGraph task').and.include('version: "v2"');
    // the ToolNode hands each call's error to the model: its next turn, carrying it, throws it (never an answer)
    expect(failure?.name).to.equal("VcrConfigError");
    expect(failure?.message).to.include("its caller passed it on to the model as a message");
    expect(bodies).to.equal(0);
  });

  it("a graph node that calls the tool twice, one after the other: two pauses, three runs of the node, replayed with 0 body runs", async () => {
    const runNode = async (mode: VcrMode) => {
      const vcr = new Vcr({ dir, mode });
      let bodies = 0;
      const refund = vcr.tool(approvalTool(() => bodies++));
      const State = Annotation.Root({ results: Annotation<string[]> });
      const graph = new StateGraph(State)
        .addNode("approve_both", async () => ({ results: [await refund.invoke({ orderId: "1" }), await refund.invoke({ orderId: "2" })] }))
        .addEdge(START, "approve_both")
        .addEdge("approve_both", END)
        .compile({ checkpointer: new MemorySaver() });
      const config = { configurable: { thread_id: "seq" } };
      return inOwnTest({}, async () => {
        const pauses: unknown[] = [];
        let out = (await graph.invoke({ results: [] }, config)) as { results: string[]; __interrupt__?: { value: unknown }[] };
        while (out.__interrupt__) {
          pauses.push(...out.__interrupt__.map((i) => i.value));
          out = (await graph.invoke(new Command({ resume: "yes" }), config)) as typeof out;
        }
        return { pauses, results: out.results, bodies };
      });
    };
    const recorded = await runNode("record_or_replay");
    expect(recorded).to.deep.equal({
      pauses: [{ question: "Refund order 1?" }, { question: "Refund order 2?" }],
      results: ["Refunded order 1.", "Refunded order 2."],
      bodies: 5, // 1 | 1 resumed + 2 | 1 resumed + 2 resumed
    });
    expect(await runNode("replay_only")).to.deep.equal({ ...recorded, bodies: 0 });
  });

  it("under replay_only an answer never recorded is a miss for the resumed call, not the recorded answer", async () => {
    await run("record_or_replay", "yes");
    const requests = fake.count();
    // createAgent's ToolNode turns the tool's miss into an error ToolMessage; the model call after it throws that miss (tools-and-agents.md)
    const err = await run("replay_only", "maybe").then(
      () => undefined,
      (e: Error) => e,
    );
    expect(err?.name).to.equal("VcrMissError");
    expect(err?.message).to.include('no recorded fixture for this tool request from tool "approved_refund", resumed').and.include('"resume":["maybe"]');
    expect(fake.count()).to.equal(requests);
  });
});
