/**
 * A long base64 text as a reviewer reads it: its mime type, size and sha256, not its characters.
 * A request's binary input is keyed and stored as its digest already (canonical/content.ts), but a
 * tool's result must keep its bytes to replay them: an image a tool returns is written whole, and
 * `show` printed it as a 25,000-character line, and `diff` two windows of base64 that differ at both
 * ends (a PNG's pixels and its checksums) that no one could read (trial 57 M4).
 */
import { createHash } from "node:crypto";

/** `data:<mime>[;params];base64,<payload>`. */
const DATA_URL = /^data:([\w.+-]+\/[\w.+-]+)?((?:;[\w.+-]+=[^;,]*)*);base64,([A-Za-z0-9+/=\s]*)$/;
/** Standard base64 with its padding: no other text is written this way. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** A data URL's payload at least this long is labelled; a bare base64 text at least this long (shorter ones may be words, ids). */
const DATA_URL_AT_LEAST = 64;
const BASE64_AT_LEAST = 256;

/** The label of a data URL or base64 text long enough to be a file's bytes (`[image/png base64, 19,381 bytes, sha256 a4e2474f09ed]`); undefined for any other text. */
export function binaryLabel(s: string): string | undefined {
  const url = DATA_URL.exec(s);
  if (url && url[3].length >= DATA_URL_AT_LEAST) return label(url[1] ?? "data", url[3].replace(/\s+/g, ""));
  // mixed case and a digit or a symbol, as encoded bytes are: not a run of one letter, not a hex digest
  if (s.length >= BASE64_AT_LEAST && s.length % 4 === 0 && BASE64.test(s) && /[A-Z]/.test(s) && /[a-z]/.test(s) && /[\d+/]/.test(s)) {
    const bytes = Buffer.from(s, "base64");
    if (bytes.toString("base64") === s) return label("base64", s, bytes);
  }
  return undefined;
}

function label(what: string, payload: string, bytes = Buffer.from(payload, "base64")): string {
  const sha = createHash("sha256").update(bytes).digest("hex").slice(0, 12);
  return `[${what === "base64" ? "base64" : `${what} base64`}, ${bytes.length.toLocaleString("en-US")} bytes, sha256 ${sha}]`;
}
