// An ESM user's graph node calls a wrapped tool that calls LangGraph's interrupt(): the ESM copy
// of LangGraph pauses and resumes the graph; langchain-vcr replays the interrupt through the
// interrupt() it loads itself (the CommonJS copy), which shares LangGraph's config and errors.
import { Annotation, Command, END, MemorySaver, START, StateGraph, interrupt } from "@langchain/langgraph";
import { tool } from "@langchain/core/tools";
import { Vcr } from "langchain-vcr";
import { z } from "zod";

const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
let bodyStarts = 0;
let refunds = 0;
const refund = vcr.tool(
  tool(
    async ({ orderId }) => {
      bodyStarts++;
      const approval = interrupt({ question: `Refund order ${orderId}?` });
      if (approval !== "yes") return `Refund of order ${orderId} declined.`;
      refunds++;
      return `Refunded order ${orderId}.`;
    },
    { name: "approved_refund", description: "Refund an order once a human approves.", schema: z.object({ orderId: z.string() }) },
  ),
);
const State = Annotation.Root({ orderId: Annotation(), result: Annotation() });
const graph = new StateGraph(State)
  .addNode("refund", async (s) => ({ result: await refund.invoke({ orderId: s.orderId }) }))
  .addEdge(START, "refund")
  .addEdge("refund", END)
  .compile({ checkpointer: new MemorySaver() });
const config = { configurable: { thread_id: "t1" } };
const first = await graph.invoke({ orderId: "77" }, config);
const second = await graph.invoke(new Command({ resume: "yes" }), config);
console.log(JSON.stringify({ interrupts: first.__interrupt__?.map((i) => i.value), result: second.result, bodyStarts, refunds, stats: vcr.stats() }));
