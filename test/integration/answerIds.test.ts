/**
 * Two answers from one fixture in one test get ids of their own, as two live answers do
 * (src/adapters/chat/answerIds.ts): a LangGraph `Send` to the same topic twice asks the identical
 * question twice, and the messages reducer merges messages that share an id. A user trial (35c,
 * dupes) got 3 messages live (bypass) and 2 when recording and replaying: the two identical calls
 * shared one live call while recording, and one fixture on replay, so both had its id.
 */
import { expect } from "chai";
import { type AIMessageChunk, type BaseMessage } from "@langchain/core/messages";
import { Annotation, END, MessagesAnnotation, START, Send, StateGraph } from "@langchain/langgraph";
import { Vcr, type VcrMode } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { openai } from "../helpers/models";
import { inOwnTest } from "../helpers/ownTest";

describe("two answers from one fixture in one test", function () {
  this.timeout(30000);
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)), "vcr-answer-ids-");

  /** A map over topics, each branch's answer appended to the messages (merged by id). */
  async function forecasts(mode: VcrMode, topics: string[]): Promise<BaseMessage[]> {
    const model = openai(fake, new Vcr({ dir, mode }).cache);
    const State = Annotation.Root({ ...MessagesAnnotation.spec, topics: Annotation<string[]> });
    const graph = new StateGraph(State)
      .addNode("forecast", async (s: { topic: string }) => ({ messages: [await model.invoke(`One line on ${s.topic}.`)] }))
      .addConditionalEdges(START, (s) => s.topics.map((topic) => new Send("forecast", { topic })))
      .addEdge("forecast", END)
      .compile();
    return (await graph.invoke({ messages: [], topics })).messages;
  }

  it('a Send to "rain" twice: 3 messages, as live, when recording (the two identical calls share 1 request) and on replay (0 requests)', async () => {
    const topics = ["rain", "rain", "snow"];
    const live = await inOwnTest({}, () => forecasts("bypass", topics));
    expect(live).to.have.length(3);
    expect(fake.count()).to.equal(3);
    const recorded = await inOwnTest({}, () => forecasts("record_or_replay", topics));
    expect(fake.count() - 3, "identical concurrent calls share one live call").to.equal(2);
    expect(recorded).to.have.length(3);
    const replayed = await inOwnTest({ mode: "replay_only" }, () => forecasts("replay_only", topics));
    expect(fake.count()).to.equal(5);
    expect(replayed).to.have.length(3);
    const ids = replayed.map((m) => m.id as string);
    expect(new Set(ids).size).to.equal(3);
    expect(ids.filter((id) => id.endsWith("-2"))).to.have.length(1);
    expect(ids, "the ids the recording run gave").to.have.members(recorded.map((m) => m.id as string));
  });

  it("in a graph's nodes, the same question asked twice in one test: the first answer keeps the recorded id, the next gets -2; outside a graph, and streamed, the recorded id every time", async () => {
    const ask = async () => {
      const model = openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache);
      const streamed = async () => {
        let all: AIMessageChunk | undefined;
        for await (const c of await model.stream("Same question.")) all = all ? all.concat(c) : c;
        return all?.id;
      };
      const ids: (string | undefined)[] = [];
      const graph = new StateGraph(MessagesAnnotation)
        .addNode("first", async () => (ids.push((await model.invoke("Same question.")).id), {}))
        .addNode("second", async () => (ids.push((await model.invoke("Same question.")).id), {}))
        .addEdge(START, "first")
        .addEdge("first", "second")
        .addEdge("second", END)
        .compile();
      await graph.invoke({ messages: [] });
      const outside = [(await model.invoke("Same question.")).id, await streamed(), await streamed()];
      return { ids, outside };
    };
    const recorded = await inOwnTest({}, ask);
    const [a, b] = recorded.ids;
    expect(b).to.equal(`${a}-2`);
    expect(recorded.outside[0]).to.equal(a);
    expect(recorded.outside[2]).to.equal(recorded.outside[1]);
    expect(fake.count()).to.equal(2);
    expect(await inOwnTest({ mode: "replay_only" }, ask)).to.deep.equal(recorded);
    expect(fake.count()).to.equal(2);
  });
});
