/**
 * Canned answers for the stand-in provider (examples/provider/server.ts): a lookup table, not
 * a model. Given a chat request body (OpenAI `/v1/chat/completions` or Ollama `/api/chat`
 * shape), `cannedReply` finds the first entry whose `question` matches the text of the last
 * user message and returns the reply that entry scripts for this point of the conversation:
 *
 * - a structured-output request (OpenAI `response_format: json_schema`, a forced tool choice,
 *   Ollama `format`) and the entry has `json` → that object (as JSON text, or as the forced
 *   tool call's arguments);
 * - else, while fewer assistant turns than `toolTurns` follow the question and the request
 *   offers every tool the next turn names → that turn's tool calls (an agent loop: ask the
 *   tools, read their results, answer);
 * - else `answer`, when the entry has one.
 *
 * No entry (or nothing scripted for this case) → `undefined`: the server falls back to its
 * default behaviour (echo). Pure function, no I/O.
 */

export interface CannedToolCall {
  name: string;
  args: Record<string, unknown>;
}

export interface CannedAnswer {
  /** Matched against the text of the last user message: a RegExp, or a case-insensitive substring. */
  question: RegExp | string;
  /** The final text answer. */
  answer?: string;
  /** Tool calls made before answering, one assistant turn each (only when the request offers those tools). */
  toolTurns?: CannedToolCall[][];
  /** The object returned to a structured-output request. */
  json?: Record<string, unknown>;
}

export interface CannedReply {
  content: string;
  toolCalls: CannedToolCall[];
}

/** Text of a message content: a string, or the concatenation of its text blocks. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((block: any) => {
        if (typeof block === "string") return block;
        if (block && typeof block === "object" && typeof block.text === "string") {
          return block.type === undefined || block.type === "text" ? block.text : "";
        }
        return "";
      })
      .join("");
  }
  return "";
}

function matches(question: RegExp | string, text: string): boolean {
  return typeof question === "string" ? text.toLowerCase().includes(question.toLowerCase()) : question.test(text);
}

/** The reply `answers` script for this request, or undefined (see the file comment). */
export function cannedReply(answers: readonly CannedAnswer[], body: any): CannedReply | undefined {
  const messages: any[] = Array.isArray(body?.messages) ? body.messages : [];
  let lastUser = -1;
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    if (messages[i]?.role === "user") {
      lastUser = i;
      break;
    }
  }
  if (lastUser < 0) return undefined;
  const text = contentText(messages[lastUser].content);
  const entry = answers.find((a) => matches(a.question, text));
  if (!entry) return undefined;

  const forced: string | undefined = body?.tool_choice?.type === "function" ? body.tool_choice.function?.name : undefined;
  const structured = body?.response_format?.type === "json_schema" || (body?.format && typeof body.format === "object");
  if (entry.json && forced) return { content: "", toolCalls: [{ name: forced, args: entry.json }] };
  if (entry.json && structured) return { content: JSON.stringify(entry.json), toolCalls: [] };
  if (forced || structured) return undefined;

  const turn = messages.slice(lastUser + 1).filter((m) => m?.role === "assistant").length;
  const offered = new Set<string>((Array.isArray(body?.tools) ? body.tools : []).map((t: any) => t?.function?.name));
  const calls = entry.toolTurns?.[turn];
  if (calls && calls.length > 0 && calls.every((c) => offered.has(c.name))) {
    return { content: "", toolCalls: calls.map((c) => ({ name: c.name, args: { ...c.args } })) };
  }
  return entry.answer === undefined ? undefined : { content: entry.answer, toolCalls: [] };
}
