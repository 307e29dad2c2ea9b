/** Small text helpers shared by the kinds' renders (`show`) and `diff`. */
import type { Rec } from "./types";
import { binaryLabel } from "./binaryText";

export function isRec(v: unknown): v is Rec {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A string field of a request's message `index` (its `role`, a tool message's `name`), if it has one. */
export function messageField(request: unknown, index: number, field: string): string | undefined {
  const m = isRec(request) && Array.isArray(request.messages) ? (request.messages[index] as unknown) : undefined;
  const value = isRec(m) ? m[field] : undefined;
  return typeof value === "string" ? value : undefined;
}

/**
 * Message content as text: strings as is, text blocks joined, other blocks named (`text [tool_use] text`).
 * `digests`: a file block's marker names its sha256 (show); without it (a request's title, which
 * pairs a changed fixture with its old self in `diff`), a replaced image is the same question.
 */
export function contentText(content: unknown, { digests = true }: { digests?: boolean } = {}): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return content === undefined ? "" : compact(content);
  let out = "";
  let afterMarker = false;
  for (const b of content) {
    const text = typeof b === "string" ? b : isRec(b) && typeof b.text === "string" ? b.text : undefined;
    const piece = text ?? (isRec(b) ? blockMarker(b, digests) : compact(b));
    // text pieces run on (a reply split into blocks); a marker stands apart from its neighbours
    if (piece === "") continue; // an empty text block: what stands apart stays apart
    if (out !== "" && (text === undefined || afterMarker)) out += " ";
    out += piece;
    afterMarker = text === undefined;
  }
  return out;
}

/** A non-text block by its type, and what names its file where the block (or a member of it: a source, an image_url, a digest) has it: mime type, a short sha256, a URL. */
function blockMarker(b: Rec, digests: boolean): string {
  const found = { mime: undefined as string | undefined, sha256: undefined as string | undefined, url: undefined as string | undefined };
  const look = (r: Rec, depth: number): void => {
    for (const [k, v] of Object.entries(r)) {
      if (typeof v === "string") {
        if (MIME_KEYS.has(k)) found.mime ??= v;
        else if (k === "sha256" && digests) found.sha256 ??= v.slice(0, 12);
        else if (k === "url" && !v.startsWith("data:")) found.url ??= v;
      } else if (isRec(v) && depth < 2) look(v, depth + 1);
    }
  };
  look(b, 0);
  const detail = [found.mime, found.sha256 && `sha256 ${found.sha256}`, found.url].filter((x) => typeof x === "string");
  const cached = isRec(b.cache_control) ? " cache_control" : "";
  return `[${String(b.type ?? "block")}${detail.length ? " " + detail.join(" ") : ""}${cached}]`;
}

const MIME_KEYS: ReadonlySet<string> = new Set(["mime_type", "mimeType", "media_type", "mime"]);

/** The reasoning a message's blocks hold, joined: OpenAI's `reasoning` blocks, Anthropic's `thinking` ones. */
export function reasoningText(content: unknown): string {
  return Array.isArray(content) ? content.map((b) => blockReasoning(b) ?? "").join("") : "";
}

/** A block list without the blocks `reasoningText` reads (anything else as it is). */
export function withoutReasoning(content: unknown): unknown {
  return Array.isArray(content) ? content.filter((b) => blockReasoning(b) === undefined) : content;
}

/** The reasoning one block holds (an OpenAI `reasoning` block, an Anthropic `thinking` one), or undefined for another block. */
function blockReasoning(b: unknown): string | undefined {
  if (!isRec(b)) return undefined;
  if (b.type === "reasoning" && typeof b.reasoning === "string") return b.reasoning;
  if (b.type === "thinking" && typeof b.thinking === "string") return b.thinking;
  return undefined;
}

/** A message's reasoning: its blocks' (`reasoningText`), or the `reasoning_content` DeepSeek's and xAI's clients keep in `additional_kwargs`. */
export function messageReasoning(m: Record<string, unknown>): string {
  const kwargs = isRec(m.additional_kwargs) ? m.additional_kwargs : {};
  return reasoningText(m.content) + (typeof kwargs.reasoning_content === "string" ? kwargs.reasoning_content : "");
}

/** `show`'s line for an answer's reasoning, none when it has none. */
export function reasoningLine(text: string): string[] {
  return text.trim() === "" ? [] : [`    (reasoning: ${JSON.stringify(firstLine(text.trim().replace(/\s+/g, " "), 200))})`];
}

/**
 * A message's text as LangChain's `message.text` gives it: a string as is, of a block list only
 * the `text` blocks (and a stream's `text_delta`s), joined. `contentText` is for showing a
 * message whole; this is its answer.
 */
export function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b) => (isTextBlock(b) && typeof b.text === "string" ? b.text : "")).join("");
}

/** The types of a block list's blocks that are not text, in order (none for a string). */
export function otherBlockTypes(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content.filter((b) => !isTextBlock(b)).map((b) => (isRec(b) ? String(b.type ?? "block") : typeof b));
}

function isTextBlock(b: unknown): b is Rec {
  return isRec(b) && (b.type === "text" || b.type === "text_delta");
}

/** One-line JSON, vectors summarized, at most 200 characters. */
export function compact(v: unknown): string {
  const s = JSON.stringify(v, summarizeVectors) ?? String(v);
  return s.length > 200 ? s.slice(0, 197) + "..." : s;
}

/** Indented JSON, vectors summarized. */
export function json(v: unknown): string {
  return JSON.stringify(v, summarizeVectors, 2) ?? String(v);
}

/** A long vector as its length and first numbers, a file's bytes as base64 as their size and digest (`binaryLabel`). */
function summarizeVectors(_key: string, value: unknown): unknown {
  if (Array.isArray(value) && value.length > 8 && value.every((x) => typeof x === "number")) {
    return `[${value.length} numbers: ${value.slice(0, 3).join(", ")}, …]`;
  }
  if (typeof value === "string") return binaryLabel(value) ?? value;
  return value;
}

export function firstLine(s: string, max = 100): string {
  const line = s.split("\n")[0];
  return line.length > max ? line.slice(0, max - 3) + "..." : line;
}

export function indent(text: string, by: string): string {
  return text
    .split("\n")
    .map((l) => by + l)
    .join("\n");
}

/** A label and its text: on one line, or the text indented below when it has several lines. */
export function joinText(label: string, text: string): string {
  if (text === "") return label;
  return text.includes("\n") ? `${label}\n${indent(text, "    ")}` : `${label} ${text}`;
}

export function toolCall(c: Rec): string {
  const args = typeof c.args === "string" ? c.args : JSON.stringify(c.args ?? {});
  return `${String(c.name ?? "?")}(${args})${c.id ? ` [${String(c.id)}]` : ""}`;
}

export function usageText(u: Rec): string | undefined {
  if (u.input_tokens === undefined && u.output_tokens === undefined) return undefined;
  return `tokens: ${String(u.input_tokens ?? "?")} in, ${String(u.output_tokens ?? "?")} out`;
}
