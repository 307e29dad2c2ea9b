/** What the model kinds (chat, chat_stream, llm) share: rendering their request and generations, and their title. */
import { dropInertMembers } from "../canonical/inert";
import {
  compact,
  contentText,
  firstLine,
  indent,
  isRec,
  joinText,
  json,
  messageText,
  otherBlockTypes,
  reasoningLine,
  messageReasoning,
  withoutReasoning,
  toolCall,
  usageText,
} from "./text";
import type { KindSpec, Rec } from "./types";
import { MODEL_KINDS } from "../store/format";

/** A tool call as a review compares it: its name and args (an id is new on every recording). */
export const reviewedCall = (c: unknown): unknown => (isRec(c) ? { name: c.name, args: c.args } : c);

/** The schema steps of a model request (chat, chat_stream, llm): version 2 drops the inert schema values (canonical/inert.ts). */
export const MODEL_UPGRADES: KindSpec["upgrades"] = {
  1: ({ request, response }) => ({ request: dropInertMembers({ ...(request as Rec) }), response }),
};

/** A model kind's `render`: the request, then `answer:` with the response's `key` array (or the raw JSON). */
export function modelRender(key: string, renderAnswer: (items: unknown[], out: string[]) => void): KindSpec["render"] {
  return (req, res, raw, out) => {
    renderModelRequest(req, out);
    out.push("answer:");
    const items = res[key];
    if (Array.isArray(items)) renderAnswer(items, out);
    else out.push(indent(json(raw), "  "));
  };
}

/**
 * The model that answers a request, as stats and messages name it: Azure's deployment when the
 * request has one (it routes the call, whatever `model` says: AzureChatOpenAI's default model
 * is "gpt-3.5-turbo" for every deployment), else its model.
 */
export function answeringModel(req: Rec): string | undefined {
  if (typeof req.deployment === "string") return `deployment ${req.deployment}`;
  return typeof req.model === "string" ? req.model : undefined;
}

export function renderModelRequest(req: Rec, out: string[]): void {
  if (typeof req.deployment === "string") out.push(`  deployment: ${req.deployment} (Azure: it decides which model answers)`);
  if (req.model !== undefined) out.push(`  model:    ${String(req.model)}`);
  // Bedrock keeps its tools in toolConfig.tools: shown as tools, the rest of toolConfig as a param
  const toolConfig = isRec(req.toolConfig) && Array.isArray(req.toolConfig.tools) ? req.toolConfig : undefined;
  const { tools: _configTools, ...configRest } = toolConfig ?? {};
  const params = Object.keys(req).filter((k) => !["model", "deployment", "messages", "prompt", "tools"].includes(k) && !(k === "toolConfig" && toolConfig));
  const shown = params.map((k) => `${k}=${compact(req[k])}`);
  if (toolConfig && Object.keys(configRest).length) shown.push(`toolConfig=${compact(configRest)}`);
  if (shown.length) out.push(`  params:   ${shown.join(", ")}`);
  const tools = [...(Array.isArray(req.tools) ? req.tools : []), ...((toolConfig?.tools as unknown[]) ?? [])].flatMap(toolDefinitions);
  if (Array.isArray(req.tools) || toolConfig) {
    out.push("tools:");
    for (const t of tools) out.push(`  ${t.name}${t.description ? ` — ${firstLine(t.description)}` : ""}`);
  }
  if (typeof req.prompt === "string") out.push("prompt:", indent(req.prompt, "  "));
  if (Array.isArray(req.messages)) {
    out.push("messages:");
    for (const m of req.messages) renderMessage(isRec(m) ? m : {}, out);
  }
}

/**
 * The functions one entry of a request's tools declares, in each provider's shape: `{ name }`
 * (Anthropic, Ollama), `{ function: { name } }` (OpenAI), `{ functionDeclarations: [...] }`
 * (Google), `{ toolSpec: { name } }` (Bedrock); anything else as compact JSON.
 */
function toolDefinitions(t: unknown): { name: string; description?: string }[] {
  if (!isRec(t)) return [{ name: compact(t) }];
  if (Array.isArray(t.functionDeclarations)) return t.functionDeclarations.flatMap(toolDefinitions);
  const def = isRec(t.function) ? t.function : isRec(t.toolSpec) ? t.toolSpec : t;
  if (typeof def.name !== "string") return [{ name: compact(t) }];
  return [{ name: def.name, description: typeof def.description === "string" ? def.description : undefined }];
}

function renderMessage(m: Rec, out: string[]): void {
  const role = String(m.role ?? m.type ?? "?");
  const tags = [m.name ? `name=${String(m.name)}` : "", m.tool_call_id ? `for ${String(m.tool_call_id)}` : "", m.status === "error" ? "error" : ""].filter(
    Boolean,
  );
  const label = `  [${role}${tags.length ? " " + tags.join(" ") : ""}]`;
  out.push(joinText(label, contentText(m.content)));
  for (const c of (Array.isArray(m.tool_calls) ? m.tool_calls : []) as Rec[]) out.push(`    → ${toolCall(c)}`);
}

export function renderGenerations(gens: unknown[], out: string[]): void {
  gens.forEach((raw, i) => {
    const g = isRec(raw) ? raw : {};
    const m = isRec(g.message) ? g.message : undefined;
    const label = gens.length > 1 ? `  #${i + 1} ` : "  ";
    const reasoning = m ? messageReasoning(m) : "";
    // the reasoning blocks have the line below: not a [reasoning] marker too (a stream's answer shows none either)
    const text = m ? contentText(reasoning ? withoutReasoning(m.content) : m.content) : String(g.text ?? "");
    out.push(joinText(`${label}[${m ? roleOf(String(m.type ?? "ai")) : "text"}]`, text));
    out.push(...reasoningLine(reasoning));
    for (const c of (m && Array.isArray(m.tool_calls) ? m.tool_calls : []) as Rec[]) out.push(`    → ${toolCall(c)}`);
    const info = isRec(g.generationInfo) ? g.generationInfo : {};
    const meta = m && isRec(m.response_metadata) ? m.response_metadata : {};
    const finish = finishReason(info, meta);
    const usage = m && isRec(m.usage_metadata) ? usageText(m.usage_metadata) : undefined;
    const facts = [finish !== undefined ? `finish: ${String(finish)}` : "", usage ?? ""].filter(Boolean);
    if (facts.length) out.push(`    (${facts.join("; ")})`);
  });
}

/** A model request's title: its model and the last user text (or the prompt), on one line. */
export function modelTitle(req: Rec): string {
  return question(req, (text, max) => firstLine(text, max));
}

/**
 * What a model request asks, in full: its title's parts (model, last user text or prompt, what
 * came after it) with no text cut. Two requests with the same question are one test's, whatever
 * else changed (a rewritten system prompt; `langchain-vcr diff`).
 */
export function modelQuestion(req: Rec): string {
  return question(req, (text) => text);
}

/** Two model requests (of `kind`) that ask the same question in full (`modelQuestion`); other kinds never. */
export function asksSameQuestion(kind: unknown, a: unknown, b: unknown): boolean {
  return MODEL_KINDS.has(kind) && isRec(a) && isRec(b) && modelQuestion(a) === modelQuestion(b);
}

/**
 * The same turn of the same conversation, whatever the tools answered or the model said on the way: the model, the
 * last user text in full, the answer demanded, and who spoke after that text (an assistant's tool calls by name, each
 * tool message by its tool's name). An agent's second turn, whose tool result changed with the first turn's arguments
 * (trial 52 F6: `diff` listed it as added and removed).
 */
export function asksSameTurn(kind: unknown, a: unknown, b: unknown): boolean {
  if (!MODEL_KINDS.has(kind) || !isRec(a) || !isRec(b)) return false;
  const turn = modelTurn(a);
  return turn !== undefined && turn === modelTurn(b);
}

/** A later turn of an agent (a user's text, then tools answering) as `asksSameTurn` compares it; undefined for any other request. */
function modelTurn(req: Rec): string | undefined {
  const msgs = Array.isArray(req.messages) ? (req.messages as unknown[]).filter(isRec) : [];
  const lastUser = msgs.map((m) => m.role).lastIndexOf("user");
  const after = msgs.slice(lastUser + 1);
  // no user text (a system prompt alone), or no tool answered after it (a plain conversation): not an agent's later turn (review 63)
  if (lastUser < 0 || contentText(msgs[lastUser].content, { digests: false }).trim() === "" || !after.some((m) => m.role === "tool")) return undefined;
  const names = (calls: unknown) => (Array.isArray(calls) ? calls.filter(isRec).map((c) => String(c.name)) : []);
  const who = after.map((m) => `${String(m.role)}(${m.role === "tool" ? String(m.name) : names(m.tool_calls).join(",")})`);
  return JSON.stringify([question({ ...req, messages: msgs.slice(0, lastUser + 1) }, (text) => text), who]);
}

function question(req: Rec, shown: (text: string, max: number) => string): string {
  const msgs = Array.isArray(req.messages) ? (req.messages as unknown[]).filter(isRec) : [];
  const lastUser = [...msgs].reverse().find((m) => m.role === "user") ?? msgs[msgs.length - 1];
  const text = typeof req.prompt === "string" ? req.prompt : lastUser ? contentText(lastUser.content, { digests: false }) : "";
  // an agent's later turn asks the same question: what came after it tells the turns apart
  const last = msgs[msgs.length - 1];
  const after = typeof req.prompt !== "string" && last && last !== lastUser ? ` → ${turnTitle(last, shown)}` : "";
  return `${req.model !== undefined ? String(req.model) + formOf(req) + ": " : ""}${JSON.stringify(shown(text, 60))}${after}${requiredAnswer(req)}`;
}

/**
 * The form a request was keyed in when another form's answer held its plain key (adapters/chat/answeredBy.ts): ` via
 * mistral`, ` via the Responses API`, so that two providers' fixtures of one prompt are told apart where fixtures are listed (`diff`, `prune`).
 */
function formOf(req: Rec): string {
  const api = req.openai_api === "responses" ? "the Responses API" : req.openai_api === "chat_completions" ? "the Chat Completions API" : undefined;
  const via = [typeof req.provider === "string" ? req.provider : undefined, api].filter((v) => v !== undefined);
  return via.length ? ` via ${via.join(", ")}` : "";
}

/**
 * The answer a request demands, which tells a structured-output call from an agent turn that asks
 * the same question: ` (tool_choice: triage)` for a forced tool (OpenAI and Anthropic as the
 * canonical form holds them, Google's `allowedFunctionNames`, Bedrock's `toolChoice.tool`, any tool
 * forced where there is one: Mistral's `toolChoice: "any"`, OpenAI's `"required"`),
 * ` (response_format: ticket)` for a JSON schema (Google's `responseSchema`: `json schema`, it has no
 * name), ` (response_format: json)` for JSON mode.
 */
function requiredAnswer(req: Rec): string {
  const named = (name: unknown, field: string) => (typeof name === "string" && name !== "" ? ` (${field}: ${name})` : "");
  const tc = req.tool_choice;
  if (isRec(tc) && tc.type === "tool") return named(tc.name, "tool_choice"); // canonical/params.ts makes OpenAI's { type: "function" } this
  const config = isRec(req.toolConfig) ? req.toolConfig : {};
  const calling = isRec(config.functionCallingConfig) ? config.functionCallingConfig : {};
  const allowed = Array.isArray(calling.allowedFunctionNames) ? calling.allowedFunctionNames : [];
  if (calling.mode === "ANY" && allowed.length === 1) return named(allowed[0], "tool_choice");
  if (isRec(config.toolChoice) && isRec(config.toolChoice.tool)) return named(config.toolChoice.tool.name, "tool_choice");
  const choice = req.tool_choice ?? req.toolChoice;
  const tools = Array.isArray(req.tools) ? req.tools.filter(isRec) : [];
  if ((choice === "any" || choice === "required") && tools.length === 1) {
    const fn = isRec(tools[0].function) ? tools[0].function : tools[0]; // OpenAI's { type: "function", function: { name } }, or the name on the tool
    return named(fn.name, "tool_choice");
  }
  const rf = req.response_format;
  if (isRec(rf) && rf.type === "json_schema") return named(typeof rf.name === "string" ? rf.name : "json schema", "response_format");
  if (isRec(rf) && rf.type === "json_object") return named("json", "response_format");
  const generation = isRec(req.generationConfig) ? req.generationConfig : {}; // Google's
  if (generation.responseSchema !== undefined || generation.responseJsonSchema !== undefined) return named("json schema", "response_format");
  if (generation.responseMimeType === "application/json") return named("json", "response_format");
  return "";
}

/** The last message of a conversation, briefly: `tool issue_refund: "Refunded $25…"`, `assistant: 1 tool call`. */
function turnTitle(m: Rec, shown: (text: string, max: number) => string): string {
  const text = contentText(m.content, { digests: false });
  const calls = Array.isArray(m.tool_calls) ? m.tool_calls.length : 0;
  const who = m.role === "tool" ? `tool${typeof m.name === "string" ? " " + m.name : ""}` : String(m.role ?? "message");
  if (text.trim() === "" && calls > 0) return `${who}: ${calls} tool call(s)`;
  return `${who}: ${JSON.stringify(shown(text, 40))}`;
}

/**
 * A generation's finish reason, from its info or its message's metadata, in each provider's
 * spelling: OpenAI's `finish_reason`, Ollama's `done_reason`, Anthropic's `stop_reason`,
 * Google's `finishReason`, Bedrock's `stopReason` (and `doneReason`, Ollama's in camel case). The
 * recorder's check that a stream ended reads the same list (adapters/stream/finished.ts).
 */
export const FINISH_REASON_KEYS = ["finish_reason", "done_reason", "stop_reason", "finishReason", "stopReason", "doneReason"] as const;

function finishReason(info: Rec, meta: Rec): unknown {
  for (const k of FINISH_REASON_KEYS) {
    const v = info[k] ?? meta[k];
    if (v !== undefined && v !== null) return v;
  }
  return undefined;
}

function roleOf(type: string): string {
  return type === "ai" || type === "AIMessageChunk" ? "assistant" : type;
}

/** Chat/LLM generations for review (`diff`): each answer's text, tool calls, finish reason and usage; no ids or provider echoes. */
export function reviewGenerations(response: unknown): unknown {
  const gens = isRec(response) && Array.isArray(response.generations) ? response.generations : undefined;
  if (!gens) return response;
  return {
    generations: gens.map((raw) => {
      const g = isRec(raw) ? raw : {};
      const m = isRec(g.message) ? g.message : {};
      const info = isRec(g.generationInfo) ? g.generationInfo : {};
      const meta = isRec(m.response_metadata) ? m.response_metadata : {};
      // the message's text as LangChain reads it: a generation's own `text` can be its first text block only (ChatGoogleGenerativeAI)
      const out: Rec = { text: isRec(g.message) ? messageText(m.content) : g.text };
      // the generation's own text, where it is not the message's (a hand edit of one copy, or a client that keeps only the first block):
      // generate() hands it back, so a change to it is a change a review must see
      // (not an empty one: clients that answer in blocks, Anthropic's with a tool call, leave it empty)
      if (isRec(g.message) && typeof g.text === "string" && g.text !== "" && g.text !== out.text) out.generation_text = g.text;
      const blocks = otherBlockTypes(m.content); // a thinking or tool-use block that comes or goes shows, though it is not the text
      if (blocks.length) out.other_blocks = blocks;
      if (Array.isArray(m.tool_calls) && m.tool_calls.length) out.tool_calls = m.tool_calls.map(reviewedCall);
      const finish = finishReason(info, meta);
      if (finish !== undefined) out.finish_reason = finish;
      if (isRec(m.usage_metadata)) out.usage_metadata = m.usage_metadata;
      return out;
    }),
  };
}
