/**
 * A readable rendering of one fixture for `langchain-vcr show`: the envelope, then per kind
 * the request (model, parameters, tools, messages with roles and tool calls; embedding input;
 * tool arguments) and the answer (text, tool calls, usage; vector summary; tool result).
 * Shapes it does not recognise are printed as JSON, so nothing is ever hidden.
 */
import type { Fixture } from "../store/fixture";

type Rec = Record<string, unknown>;

export function renderFixture(f: Fixture, where: string): string {
  const out: string[] = [where];
  out.push(`  kind:     ${f.kind}`, `  hash:     ${f.hash}`, `  recorded: ${f.recordedAt}${f.redacted ? "  (redacted)" : ""}`);
  const req = (isRec(f.request) ? f.request : {}) as Rec;
  const res = (isRec(f.response) ? f.response : {}) as Rec;
  if (f.kind === "chat" || f.kind === "chat_stream" || f.kind === "llm") {
    renderModelRequest(req, out);
    out.push("answer:");
    if (f.kind === "chat_stream" && Array.isArray(res.chunks)) renderStream(res.chunks, out);
    else if (Array.isArray(res.generations)) renderGenerations(res.generations, out);
    else out.push(indent(json(f.response), "  "));
  } else if (f.kind === "embedding") {
    renderEmbedding(req, res, out);
  } else if (f.kind === "tool") {
    renderTool(req, res, out);
  } else {
    out.push("request:", indent(json(f.request), "  "), "response:", indent(json(f.response), "  "));
  }
  return out.join("\n") + "\n";
}

function renderModelRequest(req: Rec, out: string[]): void {
  if (req.model !== undefined) out.push(`  model:    ${String(req.model)}`);
  const params = Object.keys(req).filter((k) => !["model", "messages", "prompt", "tools"].includes(k));
  if (params.length) out.push(`  params:   ${params.map((k) => `${k}=${compact(req[k])}`).join(", ")}`);
  if (Array.isArray(req.tools)) {
    out.push("tools:");
    for (const t of req.tools as Rec[]) {
      const desc = typeof t?.description === "string" ? ` — ${firstLine(t.description)}` : "";
      out.push(`  ${String(t?.name ?? compact(t))}${desc}`);
    }
  }
  if (typeof req.prompt === "string") out.push("prompt:", indent(req.prompt, "  "));
  if (Array.isArray(req.messages)) {
    out.push("messages:");
    for (const m of req.messages as Rec[]) renderMessage(m, out);
  }
}

function renderMessage(m: Rec, out: string[]): void {
  const role = String(m.role ?? m.type ?? "?");
  const tags = [m.name ? `name=${String(m.name)}` : "", m.tool_call_id ? `for ${String(m.tool_call_id)}` : "", m.status === "error" ? "error" : ""].filter(Boolean);
  const label = `  [${role}${tags.length ? " " + tags.join(" ") : ""}]`;
  const text = contentText(m.content);
  out.push(joinText(label, text));
  for (const c of (Array.isArray(m.tool_calls) ? m.tool_calls : []) as Rec[]) out.push(`    → ${toolCall(c)}`);
}

function renderGenerations(gens: unknown[], out: string[]): void {
  gens.forEach((raw, i) => {
    const g = (isRec(raw) ? raw : {}) as Rec;
    const m = (isRec(g.message) ? g.message : undefined) as Rec | undefined;
    const label = gens.length > 1 ? `  #${i + 1} ` : "  ";
    const text = m ? contentText(m.content) : String(g.text ?? "");
    out.push(joinText(`${label}[${m ? roleOf(String(m.type ?? "ai")) : "text"}]`, text));
    for (const c of (m && Array.isArray(m.tool_calls) ? m.tool_calls : []) as Rec[]) out.push(`    → ${toolCall(c)}`);
    const info = (isRec(g.generationInfo) ? g.generationInfo : {}) as Rec;
    const meta = (m && isRec(m.response_metadata) ? m.response_metadata : {}) as Rec;
    const finish = info.finish_reason ?? meta.finish_reason ?? info.done_reason ?? meta.done_reason;
    const usage = m && isRec(m.usage_metadata) ? usageText(m.usage_metadata as Rec) : undefined;
    const facts = [finish !== undefined ? `finish: ${String(finish)}` : "", usage ?? ""].filter(Boolean);
    if (facts.length) out.push(`    (${facts.join("; ")})`);
  });
}

function renderStream(chunks: unknown[], out: string[]): void {
  let text = "";
  const calls = new Map<string, { name: string; args: string; id?: string }>();
  const whole: Rec[] = [];
  let usage: string | undefined;
  for (const raw of chunks) {
    const c = (isRec(raw) ? raw : {}) as Rec;
    const m = (isRec(c.message) ? c.message : {}) as Rec;
    text += typeof c.text === "string" ? c.text : contentText(m.content);
    for (const t of (Array.isArray(m.tool_call_chunks) ? m.tool_call_chunks : []) as Rec[]) {
      const key = String(t.index ?? t.id ?? calls.size);
      const prev = calls.get(key) ?? { name: "", args: "" };
      calls.set(key, { name: prev.name + (t.name ?? ""), args: prev.args + (t.args ?? ""), id: prev.id ?? (t.id as string | undefined) });
    }
    if (!Array.isArray(m.tool_call_chunks)) whole.push(...((Array.isArray(m.tool_calls) ? m.tool_calls : []) as Rec[]));
    if (isRec(m.usage_metadata)) usage = usageText(m.usage_metadata as Rec);
  }
  out.push(joinText("  [assistant]", text));
  for (const c of calls.values()) out.push(`    → ${c.name}(${c.args})${c.id ? ` [${c.id}]` : ""}`);
  for (const c of whole) out.push(`    → ${toolCall(c)}`);
  out.push(`    (${chunks.length} chunk(s)${usage ? `; ${usage}` : ""})`);
}

function renderEmbedding(req: Rec, res: Rec, out: string[]): void {
  for (const k of ["provider", "model", "dimensions", "input_type"]) if (req[k] !== undefined) out.push(`  ${(k + ":").padEnd(9)} ${String(req[k])}`);
  if (isRec(req.options) && Object.keys(req.options as Rec).length) out.push(`  options:  ${compact(req.options)}`);
  const rest = Object.keys(req).filter((k) => !["provider", "model", "dimensions", "input_type", "options", "text"].includes(k));
  for (const k of rest) out.push(`  ${k}: ${compact(req[k])}`);
  if (typeof req.text === "string") out.push("text:", indent(req.text, "  "));
  out.push("answer:");
  const v = res.vector;
  if (Array.isArray(v)) {
    const nums = v.filter((x): x is number => typeof x === "number");
    const norm = Math.sqrt(nums.reduce((s, x) => s + x * x, 0));
    out.push(`  vector of ${v.length} numbers [${v.slice(0, 4).join(", ")}${v.length > 4 ? ", …" : ""}], norm ${norm.toFixed(4)}`);
  } else if (typeof v === "string") out.push(`  vector as a base64 string of ${v.length} characters`);
  else out.push(indent(json(res), "  "));
}

function renderTool(req: Rec, res: Rec, out: string[]): void {
  out.push(`  tool:     ${String(req.tool ?? req.name ?? "?")}${typeof req.call === "number" ? `  (identical call #${req.call} in its test)` : ""}`);
  out.push("arguments:", indent(req.args === undefined ? "(none)" : json(req.args), "  "));
  out.push("answer:");
  if ("result" in res) out.push("  returned:", indent(json(res.result), "    "));
  else if (isRec(res.toolMessage)) {
    const m = res.toolMessage as Rec;
    out.push(`  returned a ToolMessage${m.status ? ` (status ${String(m.status)})` : ""}:`, indent(contentText(m.content), "    "));
    if (m.artifact !== undefined) out.push("  artifact:", indent(json(m.artifact), "    "));
  } else if (isRec(res.error)) {
    const e = res.error as Rec;
    out.push(`  threw ${String(e.class ?? e.name)}: ${String(e.message)}`);
  } else if ("thrown" in res) out.push("  threw a non-Error:", indent(json(res.thrown), "    "));
  else out.push(indent(json(res), "  "));
  if (Array.isArray(res.events)) out.push(`  (${res.events.length} streamed event(s) before it)`);
}

/** A label and its text: on one line, or the text indented below when it has several lines. */
function joinText(label: string, text: string): string {
  if (text === "") return label;
  return text.includes("\n") ? `${label}\n${indent(text, "    ")}` : `${label} ${text}`;
}

function toolCall(c: Rec): string {
  const args = typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {});
  return `${String(c.name ?? "?")}(${args})${c.id ? ` [${String(c.id)}]` : ""}`;
}

function usageText(u: Rec): string | undefined {
  if (u.input_tokens === undefined && u.output_tokens === undefined) return undefined;
  return `tokens: ${String(u.input_tokens ?? "?")} in, ${String(u.output_tokens ?? "?")} out`;
}

function roleOf(type: string): string {
  return type === "ai" || type === "AIMessageChunk" ? "assistant" : type;
}

/** Message content as text: strings as is, text blocks joined, other blocks named. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined ? "" : compact(content);
  return content
    .map((b) => {
      if (typeof b === "string") return b;
      if (!isRec(b)) return compact(b);
      const block = b as Rec;
      if (typeof block.text === "string") return block.text;
      const detail = ["mime_type", "mimeType", "sha256", "url"].map((k) => block[k]).filter((x) => typeof x === "string");
      return `[${String(block.type ?? "block")}${detail.length ? " " + detail.join(" ") : ""}]`;
    })
    .join("");
}

function compact(v: unknown): string {
  const s = JSON.stringify(v, summarizeVectors) ?? String(v);
  return s.length > 200 ? s.slice(0, 197) + "..." : s;
}

function json(v: unknown): string {
  return JSON.stringify(v, summarizeVectors, 2) ?? String(v);
}

function summarizeVectors(_key: string, value: unknown): unknown {
  if (Array.isArray(value) && value.length > 8 && value.every((x) => typeof x === "number")) {
    return `[${value.length} numbers: ${value.slice(0, 3).join(", ")}, …]`;
  }
  return value;
}

function firstLine(s: string): string {
  const line = s.split("\n")[0];
  return line.length > 100 ? line.slice(0, 97) + "..." : line;
}

function indent(text: string, by: string): string {
  return text
    .split("\n")
    .map((l) => by + l)
    .join("\n");
}

function isRec(v: unknown): boolean {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
