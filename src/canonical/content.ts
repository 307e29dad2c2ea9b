/**
 * Canonical message content: text stays text (after normalizers), binary data becomes
 * its mime type plus the sha256 of its bytes, so two different images are two different
 * requests while the fixture never holds the image itself: a data: URL anywhere, a
 * `Uint8Array` anywhere, the base64 of a binary block (`image`, `file`, `audio`, Google's
 * `media`, Anthropic's `document`, …) at its top level or one level down (Anthropic's
 * `source: {type: "base64", data}`, OpenAI's `input_audio: {data}`). A text source
 * (`{type: "text", media_type: "text/plain", data}`) stays text, and so does a string one level
 * down that is not base64 (a JSON document's source): decoded as base64 anyway, two such texts
 * could share a key.
 *
 * langchain-vcr 0.3.0 digested only a block's top-level data of fewer block types: its fixtures
 * of the others hold the base64 and are keyed by it. `withLegacyBinary` builds a request that
 * way, for a lookup to find them (./legacyBinary.ts).
 */
import { defineMember, sha256Hex } from "./json";
import type { Normalize } from "./normalize";

const DATA_URL = /^data:([^;,]*)(;[^,]*)?,/;
const BINARY_BLOCK_TYPES = new Set(["image", "audio", "video", "file", "input_audio", "input_image", "input_file", "media", "document"]);
/** The block types langchain-vcr 0.3.0 digested (their top-level data only). */
const BINARY_BLOCK_TYPES_0_3 = new Set(["image", "audio", "video", "file", "input_audio", "input_image", "input_file"]);
const BINARY_KEYS = new Set(["data", "base64", "file_data"]);

/** Set while `withLegacyBinary` builds a request the way 0.3.0 did. */
let legacy = false;

/** What `build` returns when content is made canonical as langchain-vcr 0.3.0 did (synchronously). */
export function withLegacyBinary<T>(build: () => T): T {
  legacy = true;
  try {
    return build();
  } finally {
    legacy = false;
  }
}

/** A binary block's member object that holds text, not bytes: Anthropic's plain-text document source. */
function isTextSource(v: Record<string, unknown>): boolean {
  const mime = v.media_type ?? v.mimeType ?? v.mime_type;
  return v.type === "text" || (typeof mime === "string" && mime.startsWith("text/"));
}

/** `{ mime, sha256 }` for a data: URL, else undefined. */
export function digestDataUrl(url: string): { mime: string; sha256: string } | undefined {
  const m = DATA_URL.exec(url);
  if (!m) return undefined;
  const payload = url.slice(m[0].length);
  const isBase64 = (m[2] ?? "").includes(";base64");
  let bytes: Buffer;
  try {
    bytes = isBase64 ? Buffer.from(payload, "base64") : Buffer.from(decodeURIComponent(payload), "utf8");
  } catch {
    bytes = Buffer.from(payload, "utf8"); // malformed percent-encoding: digest it as written
  }
  return { mime: m[1] || "text/plain", sha256: sha256Hex(bytes) };
}

/**
 * Whether `s` is the canonical base64 (line breaks allowed, padding optional) or base64url of some
 * bytes: what a provider takes as bytes. Decoding then encoding gives it back, so two such strings
 * are two byte strings; Buffer's decoder skips any other character (and a last character's spare
 * bits), so text decoded as base64 loses what tells two texts apart.
 */
function isBase64(s: string): boolean {
  const t = /[\r\n]/.test(s) ? s.replace(/\r?\n/g, "") : s;
  const bare = t.replace(/={1,2}$/, "");
  if (/^[A-Za-z0-9+/]*$/.test(bare)) return Buffer.from(bare, "base64").toString("base64").replace(/=+$/, "") === bare;
  return /^[A-Za-z0-9_-]*$/.test(bare) && Buffer.from(bare, "base64url").toString("base64url") === bare;
}

function digestBytes(value: string | Uint8Array): { sha256: string } {
  return { sha256: sha256Hex(typeof value === "string" ? Buffer.from(value, "base64") : value) };
}

export type IdMapper = (id: string) => string;

/** Canonical form of a message's `content` (a string or an array of content blocks). */
export function canonicalContent(content: unknown, normalize: Normalize, ids: IdMapper): unknown {
  if (typeof content === "string") return normalize(content);
  if (Array.isArray(content)) return content.map((b) => canonicalBlock(b, normalize, ids));
  return canonicalValue(content, ids, false, false);
}

function canonicalBlock(block: unknown, normalize: Normalize, ids: IdMapper): unknown {
  if (typeof block === "string") return normalize(block);
  if (block === null || typeof block !== "object") return block;
  const b = block as Record<string, unknown>;
  const out = canonicalValue(b, ids, (legacy ? BINARY_BLOCK_TYPES_0_3 : BINARY_BLOCK_TYPES).has(String(b.type)), false) as Record<string, unknown>;
  if (typeof b.text === "string" && (b.type === "text" || b.type === undefined)) out.text = normalize(b.text);
  return out;
}

/**
 * Deep copy that digests binary payloads and replaces tool-call ids by placeholders. `binaryBlock`:
 * `value` is a binary block (or, `nested`, a member object of one), whose `data`/`base64`/`file_data` are bytes.
 */
function canonicalValue(value: unknown, ids: IdMapper, binaryBlock: boolean, nested: boolean): unknown {
  if (typeof value === "string") return value.startsWith("data:") ? (digestDataUrl(value) ?? value) : value;
  if (value instanceof Uint8Array) return digestBytes(value);
  if (Array.isArray(value)) return value.map((v) => canonicalValue(v, ids, false, false));
  if (value === null || typeof value !== "object") return value;
  // a Date (or anything with toJSON) is keyed by what the provider receives, never as {}
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return canonicalValue((value as { toJSON(): unknown }).toJSON(), ids, binaryBlock, nested);
  const src = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const toolish = src.type === "tool_use" || src.type === "tool_call" || src.type === "function_call";
  for (const [k, v] of Object.entries(src)) {
    if (v === undefined) continue;
    // bytes: at a block's top level any string (as 0.3.0 keyed it), one level down only base64 (else it is text)
    if (binaryBlock && BINARY_KEYS.has(k) && (v instanceof Uint8Array || (typeof v === "string" && (!nested || v.startsWith("data:") || isBase64(v))))) {
      defineMember(out, k, typeof v === "string" && v.startsWith("data:") ? digestDataUrl(v) : digestBytes(v as string | Uint8Array));
    } else if (k === "text" && typeof v === "string") {
      defineMember(out, k, v); // text is text, even when it starts with "data:" (normalized by the caller)
    } else if ((toolish && k === "id") || k === "tool_use_id" || k === "tool_call_id" || k === "call_id") {
      defineMember(out, k, typeof v === "string" ? ids(v) : v);
    } else {
      // one level down in a binary block: its source's or its audio's base64 (not a text source's text)
      const source = binaryBlock && !legacy && !Array.isArray(v) && v !== null && typeof v === "object" && !isTextSource(v as Record<string, unknown>);
      defineMember(out, k, canonicalValue(v, ids, source, source));
    }
  }
  return out;
}
