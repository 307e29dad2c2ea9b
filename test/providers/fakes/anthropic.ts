/**
 * Anthropic Messages API on loopback: POST /v1/messages, JSON or SSE (message_start,
 * content_block_start/delta/stop, message_delta with usage, message_stop), `thinking` blocks
 * with a signature, `tool_use` blocks with their input streamed as `input_json_delta`.
 * Errors use Anthropic's body: { type: "error", error: { type, message } }.
 */
import { CUT_JSON, pieces, sendJson, sendSse, startFake, words, type Exchange, type Fake } from "./base";

const ERROR_TYPES: Record<number, string> = { 400: "invalid_request_error", 401: "authentication_error", 429: "rate_limit_error", 500: "api_error" };

function blocks(x: Exchange): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  if (x.reply.thinking) out.push({ type: "thinking", thinking: x.reply.thinking, signature: `sig-fake-${x.serial}` });
  if (x.reply.text) out.push({ type: "text", text: x.reply.text });
  (x.reply.toolCalls ?? []).forEach((c, i) => out.push({ type: "tool_use", id: `toolu_fake_${x.serial}_${i}`, name: c.name, input: c.args }));
  return out;
}

function usage(x: Exchange) {
  return {
    input_tokens: words(JSON.stringify(x.request.body?.messages ?? [])),
    output_tokens: words(x.reply.text ?? "") + 3 * (x.reply.toolCalls?.length ?? 0),
  };
}

function streamEvents(x: Exchange, content: Record<string, unknown>[], stopReason: string): [string, unknown][] {
  const u = usage(x);
  const events: [string, unknown][] = [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: `msg_fake_${x.serial}`,
          type: "message",
          role: "assistant",
          model: x.request.body.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: u.input_tokens, output_tokens: 1 },
        },
      },
    ],
  ];
  content.forEach((b, index) => {
    const delta = (d: unknown) => events.push(["content_block_delta", { type: "content_block_delta", index, delta: d }]);
    if (b.type === "text") {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } }]);
      for (const p of pieces(b.text as string)) delta({ type: "text_delta", text: p });
    } else if (b.type === "thinking") {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "thinking", thinking: "", signature: "" } }]);
      for (const p of pieces(b.thinking as string)) delta({ type: "thinking_delta", thinking: p });
      delta({ type: "signature_delta", signature: b.signature });
    } else {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } }]);
      const json = JSON.stringify(b.input);
      for (let i = 0; i < json.length; i += 8) delta({ type: "input_json_delta", partial_json: json.slice(i, i + 8) });
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push(["message_delta", { type: "message_delta", delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: u.output_tokens } }]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events;
}

export function startAnthropicFake(): Promise<Fake> {
  return startFake((x) => {
    if (x.request.path.split("?")[0] !== "/v1/messages")
      return sendJson(x.res, 404, { type: "error", error: { type: "not_found_error", message: `no route ${x.request.path}` } });
    const { status } = x.reply;
    if (status) return sendJson(x.res, status, { type: "error", error: { type: ERROR_TYPES[status] ?? "api_error", message: `fake ${status}` } });
    const content = blocks(x);
    const stopReason = x.reply.toolCalls?.length ? "tool_use" : "end_turn";
    if (!x.request.body.stream) {
      return sendJson(x.res, 200, {
        id: `msg_fake_${x.serial}`,
        type: "message",
        role: "assistant",
        model: x.request.body.model,
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: usage(x),
      });
    }
    const events = streamEvents(x, content, stopReason);
    sendSse(x.res, x.reply.malformed ? [...events.slice(0, 3), ["content_block_delta", CUT_JSON]] : events);
  });
}
