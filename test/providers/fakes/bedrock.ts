/**
 * Amazon Bedrock Runtime on loopback, over cleartext HTTP/2 (the SDK's default handler):
 * POST /model/{id}/converse (Converse JSON), /model/{id}/converse-stream (binary AWS
 * event-stream: messageStart, contentBlockStart/Delta/Stop, messageStop, metadata with usage),
 * /model/{id}/invoke (Titan embeddings). Errors carry `x-amzn-errortype` and { message }.
 * Requests are SigV4-signed by the client; the fake does not check signatures.
 */
import { fakeVector } from "../../../examples/provider/server";
import { CUT_JSON, pieces, sendJson, startFake, words, type Exchange, type Fake } from "./base";
import { bedrockEvent } from "./eventStream";

const ERRORS: Record<number, string> = {
  400: "ValidationException",
  401: "UnrecognizedClientException",
  403: "AccessDeniedException",
  429: "ThrottlingException",
  500: "InternalServerException",
};

function usage(x: Exchange) {
  const inputTokens = words(JSON.stringify(x.request.body?.messages ?? []));
  const outputTokens = words(x.reply.text ?? "") + 3 * (x.reply.toolCalls?.length ?? 0);
  return { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens };
}

const toolUseId = (x: Exchange, i: number) => `tooluse_fake_${x.serial}_${i}`;

function converse(x: Exchange): void {
  const content: unknown[] = [];
  if (x.reply.thinking) content.push({ reasoningContent: { reasoningText: { text: x.reply.thinking, signature: `sig-fake-${x.serial}` } } });
  if (x.reply.text) content.push({ text: x.reply.text });
  (x.reply.toolCalls ?? []).forEach((c, i) => content.push({ toolUse: { toolUseId: toolUseId(x, i), name: c.name, input: c.args } }));
  const stopReason = x.reply.toolCalls?.length ? "tool_use" : "end_turn";
  sendJson(x.res, 200, { output: { message: { role: "assistant", content } }, stopReason, usage: usage(x), metrics: { latencyMs: 7 } });
}

function converseStream(x: Exchange): void {
  const frames: Buffer[] = [bedrockEvent("messageStart", { role: "assistant" })];
  let index = 0;
  const delta = (d: unknown) => frames.push(bedrockEvent("contentBlockDelta", { contentBlockIndex: index, delta: d }));
  const stop = () => frames.push(bedrockEvent("contentBlockStop", { contentBlockIndex: index++ }));
  if (x.reply.thinking) {
    for (const p of pieces(x.reply.thinking)) delta({ reasoningContent: { text: p } });
    delta({ reasoningContent: { signature: `sig-fake-${x.serial}` } });
    stop();
  }
  if (x.reply.text) {
    for (const p of pieces(x.reply.text)) delta({ text: p });
    stop();
  }
  (x.reply.toolCalls ?? []).forEach((c, i) => {
    frames.push(bedrockEvent("contentBlockStart", { contentBlockIndex: index, start: { toolUse: { toolUseId: toolUseId(x, i), name: c.name } } }));
    const json = JSON.stringify(c.args);
    for (let j = 0; j < json.length; j += 8) delta({ toolUse: { input: json.slice(j, j + 8) } });
    stop();
  });
  frames.push(bedrockEvent("messageStop", { stopReason: x.reply.toolCalls?.length ? "tool_use" : "end_turn" }));
  frames.push(bedrockEvent("metadata", { usage: usage(x), metrics: { latencyMs: 7 } }));
  const sent = x.reply.malformed ? [...frames.slice(0, 2), bedrockEvent("contentBlockDelta", CUT_JSON)] : frames;
  x.res.writeHead(200, { "content-type": "application/vnd.amazon.eventstream" });
  x.res.end(Buffer.concat(sent));
}

export function startBedrockFake(): Promise<Fake> {
  return startFake(
    (x) => {
      const m = /^\/model\/([^/]+)\/(converse|converse-stream|invoke)$/.exec(x.request.path);
      const fail = (status: number, message: string) => {
        x.res.writeHead(status, {
          "content-type": "application/json",
          "x-amzn-errortype": `${ERRORS[status] ?? "InternalServerException"}:http://internal.amazon.com/coral/com.amazon.bedrock/`,
        });
        x.res.end(JSON.stringify({ message }));
      };
      if (!m) return fail(400, `no route ${x.request.path}`);
      if (x.reply.status) return fail(x.reply.status, `fake ${x.reply.status}`);
      if (m[2] === "invoke")
        return sendJson(x.res, 200, {
          embedding: fakeVector(String(x.request.body?.inputText), 8),
          inputTextTokenCount: words(String(x.request.body?.inputText)),
        });
      return m[2] === "converse" ? converse(x) : converseStream(x);
    },
    { http2: true },
  );
}
