/** The `chat_stream` kind: one streamed chat-model call; its response is the provider's chunks. */
import { streamResponseProblem, type StreamResponse } from "../adapters/stream/chunks";
import { compactStream, expandStream } from "../adapters/stream/compact";
import { dropInertMembers } from "../canonical/inert";
import { modelRender, modelTitle } from "./model";
import { contentText, isRec, joinText, toolCall, usageText } from "./text";
import type { KindSpec, Rec } from "./types";

export const chatStream: KindSpec = {
  name: "chat_stream",
  shape: `{ "chunks": [ { "text", "message", "generationInfo"?, "newToken"? } ] }`,
  responseProblem: streamResponseProblem,
  render: modelRender("chunks", renderStream),
  toDisk: (response) => compactStream(response as StreamResponse),
  fromDisk: expandStream,
  noteNearMiss: true,
  upgrades: { 1: ({ request, response }) => ({ request: dropInertMembers({ ...(request as Rec) }), response }) },
  title: modelTitle,
};

function renderStream(chunks: unknown[], out: string[]): void {
  let text = "";
  const calls = new Map<string, { name: string; args: string; id?: string }>();
  const whole: Rec[] = [];
  let usage: string | undefined;
  for (const raw of chunks) {
    const c = isRec(raw) ? raw : {};
    const m = isRec(c.message) ? c.message : {};
    text += typeof c.text === "string" ? c.text : contentText(m.content);
    for (const t of (Array.isArray(m.tool_call_chunks) ? m.tool_call_chunks : []) as Rec[]) {
      const key = String(t.index ?? t.id ?? calls.size);
      const prev = calls.get(key) ?? { name: "", args: "" };
      calls.set(key, { name: prev.name + String(t.name ?? ""), args: prev.args + String(t.args ?? ""), id: prev.id ?? (t.id as string | undefined) });
    }
    if (!Array.isArray(m.tool_call_chunks)) whole.push(...((Array.isArray(m.tool_calls) ? m.tool_calls : []) as Rec[]));
    if (isRec(m.usage_metadata)) usage = usageText(m.usage_metadata);
  }
  out.push(joinText("  [assistant]", text));
  for (const c of calls.values()) out.push(`    → ${c.name}(${c.args})${c.id ? ` [${c.id}]` : ""}`);
  for (const c of whole) out.push(`    → ${toolCall(c)}`);
  out.push(`    (${chunks.length} chunk(s)${usage ? `; ${usage}` : ""})`);
}
