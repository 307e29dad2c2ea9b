/**
 * Example: structured output with a zod schema. The request's key holds the schema as clean
 * JSON Schema, so changing a field of the schema is a new fixture, never a stale replay.
 */
import { expect } from "chai";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";
import { Vcr } from "../src/index"; // in your project: from "langchain-vcr"
import { provider } from "./provider/config";
import { CASSETTES } from "./support/cassettes";

describe("structured output: a zod schema", () => {
  // #region structured
  const Ticket = z.object({
    orderId: z.string().describe("the order number the customer mentions"),
    category: z.enum(["damaged", "late", "wrong_item", "other"]),
    wantsRefund: z.boolean(),
  });
  const vcr = new Vcr({ dir: CASSETTES });
  const model = new ChatOpenAI({ ...provider.openai, model: "gpt-4o-mini", temperature: 0, cache: vcr.cache });
  const extractTicket = model.withStructuredOutput(Ticket, { name: "ticket" });

  it("turns a customer email into a typed ticket", async () => {
    const ticket = await extractTicket.invoke(
      "Extract the support ticket: 'Hi, order 1234 showed up two weeks late. No refund needed, just letting you know.'",
    );
    expect(Ticket.parse(ticket)).to.deep.equal({ orderId: "1234", category: "late", wantsRefund: false });
  });
  // #endregion structured
});
