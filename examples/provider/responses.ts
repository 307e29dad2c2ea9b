/**
 * The stand-in provider's OpenAI Responses API: `POST /v1/responses`, as
 * `ChatOpenAI({ useResponsesApi: true })` (and so `createAgent({ model: "openai:…" })`) calls
 * it. JSON, or SSE when `stream: true`: response.created, response.output_item.added,
 * response.content_part.added, response.output_text.delta, response.output_text.done,
 * response.content_part.done, response.function_call_arguments.delta/done,
 * response.output_item.done, response.completed.
 *
 * What it answers, first match wins, as /v1/chat/completions does: the next enqueued reply;
 * a canned answer; a forced tool (`tool_choice: { type: "function", name }`) gets a call with
 * schema-filling arguments; a `text.format` JSON schema gets a schema-filling object;
 * otherwise `"echo: <last user text>"`.
 */
import type * as http from "node:http";
import { cannedReply, contentText, type CannedAnswer } from "./canned";

interface Reply {
  content: string;
  toolCalls: { name: string; args: Record<string, unknown> }[];
  status?: number;
  usage: { prompt: number; completion: number };
}

export interface ResponsesContext {
  answers: readonly CannedAnswer[];
  /** The next enqueued reply (with defaults filled in), or the defaults. */
  resolve(defaultContent: string, defaultToolCalls: Reply["toolCalls"], promptWords: number): Reply;
  fillSchema(schema: unknown): unknown;
  nextId(prefix: string): string;
  created: number;
  sendJson(res: http.ServerResponse, status: number, payload: unknown): void;
  error(res: http.ServerResponse, status: number): void;
}

/** Responses `input` items as chat messages (role + text), for the canned answers and the echo. */
/**
 * The input items as chat-completions messages, which the canned answers read: a `function_call`
 * item is (part of) an assistant turn, a `function_call_output` a tool message, so an agent's
 * next turn counts the turns before it.
 */
function asMessages(input: unknown): { role: string; content: string }[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  if (!Array.isArray(input)) return [];
  const out: { role: string; content: string }[] = [];
  for (const item of input) {
    if (!item || typeof item !== "object") continue;
    if (item.type === "function_call") {
      if (out.at(-1)?.role !== "assistant") out.push({ role: "assistant", content: "" }); // one turn, however many calls
    } else if (item.type === "function_call_output") {
      out.push({ role: "tool", content: typeof item.output === "string" ? item.output : JSON.stringify(item.output ?? "") });
    } else if (typeof item.role === "string") {
      out.push({
        role: item.role,
        content: Array.isArray(item.content)
          ? item.content.map((p: { text?: unknown }) => (typeof p?.text === "string" ? p.text : "")).join("")
          : contentText(item.content),
      });
    }
  }
  return out;
}

function words(text: string): number {
  return (text.match(/\S+/g) ?? []).length;
}

function pieces(text: string): string[] {
  return (text.match(/\S*\s*/g) ?? []).filter((p) => p.length > 0);
}

export function openaiResponses(body: any, res: http.ServerResponse, ctx: ResponsesContext): void {
  const messages = asMessages(body?.input);
  const lastUser = [...messages].reverse().find((m) => m.role === "user")?.content ?? "";
  let defaultContent = "echo: " + lastUser;
  let defaultToolCalls: Reply["toolCalls"] = [];
  const format = body?.text?.format;
  if (format?.type === "json_schema") defaultContent = JSON.stringify(ctx.fillSchema(format.schema ?? {}));
  const tools: any[] = Array.isArray(body?.tools) ? body.tools : [];
  const forced = body?.tool_choice?.type === "function" ? body.tool_choice.name : undefined;
  if (forced) {
    const tool = tools.find((t) => t?.name === forced);
    defaultContent = "";
    defaultToolCalls = [{ name: forced, args: ctx.fillSchema(tool?.parameters ?? {}) as Record<string, unknown> }];
  }
  // canned answers read chat-completions shapes: messages, and tools as { function: { name } }
  const canned = cannedReply(ctx.answers, { messages, tools: tools.map((t) => ({ function: { name: t?.name } })) });
  if (canned) {
    defaultContent = canned.content;
    defaultToolCalls = canned.toolCalls;
  }
  const reply = ctx.resolve(
    defaultContent,
    defaultToolCalls,
    messages.reduce((n, m) => n + words(m.content), 0),
  );
  if (reply.status) return ctx.error(res, reply.status);

  const id = ctx.nextId("resp_fake_");
  const model = body?.model ?? "fake-model";
  const message = reply.content !== "" || reply.toolCalls.length === 0 ? { id: ctx.nextId("msg_fake_"), text: reply.content } : undefined;
  const calls = reply.toolCalls.map((tc) => ({
    id: ctx.nextId("fc_fake_"),
    call_id: ctx.nextId("call_fake_r"),
    name: tc.name,
    arguments: JSON.stringify(tc.args ?? {}),
  }));
  const usage = {
    input_tokens: reply.usage.prompt,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: reply.usage.completion,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: reply.usage.prompt + reply.usage.completion,
  };
  const messageItem = (text: string, status: string) =>
    message && {
      type: "message",
      id: message.id,
      status,
      role: "assistant",
      content: status === "in_progress" ? [] : [{ type: "output_text", text, annotations: [] }],
    };
  const callItem = (c: (typeof calls)[number], status: string, args: string) => ({
    type: "function_call",
    id: c.id,
    call_id: c.call_id,
    name: c.name,
    arguments: args,
    status,
  });
  const output = [...(message ? [messageItem(message.text, "completed")] : []), ...calls.map((c) => callItem(c, "completed", c.arguments))];
  const response = (status: string, out: unknown[], u: unknown) => ({
    id,
    object: "response",
    created_at: ctx.created,
    status,
    error: null,
    incomplete_details: null,
    instructions: null,
    model,
    output: out,
    parallel_tool_calls: true,
    temperature: body?.temperature ?? 1,
    tool_choice: body?.tool_choice ?? "auto",
    tools,
    text: body?.text ?? { format: { type: "text" } },
    usage: u,
    metadata: {},
  });
  if (!body?.stream) return ctx.sendJson(res, 200, response("completed", output, usage));

  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  let seq = 0;
  const event = (type: string, fields: Record<string, unknown>) =>
    res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...fields })}\n\n`);
  event("response.created", { response: response("in_progress", [], null) });
  let index = 0;
  if (message) {
    const at = { item_id: message.id, output_index: index, content_index: 0 };
    event("response.output_item.added", { output_index: index, item: messageItem("", "in_progress") });
    event("response.content_part.added", { ...at, part: { type: "output_text", text: "", annotations: [] } });
    for (const delta of pieces(message.text)) event("response.output_text.delta", { ...at, delta });
    event("response.output_text.done", { ...at, text: message.text });
    event("response.content_part.done", { ...at, part: { type: "output_text", text: message.text, annotations: [] } });
    event("response.output_item.done", { output_index: index, item: messageItem(message.text, "completed") });
    index++;
  }
  for (const c of calls) {
    event("response.output_item.added", { output_index: index, item: callItem(c, "in_progress", "") });
    for (let i = 0; i < c.arguments.length; i += 4)
      event("response.function_call_arguments.delta", { item_id: c.id, output_index: index, delta: c.arguments.slice(i, i + 4) });
    event("response.function_call_arguments.done", { item_id: c.id, output_index: index, arguments: c.arguments });
    event("response.output_item.done", { output_index: index, item: callItem(c, "completed", c.arguments) });
    index++;
  }
  event("response.completed", { response: response("completed", output, usage) });
  res.end();
}
