/** The `embedding` kind: one text's vector through `vcr.embeddings(...)`. */
import { createHash } from "node:crypto";
import { embeddingResponseProblem } from "../adapters/embeddings/vectors";
import { indent, json } from "./text";
import type { KindSpec } from "./types";

const REQUEST_FIELDS = ["provider", "model", "dimensions", "input_type"];

export const embedding: KindSpec = {
  name: "embedding",
  shape: `{ "vector": [numbers] }`,
  responseProblem: embeddingResponseProblem,
  render(req, res, raw, out) {
    for (const k of REQUEST_FIELDS) if (req[k] !== undefined) out.push(`  ${(k + ":").padEnd(9)} ${String(req[k])}`);
    for (const k of Object.keys(req).filter((k) => ![...REQUEST_FIELDS, "text"].includes(k))) out.push(`  ${k}: ${JSON.stringify(req[k])}`);
    if (typeof req.text === "string") out.push("text:", indent(req.text, "  "));
    out.push("answer:");
    const v = res.vector;
    if (Array.isArray(v)) out.push(`  vector of ${vectorSummary(v)}`);
    else if (typeof v === "string") out.push(`  vector as a base64 string of ${v.length} characters`);
    else out.push(indent(json(raw), "  "));
  },
  // a re-embedded text changes most of its numbers: diff shows the vector's size, norm and digest, not its numbers one by one
  review(response) {
    const v = (response as { vector?: unknown } | null)?.vector;
    if (Array.isArray(v)) return { ...(response as object), vector: { numbers: v.length, norm: norm(v).toFixed(4), sha256: digest(v) } };
    if (typeof v === "string") return { ...(response as object), vector: { base64Characters: v.length, sha256: digest(v) } }; // encodingFormat: "base64"
    return response;
  },
  noteNearMiss: false,
  title(req) {
    const text = typeof req.text === "string" ? req.text : "";
    return `${req.model !== undefined ? String(req.model) + ": " : ""}${JSON.stringify(text.length > 60 ? text.slice(0, 57) + "..." : text)}`;
  },
};

/** "1536 numbers [0.01, -0.2, 0.3, 0.04, …], norm 1.0000" */
function vectorSummary(v: readonly unknown[]): string {
  return `${v.length} numbers [${v.slice(0, 4).join(", ")}${v.length > 4 ? ", …" : ""}], norm ${norm(v).toFixed(4)}`;
}

function norm(v: readonly unknown[]): number {
  return Math.sqrt(v.reduce((s: number, x) => s + (typeof x === "number" ? x * x : 0), 0));
}

/** The first 12 hex digits of the vector's sha256: a change anywhere in it shows. */
function digest(v: readonly unknown[] | string): string {
  return createHash("sha256")
    .update(typeof v === "string" ? v : JSON.stringify(v))
    .digest("hex")
    .slice(0, 12);
}
