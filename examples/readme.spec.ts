/**
 * The contract's ten-line example (quoted in examples/README.md), run as a test: a chat model,
 * embeddings and side-effecting tools behind one `Vcr`, driven by a `createAgent` agent. The
 * README's own example is a consumer project's test file, run by test/recipes/.
 */
import { expect } from "chai";
import { AIMessage } from "@langchain/core/messages";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { createAgent } from "langchain";
import { Vcr } from "../src/index"; // in your project: from "langchain-vcr"
import { provider } from "./provider/config";
import { CASSETTES } from "./support/cassettes";
import { getOrderStatus, issueRefund } from "./support/shop";

describe("readme: the ten-line example", () => {
  // #region ten-lines
  const vcr = new Vcr({ dir: CASSETTES });
  const model = new ChatOpenAI({ ...provider.openai, model: "gpt-4o-mini", cache: vcr.cache });
  const embeddings = vcr.embeddings(new OpenAIEmbeddings({ ...provider.openai, model: "text-embedding-3-small" }));
  const tools = vcr.tools([getOrderStatus, issueRefund]); // same names, descriptions, schemas
  const agent = createAgent({ model, tools });
  // first run: real calls, fixtures written; every run after: replayed offline, tools never run
  // #endregion ten-lines

  it("the agent looks the order up and refunds it", async () => {
    const { messages } = await agent.invoke({
      messages: [{ role: "user", content: "Order 42 arrived broken. Please refund the $25 I paid for it." }],
    });
    const toolCalls = messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []) : []));
    expect(toolCalls.map((c) => c.name)).to.deep.equal(["get_order_status", "issue_refund"]);
    expect(messages.at(-1)!.text).to.match(/refund/i);
  });

  it("the embeddings embed a question", async () => {
    const vector = await embeddings.embedQuery("How long do refunds take?");
    expect(vector.length).to.be.greaterThan(0);
  });
});
