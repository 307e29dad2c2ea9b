/** The `chat_stream` kind: one streamed chat-model call; its response is the provider's chunks. */
import { streamResponseProblem, type StreamResponse } from "../adapters/stream/chunks";
import { compactStream, expandStream } from "../adapters/stream/compact";
import { mergeProblem, messageProblem, shapeProblem } from "./messageShape";
import { MODEL_UPGRADES, modelRender, modelTitle, reviewedCall } from "./model";
import { contentText, isRec, joinText, messageReasoning, messageText, reasoningLine, toolCall, usageText } from "./text";
import type { KindSpec, Rec } from "./types";

export const chatStream: KindSpec = {
  name: "chat_stream",
  shape: `{ "chunks": [ { "text", "message", "generationInfo"?, "newToken"? } ] }`,
  responseProblem: streamProblem,
  render: modelRender("chunks", renderStream),
  toDisk: (response) => compactStream(response as StreamResponse),
  fromDisk: expandStream,
  noteNearMiss: true,
  upgrades: MODEL_UPGRADES,
  review: reviewStream,
  title: modelTitle,
};

/**
 * A stream's response, as replay hands it to LangChain: chunks of `{ text, message }`, each
 * message's members of the types LangChain takes (./messageShape.ts), and metadata LangChain
 * can merge from chunk to chunk.
 */
function streamProblem(response: unknown): string | undefined {
  const bad = streamResponseProblem(response);
  if (bad) return bad;
  const merged: Record<"response_metadata" | "additional_kwargs", Rec> = { response_metadata: {}, additional_kwargs: {} };
  for (const [i, c] of (response as { chunks: { message: Rec; shape?: unknown }[] }).chunks.entries()) {
    const at = `response.chunks[${i}].message`;
    const problem = messageProblem(c.message, at) ?? shapeProblem(c.shape, `response.chunks[${i}].shape`);
    if (problem) return problem;
    for (const k of ["response_metadata", "additional_kwargs"] as const) {
      const clash = isRec(c.message[k]) ? mergeProblem(merged[k], c.message[k], `${at}.${k}`) : undefined;
      if (clash) return clash;
    }
  }
  return undefined;
}

/** What a stream's chunks add up to: the answer's text, its tool calls, the usage summed as LangChain sums it. */
function assemble(chunks: unknown[]): { text: string; reasoning: string; calls: { name: string; args: string; id?: string }[]; whole: Rec[]; usage?: Rec } {
  let text = "";
  let reasoning = "";
  const calls = new Map<string, { name: string; args: string; id?: string }>();
  const whole: Rec[] = [];
  let usage: Rec | undefined;
  for (const raw of chunks) {
    const c = isRec(raw) ? raw : {};
    const m = isRec(c.message) ? c.message : {};
    // a chunk's own text is its first text block only when it mixes blocks (ChatGoogleGenerativeAI): its message's text blocks;
    // and ChatOllama's thinking chunk's text is its thinking, beside an empty content (trial 50): a string content is the answer
    text += Array.isArray(m.content)
      ? messageText(m.content)
      : typeof m.content === "string"
        ? m.content
        : typeof c.text === "string"
          ? c.text
          : contentText(m.content);
    reasoning += messageReasoning(m);
    for (const t of (Array.isArray(m.tool_call_chunks) ? m.tool_call_chunks : []) as Rec[]) {
      const key = String(t.index ?? t.id ?? calls.size);
      const prev = calls.get(key) ?? { name: "", args: "" };
      calls.set(key, { name: prev.name + String(t.name ?? ""), args: prev.args + argsText(t.args), id: prev.id ?? (t.id as string | undefined) });
    }
    if (!Array.isArray(m.tool_call_chunks)) whole.push(...((Array.isArray(m.tool_calls) ? m.tool_calls : []) as Rec[]));
    if (isRec(m.usage_metadata)) usage = addUsage(usage ?? {}, m.usage_metadata);
  }
  return { text, reasoning, calls: [...calls.values()], whole, usage };
}

/** A tool-call chunk's args: a piece of JSON text, as core types it, or a whole object (ChatCohere's stream sends one). */
function argsText(args: unknown): string {
  return typeof args === "string" ? args : args === undefined || args === null ? "" : JSON.stringify(args);
}

const MODALITIES = ["audio", "image", "video", "document", "text"] as const;

/** `a + b` of the members of `keys` either side has (a missing or null side counts 0), as core's merge does. */
function sumKeys(a: Rec | undefined, b: Rec | undefined, keys: readonly string[]): Rec {
  const out: Rec = {};
  const n = (v: unknown) => (typeof v === "number" ? v : 0);
  for (const k of keys) if (a?.[k] !== undefined || b?.[k] !== undefined) out[k] = n(a?.[k]) + n(b?.[k]);
  return out;
}

const rec = (v: unknown): Rec | undefined => (isRec(v) ? v : undefined);

/**
 * Two chunks' usage together, exactly as @langchain/core's `mergeUsageMetadata` (AIMessageChunk's
 * concat) adds it: the token counts and the known token details summed, others dropped. Anthropic
 * sends the input tokens in its first event and the output tokens in its last, so the last chunk
 * alone is not the stream's usage.
 */
export function addUsage(a: Rec, b: Rec): Rec {
  return {
    ...sumKeys(a, b, ["input_tokens", "output_tokens", "total_tokens"]),
    input_token_details: sumKeys(rec(a.input_token_details), rec(b.input_token_details), [...MODALITIES, "cache_read", "cache_creation"]),
    output_token_details: sumKeys(rec(a.output_token_details), rec(b.output_token_details), [...MODALITIES, "reasoning"]),
  };
}

function renderStream(chunks: unknown[], out: string[]): void {
  const a = assemble(chunks);
  const usage = a.usage && usageText(a.usage);
  out.push(joinText("  [assistant]", a.text), ...reasoningLine(a.reasoning));
  for (const c of a.calls) out.push(`    → ${c.name}(${c.args})${c.id ? ` [${c.id}]` : ""}`);
  for (const c of a.whole) out.push(`    → ${toolCall(c)}`);
  out.push(`    (${chunks.length} chunk(s)${usage ? `; ${usage}` : ""})`);
}

/** A stream's response for review: the assembled answer, not chunk-by-chunk noise. */
function reviewStream(response: unknown): unknown {
  const chunks = isRec(response) && Array.isArray(response.chunks) ? response.chunks : undefined;
  if (!chunks) return response;
  const a = assemble(chunks);
  const out: Rec = { text: a.text, chunks: chunks.length };
  if (a.calls.length) out.tool_calls = a.calls.map(reviewedCall);
  if (a.whole.length) out.whole_tool_calls = a.whole.map(reviewedCall);
  if (a.usage) out.usage_metadata = a.usage;
  return out;
}
