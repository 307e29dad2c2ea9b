/**
 * The cases every provider runs, in the recording process (record_or_replay) and again in a
 * new process (replay_only, fake stopped): the same code both times, returning what it saw as
 * plain JSON so the two runs can be compared deep-equal.
 */
import { HumanMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { z } from "zod";
import { Vcr } from "../../src/index";
import type { Reply } from "./fakes/base";
import type { ProviderSpec } from "./spec";

export const IMAGE = "data:image/png;base64," + Buffer.from("provider-image-bytes").toString("base64");
export const WEATHER = tool(async () => "sunny", { name: "get_weather", description: "Weather for a city", schema: z.object({ city: z.string() }) });
export const CITY = z.object({ city: z.string() });

const json = (v: unknown) => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));
const runId = (id: unknown) => (typeof id === "string" ? id.replace(/run-[0-9a-f-]{36}/g, "run-*") : id);

export function view(m: BaseMessage): Record<string, unknown> {
  const c = m as BaseMessage & { tool_calls?: unknown[]; tool_call_chunks?: unknown[]; tool_call_id?: string; usage_metadata?: unknown };
  return json({
    type: m.getType(),
    content: m.content,
    id: runId(m.id),
    name: m.name,
    tool_calls: c.tool_call_chunks?.length ? undefined : c.tool_calls,
    tool_call_chunks: c.tool_call_chunks,
    tool_call_id: c.tool_call_id,
    usage_metadata: c.usage_metadata,
    response_metadata: m.response_metadata,
    additional_kwargs: m.additional_kwargs,
  });
}

/** The replies the recording run's requests get, in the order `runOps` makes them. */
export function script(spec: ProviderSpec): Reply[] {
  return [
    { text: "Hello from the fake provider." },
    ...(spec.thinkingFields
      ? [
          { thinking: "Let me think about it.", text: "Thought it through." },
          { thinking: "Streaming my thoughts.", text: "Streamed." },
        ]
      : []),
    { text: "Once upon a time there was a fixture." },
    { text: "Events arrive in order." },
    { text: "New protocol events too." },
    { toolCalls: [{ name: "get_weather", args: { city: "Paris" } }] },
    { toolCalls: [{ name: "get_weather", args: { city: "Rome" } }] },
    spec.structuredReply,
    { toolCalls: [{ name: "get_order", args: { orderId: "42" } }] },
    { text: "Order 42 has shipped." },
    { toolCalls: [{ name: "get_order", args: { orderId: "43" } }] },
    { text: "Order 43 has shipped, it should arrive tomorrow." },
    { toolCalls: [{ name: "get_order", args: { orderId: "44" } }] },
    { text: "Order 44 is still in the warehouse today." },
    ...(spec.images ? [{ text: "A small image." }] : []),
  ];
}

export async function runOps(spec: ProviderSpec, url: string, dir: string): Promise<Record<string, any>> {
  const vcr = new Vcr({ dir });
  const chat = (fields?: Record<string, unknown>) => spec.chat(url, vcr.cache, fields);
  const out: Record<string, any> = {};
  out.invoke = view(await chat().invoke("Say hello"));
  if (spec.thinkingFields) {
    out.thinking = view(await chat(spec.thinkingFields).invoke("Think first"));
    const thoughts: BaseMessage[] = [];
    for await (const c of await chat(spec.thinkingFields).stream("Think while streaming")) thoughts.push(c);
    out.thinkingStream = { chunks: thoughts.map(view), aggregate: view(thoughts.reduce((a, b) => (a as any).concat(b))) };
  }

  const chunks: BaseMessage[] = [];
  for await (const c of await chat().stream("Tell me a story")) chunks.push(c);
  out.stream = { chunks: chunks.map(view), aggregate: view(chunks.reduce((a, b) => (a as any).concat(b))) };

  const events: unknown[] = [];
  for await (const e of chat().streamEvents("events please", { version: "v2" })) {
    events.push(e.event === "on_chat_model_stream" ? [e.event, view(e.data.chunk)] : [e.event]);
  }
  out.events = events;
  const protocol: unknown[] = [];
  for await (const e of chat().streamEvents("new protocol please")) protocol.push(json(e));
  out.eventsNew = protocol;

  out.toolInvoke = view(await chat().bindTools!([WEATHER]).invoke("Weather in Paris?"));
  const calls: BaseMessage[] = [];
  for await (const c of await chat().bindTools!([WEATHER]).stream("Weather in Rome?")) calls.push(c);
  out.toolStream = { chunks: calls.map(view), toolCalls: json((calls.reduce((a, b) => (a as any).concat(b)) as any).tool_calls) };

  out.structured = json(await chat().withStructuredOutput(CITY, { name: "city_answer" }).invoke("Which city?"));

  let toolRuns = 0;
  const getOrder = tool(
    async ({ orderId }: { orderId: string }) => {
      toolRuns++;
      return `order ${orderId} shipped`;
    },
    { name: "get_order", description: "Order status", schema: z.object({ orderId: z.string() }) },
  );
  const agent = createAgent({ model: chat(), tools: vcr.tools([getOrder]) });
  const state = await agent.invoke({ messages: [{ role: "user", content: "Where is order 42?" }] });
  out.agent = { messages: (state.messages as BaseMessage[]).map((m) => json({ ...view(m), id: undefined })), toolRuns };

  // the agent's model calls token-streamed (LangGraph's "messages" mode): the same chunks on replay
  const streamed: unknown[] = [];
  const question = { messages: [{ role: "user", content: "Where is order 43?" }] };
  for await (const [m] of await agent.stream(question, { streamMode: "messages" })) streamed.push(json({ ...view(m as BaseMessage), id: undefined }));
  out.agentMessages = streamed;

  // and through streamEvents v2: the model's stream events, in order
  const agentEvents: unknown[] = [];
  const third = { messages: [{ role: "user", content: "Where is order 44?" }] };
  for await (const e of agent.streamEvents(third, { version: "v2" })) {
    if (e.event === "on_chat_model_stream") agentEvents.push(json({ ...view(e.data.chunk as BaseMessage), id: undefined }));
  }
  out.agentEvents = agentEvents;

  if (spec.images) {
    const content = [
      { type: "text", text: "What is this?" },
      { type: "image_url", image_url: { url: IMAGE } },
    ];
    out.image = view(await chat().invoke([new HumanMessage({ content })]));
  }
  if (spec.embeddings) {
    const emb = vcr.embeddings(spec.embeddings(url));
    out.embeddings = { query: await emb.embedQuery("hello"), documents: await emb.embedDocuments(["alpha", "beta"]) };
  }
  out.stats = vcr.stats();
  return out;
}
