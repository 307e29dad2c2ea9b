/**
 * `vcr.install()` and a `runnable.asTool()` (core's RunnableToolLike, which ToolNode and
 * createAgent accept beside tools): a model-initiated call is recorded and replayed like a
 * tool's, and its body never runs on replay. Before, install() wrapped only StructuredTool, so
 * the runnable's body ran on every replay (1 run under replay_only, no fixture written).
 */
import { expect } from "chai";
import { RunnableLambda } from "@langchain/core/runnables";
import { AIMessage, type ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { z } from "zod";
import { readFixtures } from "../helpers/tmp";
import { installPerTest } from "../helpers/installPerTest";
import { inOwnTest } from "../helpers/ownTest";

describe("vcr.install(): a runnable.asTool() called by the model", () => {
  const vcr = installPerTest();

  const runs = { refund: 0, echo: 0 };
  const refund = RunnableLambda.from(async ({ orderId }: { orderId: string }) => (runs.refund++, { refunded: orderId, amount: 25 })).asTool({
    name: "issue_refund",
    description: "Refund an order.",
    schema: z.object({ orderId: z.string() }),
  });
  const echo = RunnableLambda.from(async (text: string) => (runs.echo++, `echo: ${text}`)).asTool({ name: "echo", description: "Echo.", schema: z.string() });

  /** ToolNode's messages for one AI turn calling both tools (ids suffixed with `id`). */
  async function callBoth(id: string): Promise<ToolMessage[]> {
    const turn = new AIMessage({
      content: "",
      tool_calls: [
        { type: "tool_call", id: `refund_${id}`, name: "issue_refund", args: { orderId: "42" } },
        { type: "tool_call", id: `echo_${id}`, name: "echo", args: { input: "hi" } },
      ],
    });
    const out = (await new ToolNode([refund, echo], { handleToolErrors: false }).invoke({ messages: [turn] })) as { messages: ToolMessage[] };
    return out.messages;
  }
  const shape = (messages: ToolMessage[]) => messages.map((m) => ({ name: m.name, content: m.content, id: m.tool_call_id }));

  it("records one tool fixture per call, then replays both with the body run 0 times; the ToolMessages are those ToolNode makes without langchain-vcr", async () => {
    runs.refund = runs.echo = 0;
    const plain = shape(await callBoth("0"));
    expect(plain).to.deep.equal([
      { name: "issue_refund", content: '{"refunded":"42","amount":25}', id: "refund_0" },
      { name: "echo", content: "echo: hi", id: "echo_0" },
    ]);

    const uninstall = vcr.install("record_or_replay");
    const recorded = shape(await inOwnTest({}, () => callBoth("1")));
    expect(recorded).to.deep.equal(plain.map((m) => ({ ...m, id: m.id.replace("_0", "_1") })));
    expect(runs).to.deep.equal({ refund: 2, echo: 2 });
    expect(readFixtures(vcr.dir()).map((f) => f.kind)).to.deep.equal(["tool", "tool"]);
    uninstall();

    vcr.install("replay_only");
    const replayed = shape(await inOwnTest({}, () => callBoth("2")));
    expect(replayed).to.deep.equal(plain.map((m) => ({ ...m, id: m.id.replace("_0", "_2") })));
    expect(runs, "body runs on replay").to.deep.equal({ refund: 2, echo: 2 });
  });

  it("a runnable that returns a LangGraph Command: recorded (1 tool fixture holding it), then replayed as a Command with the body run 0 times", async () => {
    let bodies = 0;
    const setMood = RunnableLambda.from(async ({ mood }: { mood: string }) => (bodies++, new Command({ update: { mood } }))).asTool({
      name: "set_mood",
      description: "Set the mood.",
      schema: z.object({ mood: z.string() }),
    });
    const call = async (id: string) => {
      const turn = new AIMessage({ content: "", tool_calls: [{ type: "tool_call", id, name: "set_mood", args: { mood: "happy" } }] });
      return (await new ToolNode([setMood], { handleToolErrors: false }).invoke({ messages: [turn] })) as Command[];
    };
    const uninstall = vcr.install("record_or_replay");
    const recorded = await inOwnTest({}, () => call("mood_1"));
    uninstall();
    vcr.install("replay_only");
    const replayed = await inOwnTest({}, () => call("mood_2"));
    expect(bodies).to.equal(1);
    expect(replayed.map((c) => [c instanceof Command, c.update])).to.deep.equal([[true, { mood: "happy" }]]);
    expect(replayed.map((c) => c.update)).to.deep.equal(recorded.map((c) => c.update));
    expect(readFixtures(vcr.dir()).map((f) => Object.keys(f.response as object))).to.deep.equal([["command"]]);
  });

  it("under replay_only with no fixture, the call is a VcrMissError and the body runs 0 times; a direct call with plain arguments runs it as usual", async () => {
    runs.refund = runs.echo = 0;
    vcr.install("replay_only");
    const error = await inOwnTest({}, () => callBoth("3")).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(error?.name).to.equal("VcrMissError");
    expect(runs).to.deep.equal({ refund: 0, echo: 0 });
    expect(await refund.invoke({ orderId: "7" })).to.deep.equal({ refunded: "7", amount: 25 });
    expect(runs.refund).to.equal(1);
  });
});
