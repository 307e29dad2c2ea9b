/**
 * OpenAI-style chat completions (JSON, or SSE ending in `data: [DONE]`), in the dialect of a
 * provider that speaks it with its own details: the path, where streamed usage travels, the
 * shape of tool-call ids, the error body. Used by the Groq, Mistral and Azure OpenAI fakes.
 */
import { fakeVector } from "../../../examples/provider/server";
import { CUT_JSON, DEFAULT_REPLY, pieces, sendJson, sendSse, startFake, words, type Exchange, type Fake } from "./base";

export interface Dialect {
  /** the chat path, or a pattern of the path and query (Azure: the deployment is in the path) */
  path: string | RegExp;
  /** "x_groq": usage (and the message id) in the final chunk's `x_groq`; "chunk": a top-level `usage` on the final chunk */
  streamUsage: "x_groq" | "chunk";
  toolCallId(serial: number, index: number): string;
  errorBody(status: number): unknown;
  /** a prefix for completion ids */
  idPrefix: string;
  /** where the provider serves OpenAI-style embeddings, if it does */
  embeddingsPath?: string | RegExp;
  /** the text of the default reply to a request for a JSON-schema answer (`response_format`), as a model would keep to it */
  jsonSchemaDefault?: string;
}

const CREATED = 1700000000;

function usage(x: Exchange) {
  const prompt_tokens = words(JSON.stringify(x.request.body?.messages ?? []));
  const completion_tokens = words(x.reply.text ?? "") + 3 * (x.reply.toolCalls?.length ?? 0);
  return { prompt_tokens, completion_tokens, total_tokens: prompt_tokens + completion_tokens };
}

function toolCalls(x: Exchange, d: Dialect) {
  return (x.reply.toolCalls ?? []).map((c, i) => ({
    id: d.toolCallId(x.serial, i),
    type: "function",
    function: { name: c.name, arguments: JSON.stringify(c.args) },
  }));
}

function complete(x: Exchange, d: Dialect): void {
  const calls = toolCalls(x, d);
  sendJson(x.res, 200, {
    id: `${d.idPrefix}${x.serial}`,
    object: "chat.completion",
    created: CREATED,
    model: x.request.body.model,
    choices: [
      {
        index: 0,
        message: { role: "assistant", content: x.reply.text ?? "", ...(calls.length ? { tool_calls: calls } : {}) },
        finish_reason: calls.length ? "tool_calls" : "stop",
      },
    ],
    usage: usage(x),
    ...(d.streamUsage === "x_groq" ? { x_groq: { id: `req_fake_${x.serial}` } } : {}),
  });
}

function stream(x: Exchange, d: Dialect): void {
  const id = `${d.idPrefix}${x.serial}`;
  const chunk = (delta: unknown, finish: string | null = null, extra: Record<string, unknown> = {}) => ({
    id,
    object: "chat.completion.chunk",
    created: CREATED,
    model: x.request.body.model,
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...extra,
  });
  const calls = toolCalls(x, d);
  const chunks: unknown[] = [chunk({ role: "assistant", content: "" }, null, d.streamUsage === "x_groq" ? { x_groq: { id: `req_fake_${x.serial}` } } : {})];
  for (const p of pieces(x.reply.text ?? "")) chunks.push(chunk({ content: p }));
  calls.forEach((c, index) => chunks.push(chunk({ tool_calls: [{ index, ...c }] })));
  const u = usage(x);
  chunks.push(
    chunk(
      {},
      calls.length ? "tool_calls" : "stop",
      d.streamUsage === "x_groq"
        ? { x_groq: { id: `req_fake_${x.serial}`, usage: { ...u, queue_time: 0.01, prompt_time: 0.01, completion_time: 0.01, total_time: 0.03 } } }
        : { usage: u },
    ),
  );
  const events: [undefined, unknown][] = chunks.map((c) => [undefined, c]);
  sendSse(x.res, x.reply.malformed ? [...events.slice(0, 2), [undefined, CUT_JSON]] : [...events, [undefined, "[DONE]"]]);
}

function embed(x: Exchange): void {
  const inputs: string[] = [].concat(x.request.body.inputs ?? x.request.body.input);
  sendJson(x.res, 200, {
    id: `embd-fake-${x.serial}`,
    object: "list",
    model: x.request.body.model,
    data: inputs.map((text, index) => ({ object: "embedding", embedding: fakeVector(text, 8), index })),
    usage: { prompt_tokens: inputs.reduce((n, t) => n + words(t), 0), completion_tokens: 0, total_tokens: inputs.reduce((n, t) => n + words(t), 0) },
  });
}

const matches = (path: string, route: string | RegExp) => (typeof route === "string" ? path === route : route.test(path));

export function startChatCompletionsFake(d: Dialect): Promise<Fake> {
  return startFake((x) => {
    if (d.embeddingsPath && matches(x.request.path, d.embeddingsPath)) return embed(x);
    if (!matches(x.request.path, d.path)) return sendJson(x.res, 404, d.errorBody(404));
    if (x.reply.status) return sendJson(x.res, x.reply.status, d.errorBody(x.reply.status));
    if (d.jsonSchemaDefault !== undefined && x.reply === DEFAULT_REPLY && x.request.body.response_format?.type === "json_schema") {
      x = { ...x, reply: { text: d.jsonSchemaDefault } };
    }
    return x.request.body.stream ? stream(x, d) : complete(x, d);
  });
}
