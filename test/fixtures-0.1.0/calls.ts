/**
 * The calls behind the committed 0.1.0 fixture set (test/fixtures-0.1.0/cassettes/): a chat
 * question, a tool-bound call whose zod 4 schema carries a `$schema` dialect URI, structured
 * output, a stream, an embedding, a wrapped tool and ChatOllama with a tool. The set was
 * written by `record.ts` with langchain-vcr 0.1.0's canonical form (schemaVersion 1); the
 * upgrade test replays it after `migrate`. Returns what each call answered.
 */
import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { OpenAIEmbeddings } from "@langchain/openai";
import { z } from "zod";
import type { Vcr } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { ollama, openai, TEST_KEY } from "../helpers/models";

export const orderTool = () =>
  tool(async ({ orderId }: { orderId: string }) => `order ${orderId}: shipped`, {
    name: "lookup_order",
    description: "Look up an order by id.",
    schema: z.object({ orderId: z.string().describe("The order id") }),
  });

export async function runCalls(vcr: Vcr, fake: FakeProvider): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  const chat = openai(fake, vcr.cache, { temperature: 0 });
  out.chat = (await chat.invoke([new HumanMessage("What is the capital of France?")])).content;
  const withTools = await chat.bindTools([orderTool()]).invoke([new HumanMessage("Where is order 42?")]);
  out.tools = { content: withTools.content, tool_calls: withTools.tool_calls?.map((c) => ({ name: c.name, args: c.args })) };
  out.structured = await chat.withStructuredOutput(z.object({ city: z.string(), population: z.number() }), { name: "city_facts" }).invoke("Facts about Paris");
  let streamed = "";
  for await (const c of await chat.stream([new HumanMessage("Tell me a short story about a lighthouse keeper")])) streamed += String(c.content);
  out.stream = streamed;
  const emb = vcr.embeddings(
    new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } }),
  );
  out.embedding = await emb.embedQuery("lighthouse");
  out.tool = await vcr.tool(orderTool()).invoke({ orderId: "42" });
  const local = await ollama(fake, vcr.cache, { temperature: 0 })
    .bindTools([orderTool()])
    .invoke([new HumanMessage("Where is order 7?")]);
  out.ollama = { content: local.content, tool_calls: local.tool_calls?.map((c) => ({ name: c.name, args: c.args })) };
  return out;
}
