/**
 * Identical tool calls (same tool, same arguments) from parallel LangGraph branches: each `Send`
 * branch asks the model, then takes a ticket with `next_ticket({ queue: "main" })`. The calls are
 * numbered in the order they start, which while recording follows the model's latency and on
 * replay the branch order, so a user trial (35c, race2) replayed one branch's ticket to another,
 * green, and trial 49 (the ticket in the branch's next model request) missed in CI. The recording
 * says so on stderr, naming the tool, the arguments and the test, also when the calls replayed what
 * another test of the run had just recorded (recheck 60); calls whose order is fixed (a ToolNode's
 * parallel calls in one AI message, a polling loop), and a replay of fixtures from before the run, stay quiet.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "chai";
import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { Annotation, END, START, Send, StateGraph } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { z } from "zod";
import { Vcr, VcrMissError, type VcrMode } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { openai } from "../helpers/models";
import { stderrOf } from "../helpers/notes";
import { inOwnTest } from "../helpers/ownTest";

const USERS = ["ann", "bob", "cyd", "dee"];
const TITLE = "Send fan-out: a ticket per customer";
const WARNING = `tool "next_ticket" was called with the same arguments {"queue":"main"} from parallel LangGraph branches in test "${TITLE}", and the calls were answered differently.`;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("identical tool calls from parallel LangGraph branches", function () {
  this.timeout(30000);
  let fake: FakeProvider;
  let dir: string;
  let bodies: number;
  let ticket: number;
  let bodyMs: number;
  useFakeAndDir((f, d) => ((fake = f), (dir = d), (bodies = 0), (ticket = 0), (bodyMs = 5)), "vcr-identical-calls-", {
    answers: [
      {
        question: "Give me two tickets",
        toolTurns: [
          [
            { name: "next_ticket", args: { queue: "main" } },
            { name: "next_ticket", args: { queue: "main" } },
          ],
        ],
        answer: "Done.",
      },
    ],
  });

  /** A stateful tool: each call takes the next ticket (after a short wait, as a database would). */
  const nextTicket = tool(
    async () => {
      bodies++;
      const n = ++ticket;
      await sleep(bodyMs);
      return `ticket #${n}`;
    },
    { name: "next_ticket", description: "Take the next support ticket number.", schema: z.object({ queue: z.string() }) },
  );

  /** The ticket each next_ticket fixture holds, by its call number: "n: ticket #m". */
  function ticketFiles(): string[] {
    return fs
      .readdirSync(dir)
      .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as { kind: string; request: { call?: number }; response: unknown })
      .filter((f) => f.kind === "tool")
      .map((f) => `${f.request.call ?? 1}: ${JSON.stringify(f.response).match(/ticket #\d+/)![0]}`)
      .sort();
  }

  /** The model's latency per customer while recording (the fake answers at once: a fetch that waits first stands in for the network). */
  function slowFetch(latency: Record<string, number>): typeof fetch {
    return async (input, init) => {
      const user = USERS.find((u) => /"(Greet|Welcome) (\w+)"/.exec(String(init?.body ?? ""))?.[2] === u);
      await sleep(user ? (latency[user] ?? 0) : 0);
      return fetch(input, init);
    };
  }

  /**
   * One run of the fan-out: each branch greets its customer through the model, then takes `tickets`
   * tickets (then, with `confirm`, tells the model the last one). The tickets each customer got.
   */
  async function fanOut(
    mode: VcrMode,
    latency: Record<string, number>,
    { tickets = 1, confirm = false, greeting = "Greet", twice = "" } = {},
  ): Promise<string[]> {
    const vcr = new Vcr({ dir, mode });
    const model = openai(fake, vcr.cache, { configuration: { fetch: slowFetch(latency) } });
    const takeTicket = vcr.tool(nextTicket);
    const State = Annotation.Root({
      users: Annotation<string[]>,
      results: Annotation<string[]>({ reducer: (a, b) => a.concat(b), default: () => [] }),
    });
    const graph = new StateGraph(State)
      .addNode("serve", async (s: { user: string }) => {
        await model.invoke([new HumanMessage(`${greeting} ${s.user}`)]);
        if (s.user === twice) await model.invoke([new HumanMessage(`${greeting} ${s.user} once more`)]); // more work before the ticket
        const taken: string[] = [];
        for (let i = 0; i < tickets; i++) {
          const t = await takeTicket.invoke({ type: "tool_call", id: `tc_${s.user}_${i}`, name: "next_ticket", args: { queue: "main" } });
          taken.push(String(t.content));
        }
        if (confirm) await model.invoke([new HumanMessage(`Confirm ${s.user}: ${taken.join(", ")}`)]);
        return { results: [`${s.user}: ${taken.join(", ")}`] };
      })
      .addConditionalEdges(START, (s: typeof State.State) => s.users.map((user) => new Send("serve", { user })))
      .addEdge("serve", END)
      .compile();
    const out = await inOwnTest({}, () => graph.invoke({ users: USERS }), TITLE);
    return out.results.sort();
  }

  it("recorded while the model answered the branches out of order: the recording warns, naming the tool, the arguments and the test (and the replay, in branch order, hands the tickets out otherwise)", async () => {
    let recorded: string[] = [];
    const text = await stderrOf(async () => void (recorded = await fanOut("record_or_replay", { ann: 180, bob: 0, cyd: 120, dee: 60 })));
    expect(recorded).to.deep.equal(["ann: ticket #4", "bob: ticket #1", "cyd: ticket #3", "dee: ticket #2"]);
    expect([fake.count(), bodies]).to.deep.equal([4, 4]);
    expect(text).to.contain(WARNING).and.contain("the test passes on a swapped answer, or misses in CI where the answer reaches a later request");
    expect(text.split(WARNING)).to.have.length(2); // once per test and call
    const replayed = await fanOut("replay_only", {});
    expect([fake.count(), bodies]).to.deep.equal([4, 4]);
    expect(replayed).to.deep.equal(["ann: ticket #1", "bob: ticket #2", "cyd: ticket #3", "dee: ticket #4"]); // the limit the warning names
  });

  it("calls that replay the tickets another test of the run had just recorded, started out of branch order by live model calls before them (recheck 60): the recording warns, and says a replay swaps them", async () => {
    await fanOut("record_or_replay", { ann: 0, bob: 60, cyd: 120, dee: 180 }); // another test, in branch order: tickets 1 to 4
    let recorded: string[] = [];
    const text = await stderrOf(
      async () => void (recorded = await fanOut("record_or_replay", { ann: 180, bob: 0, cyd: 120, dee: 60 }, { greeting: "Welcome" })),
    );
    expect([fake.count(), bodies]).to.deep.equal([8, 4]); // its model calls live, its tickets replayed
    expect(recorded).to.deep.equal(["ann: ticket #4", "bob: ticket #1", "cyd: ticket #3", "dee: ticket #2"]);
    expect(text).to.contain(WARNING).and.contain("the test passes on a swapped answer, or misses in CI where the answer reaches a later request");
    expect(await fanOut("replay_only", {}, { greeting: "Welcome" })).not.to.deep.equal(recorded); // the swap it names
  });

  it("the ticket flows into the branch's next model request (trial 49): recorded out of order, the recording warns, and the replay misses (the outcome it names) with 0 requests", async () => {
    const text = await stderrOf(() => fanOut("record_or_replay", { ann: 180, bob: 0, cyd: 120, dee: 60 }, { confirm: true }));
    expect([fake.count(), bodies]).to.deep.equal([8, 4]);
    expect(text).to.contain(WARNING);
    const err = await fanOut("replay_only", {}, { confirm: true }).then(
      () => expect.fail("replayed"),
      (e: unknown) => e,
    );
    const errors = err instanceof AggregateError ? err.errors : [err]; // LangGraph throws the parallel branches' errors together
    expect(errors.length).to.be.greaterThan(0);
    for (const e of errors) expect(e).to.be.instanceOf(VcrMissError);
    expect([fake.count(), bodies]).to.deep.equal([8, 4]);
  });

  it("a replay of fixtures recorded before the run, whose branches reach the call in another order than they started (one asks the model twice first): no warning, and the tickets as recorded", async () => {
    const recorded = await fanOut("record_or_replay", { ann: 180, bob: 0, cyd: 60, dee: 120 }, { twice: "ann" }); // bob, cyd, dee, ann: as a replay goes
    expect(recorded).to.deep.equal(["ann: ticket #4", "bob: ticket #1", "cyd: ticket #2", "dee: ticket #3"]);
    for (const f of fs.readdirSync(dir)) {
      const file = path.join(dir, f);
      fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/"recordedAt": "[^"]*"/, `"recordedAt": "2026-01-01T00:00:00.000Z"`)); // an earlier run's
    }
    let replayed: string[] = [];
    const text = await stderrOf(async () => void (replayed = await fanOut("replay_only", {}, { twice: "ann" })));
    expect(text).not.to.contain(`tool "next_ticket"`); // review 61 M1: every CI run warned
    expect(replayed).to.deep.equal(recorded);
    expect([fake.count(), bodies]).to.deep.equal([5, 4]);
  });

  it("a branch taking two tickets, recorded out of order: the recording warns (once), and the replay hands the tickets out otherwise", async () => {
    let recorded: string[] = [];
    const text = await stderrOf(async () => void (recorded = await fanOut("record_or_replay", { ann: 180, bob: 0, cyd: 60, dee: 120 }, { tickets: 2 })));
    expect(recorded).to.deep.equal(["ann: ticket #7, ticket #8", "bob: ticket #1, ticket #2", "cyd: ticket #3, ticket #4", "dee: ticket #5, ticket #6"]);
    expect(text).to.contain(WARNING);
    expect(text.split(WARNING)).to.have.length(2); // once per test and call
    expect(ticketFiles()).to.deep.equal([1, 2, 3, 4, 5, 6, 7, 8].map((n) => `${n}: ticket #${n}`)); // call n holds ticket n
    const replayed = await fanOut("replay_only", {}, { tickets: 2 });
    expect([fake.count(), bodies]).to.deep.equal([4, 8]);
    expect(replayed).not.to.deep.equal(recorded); // the limit the warning names
  });

  it("recorded while the model answered in branch order: no warning, and the replay hands out the recorded tickets", async () => {
    let recorded: string[] = [];
    const text = await stderrOf(async () => void (recorded = await fanOut("record_or_replay", { ann: 0, bob: 40, cyd: 80, dee: 120 })));
    expect(recorded).to.deep.equal(["ann: ticket #1", "bob: ticket #2", "cyd: ticket #3", "dee: ticket #4"]);
    expect(text).not.to.contain(`tool "next_ticket"`);
    expect(await fanOut("replay_only", {})).to.deep.equal(recorded);
    expect([fake.count(), bodies]).to.deep.equal([4, 4]);
  });

  it("outside LangGraph (Promise.all over customers, each asking the model first): identical calls in flight together and answered differently make the recording warn", async () => {
    bodyMs = 200; // bob's call is still running when ann's starts
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const model = openai(fake, vcr.cache, { configuration: { fetch: slowFetch({ ann: 20, bob: 0 }) } });
    const takeTicket = vcr.tool(nextTicket);
    const serve = async (user: string) => {
      await model.invoke([new HumanMessage(`Greet ${user}`)]);
      return (await takeTicket.invoke({ type: "tool_call", id: `tc_${user}`, name: "next_ticket", args: { queue: "main" } })).content;
    };
    const text = await stderrOf(() => inOwnTest({}, () => Promise.all(["ann", "bob"].map(serve)), "two customers at once"));
    expect(text).to.contain(
      `tool "next_ticket" was called with the same arguments {"queue":"main"} at the same time in test "two customers at once", and the calls were answered differently.`,
    );
  });

  it("two identical calls in one AI message under createAgent, answered differently while in flight together: no warning (they start in the message's order), and the replay gives each its own", async () => {
    const run = (mode: VcrMode) =>
      inOwnTest({}, async () => {
        const vcr = new Vcr({ dir, mode });
        const agent = createAgent({ model: openai(fake, vcr.cache), tools: vcr.tools([nextTicket]) });
        const out = await agent.invoke({ messages: [{ role: "user", content: "Give me two tickets" }] });
        return out.messages.filter((m) => m.getType() === "tool").map((m) => String(m.content));
      });
    let recorded: string[] = [];
    const text = await stderrOf(async () => void (recorded = await run("record_or_replay")));
    expect(recorded).to.deep.equal(["ticket #1", "ticket #2"]);
    expect(text).not.to.contain(`tool "next_ticket"`);
    expect(await run("replay_only")).to.deep.equal(recorded);
    expect([fake.count(), bodies]).to.deep.equal([2, 2]);
  });
});
