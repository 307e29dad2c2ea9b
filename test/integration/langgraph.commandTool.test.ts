/**
 * A LangGraph tool that returns `Command({ update })`, run by a ToolNode in a StateGraph of the
 * user's own, under `vcr.install()` (which reaches every tool): recorded as a tool fixture (its
 * update, the ToolMessage in it included) and replayed as a Command of LangGraph's own, so under
 * replay_only the graph's state is updated as when recorded with 0 requests and the body run 0
 * times (before: the run failed with a VcrRecordError). A ToolNode inside
 * `withVcr({ mode: "bypass" })` still runs the body every time and writes no tool fixture.
 */
import { expect } from "chai";
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import type { RunnableConfig } from "@langchain/core/runnables";
import { tool } from "@langchain/core/tools";
import { Annotation, Command, END, START, StateGraph, messagesStateReducer } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { Vcr, withVcr, type VcrMode } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { openai } from "../helpers/models";
import { inOwnTest } from "../helpers/ownTest";
import { readFixtures } from "../helpers/tmp";

const QUESTION = "Set the mood, please.";

const State = Annotation.Root({
  messages: Annotation<BaseMessage[]>({ reducer: messagesStateReducer, default: () => [] }),
  mood: Annotation<string | undefined>(),
});

describe("a LangGraph tool returning Command in a StateGraph's ToolNode, under vcr.install()", function () {
  this.timeout(30000);
  let fake: FakeProvider;
  let dir: string;
  let bodies: number;
  useFakeAndDir((f, d) => ((fake = f), (dir = d), (bodies = 0)), "vcr-command-tool-", {
    answers: [{ question: QUESTION, toolTurns: [[{ name: "set_mood", args: { mood: "happy" } }]], answer: "The mood is set." }],
  });

  const setMood = tool(
    async ({ mood }: { mood: string }, config: { toolCall?: { id?: string } }) => {
      bodies++;
      return new Command({ update: { mood, messages: [new ToolMessage({ content: `mood: ${mood}`, tool_call_id: config.toolCall?.id ?? "" })] } });
    },
    { name: "set_mood", description: "Set the mood.", schema: z.object({ mood: z.string() }) },
  );

  /** The graph, its tools node in a bypass scope when `bypass`; one run of it under an installed Vcr in `mode`. */
  async function run(mode: VcrMode, bypass: boolean): Promise<{ mood: string | undefined; last: string }> {
    const vcr = new Vcr({ dir, mode });
    const uninstall = vcr.install();
    try {
      const model = openai(fake, undefined).bindTools([setMood]);
      const toolNode = new ToolNode([setMood]);
      const graph = new StateGraph(State)
        .addNode("agent", async (s: typeof State.State) => ({ messages: [await model.invoke(s.messages)] }))
        .addNode(
          "tools",
          (s: typeof State.State, cfg: RunnableConfig) => (bypass ? withVcr({ mode: "bypass" }, () => toolNode.invoke(s, cfg)) : toolNode.invoke(s, cfg)),
          {
            ends: ["agent"],
          },
        )
        .addEdge(START, "agent")
        .addConditionalEdges("agent", (s: typeof State.State) => ((s.messages.at(-1) as AIMessage).tool_calls?.length ? "tools" : END), ["tools", END])
        .addEdge("tools", "agent")
        .compile();
      const out = await inOwnTest({}, () => graph.invoke({ messages: [new HumanMessage(QUESTION)] }));
      return { mood: out.mood, last: String(out.messages.at(-1)?.content) };
    } finally {
      uninstall();
    }
  }

  it("recorded as is: 2 requests, 2 chat fixtures and 1 tool fixture (a Command); replayed under replay_only with 0 requests and the body run 0 times, the state updated as when recorded", async () => {
    const recorded = await run("record_or_replay", false);
    expect(recorded).to.deep.equal({ mood: "happy", last: "The mood is set." });
    expect([fake.count(), bodies]).to.deep.equal([2, 1]);
    const fixtures = readFixtures(dir);
    expect(fixtures.map((f) => f.kind).sort()).to.deep.equal(["chat", "chat", "tool"]);
    expect(fixtures.find((f) => f.kind === "tool")!.response).to.have.property("command");
    const replayed = await run("replay_only", false);
    expect(replayed).to.deep.equal(recorded);
    expect([fake.count(), bodies]).to.deep.equal([2, 1]);
  });

  it("the ToolNode in withVcr({ mode: 'bypass' }): recorded (2 requests, 2 chat fixtures, 0 tool fixtures), then replayed under replay_only with 0 requests, the tool's body running each time", async () => {
    const recorded = await run("record_or_replay", true);
    expect(recorded).to.deep.equal({ mood: "happy", last: "The mood is set." });
    expect([fake.count(), bodies]).to.deep.equal([2, 1]);
    expect(readFixtures(dir).map((f) => f.kind)).to.deep.equal(["chat", "chat"]);
    const replayed = await run("replay_only", true);
    expect(replayed).to.deep.equal(recorded);
    expect([fake.count(), bodies]).to.deep.equal([2, 2]);
  });
});
