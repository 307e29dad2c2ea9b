/**
 * Example (the headline): a `createAgent` refund agent whose tools have side effects.
 * `vcr.tools(...)` wraps them: the recording run runs each tool once and records its result;
 * a replay returns the recorded results and never runs a tool body — counted, not assumed.
 */
import { expect } from "chai";
import { AIMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import { Vcr, withVcr } from "../src/index"; // in your project: from "langchain-vcr"
import { provider } from "./provider/config";
import { CASSETTES } from "./support/cassettes";
import { getOrderStatus, issueRefund, shop } from "./support/shop";

describe("agent: a refund agent whose tools never run on replay", () => {
  // #region agent
  const vcr = new Vcr({ dir: CASSETTES });
  const model = new ChatOpenAI({ ...provider.openai, model: "gpt-4o-mini", temperature: 0, cache: vcr.cache });
  const agent = createAgent({ model, tools: vcr.tools([getOrderStatus, issueRefund]) });

  const ask = (question: string) => agent.invoke({ messages: [{ role: "user", content: question }] });
  const QUESTION = "Order 42 arrived broken. Please refund the $25 I paid for it.";
  // #endregion agent

  beforeEach(() => shop.reset());

  it("looks the order up, refunds it and tells the customer", async () => {
    const { messages } = await ask(QUESTION);
    const toolCalls = messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []) : []));
    expect(toolCalls.map((c) => c.name)).to.deep.equal(["get_order_status", "issue_refund"]);
    expect(toolCalls[1].args).to.deep.equal({ orderId: "42", amount: 25 });
    expect(messages.at(-1)!.text).to.match(/refund/i);
  });

  // #region replay-proof
  it("replays the whole conversation without running a single tool body", async () => {
    const runsBefore = shop.toolRuns;
    const { messages } = await withVcr({ mode: "replay_only" }, () => ask(QUESTION));
    expect(messages.at(-1)!.text).to.match(/refund/i);
    expect(shop.toolRuns - runsBefore).to.equal(0); // no lookup, no refund: the bodies never ran
    expect(shop.refunds).to.deep.equal([]); // nobody got their money twice
  });
  // #endregion replay-proof
});
