/**
 * createAgent with LangChain's `todoListMiddleware`, under `vcr.install()`: its `write_todos` tool
 * returns a LangGraph `Command` (the todos and a ToolMessage as a state update). Recorded as a tool
 * fixture and replayed as a Command, so under replay_only the agent's todos and messages are the
 * recorded ones with 0 requests (before: recording failed with a VcrRecordError, and the way out
 * named a ToolNode that createAgent does not expose).
 */
import { expect } from "chai";
import { createAgent, todoListMiddleware } from "langchain";
import { Vcr, type VcrMode } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { openai } from "../helpers/models";
import { inOwnTest } from "../helpers/ownTest";
import { readFixtures } from "../helpers/tmp";

const QUESTION = "Plan the refund of order 42.";
const TODOS = [
  { content: "Look up order 42", status: "completed" },
  { content: "Refund order 42", status: "in_progress" },
];

describe("createAgent with todoListMiddleware (its write_todos tool returns a LangGraph Command), under vcr.install()", function () {
  this.timeout(30000);
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)), "vcr-todos-", {
    answers: [{ question: QUESTION, toolTurns: [[{ name: "write_todos", args: { todos: TODOS } }]], answer: "Planned." }],
  });

  async function run(mode: VcrMode): Promise<{ todos: unknown; messages: string[] }> {
    const uninstall = new Vcr({ dir, mode }).install();
    try {
      const agent = createAgent({ model: openai(fake, undefined), tools: [], middleware: [todoListMiddleware()] });
      const out = await inOwnTest({}, () => agent.invoke({ messages: [{ role: "user", content: QUESTION }] }));
      return { todos: out.todos, messages: out.messages.map((m) => `${m.type}: ${m.text}`) };
    } finally {
      uninstall();
    }
  }

  it("recorded (2 requests, 2 chat fixtures, 1 tool fixture holding the Command), then replayed under replay_only with 0 requests: the same todos and messages", async () => {
    const recorded = await run("record_or_replay");
    expect(recorded.todos).to.deep.equal(TODOS);
    expect(recorded.messages.at(-1)).to.equal("ai: Planned.");
    expect(recorded.messages[2]).to.equal(`tool: Updated todo list to ${JSON.stringify(TODOS)}`);
    expect(fake.count()).to.equal(2);
    const fixtures = readFixtures(dir);
    expect(fixtures.map((f) => f.kind).sort()).to.deep.equal(["chat", "chat", "tool"]);
    expect(fixtures.find((f) => f.kind === "tool")!.response).to.have.property("command");
    expect(await run("replay_only")).to.deep.equal(recorded);
    expect(fake.count()).to.equal(2);
  });
});
