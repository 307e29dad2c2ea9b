/**
 * LangGraph `interrupt()` / resume: resuming re-runs the interrupted node from the top, so
 * the model call made before the interrupt is made again with the identical request. It is
 * recorded once and replayed on the re-run, under install() (the graph's model has no
 * cache) and with replay_only in a fresh Vcr: nothing assumes a fixture is used once.
 */
import { expect } from "chai";
import { Annotation, Command, END, MemorySaver, START, StateGraph, interrupt } from "@langchain/langgraph";
import { Vcr } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { readFixtures } from "../helpers/tmp";

describe("LangGraph interrupt()/resume under vcr.install()", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  /** A one-node graph: draft with the model, ask a human to approve (interrupt), then return. */
  function graph() {
    const model = openai(fake, undefined);
    const State = Annotation.Root({ topic: Annotation<string>, draft: Annotation<string>, approved: Annotation<boolean> });
    const draftNode = async (s: typeof State.State) => {
      const draft = (await model.invoke(`Draft a note about ${s.topic}.`)).text;
      const approved = interrupt({ draft }) as boolean;
      return { draft, approved };
    };
    return new StateGraph(State).addNode("write", draftNode).addEdge(START, "write").addEdge("write", END).compile({ checkpointer: new MemorySaver() });
  }

  async function run(vcr: Vcr): Promise<unknown[]> {
    const uninstall = vcr.install();
    try {
      const app = graph();
      const config = { configurable: { thread_id: "t1" } };
      const first = await app.invoke({ topic: "replays" }, config);
      const resumed = await app.invoke(new Command({ resume: true }), config);
      return [(first as { __interrupt__?: { value: unknown }[] }).__interrupt__?.map((i) => i.value), resumed];
    } finally {
      uninstall();
    }
  }

  it("the call repeated by resume is recorded once and replayed; a replay_only run makes 0 requests", async () => {
    const recorded = await run(new Vcr({ dir, mode: "record_or_replay" }));
    expect(recorded).to.deep.equal([
      [{ draft: "echo: Draft a note about replays." }],
      { topic: "replays", draft: "echo: Draft a note about replays.", approved: true },
    ]);
    expect(fake.count()).to.equal(1);
    expect(readFixtures(dir)).to.have.length(1);

    const replay = new Vcr({ dir, mode: "replay_only" });
    expect(await run(replay)).to.deep.equal(recorded);
    expect(fake.count()).to.equal(1);
    expect(replay.stats()).to.deep.equal({ replayed: 2, recorded: 0, bypassed: 0, missed: 0 });
  });
});
