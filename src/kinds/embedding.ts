/** The `embedding` kind: one text's vector through `vcr.embeddings(...)`. */
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
    if (Array.isArray(v)) {
      const nums = v.filter((x): x is number => typeof x === "number");
      const norm = Math.sqrt(nums.reduce((s, x) => s + x * x, 0));
      out.push(`  vector of ${v.length} numbers [${v.slice(0, 4).join(", ")}${v.length > 4 ? ", …" : ""}], norm ${norm.toFixed(4)}`);
    } else if (typeof v === "string") out.push(`  vector as a base64 string of ${v.length} characters`);
    else out.push(indent(json(raw), "  "));
  },
  noteNearMiss: false,
  title(req) {
    const text = typeof req.text === "string" ? req.text : "";
    return `${req.model !== undefined ? String(req.model) + ": " : ""}${JSON.stringify(text.length > 60 ? text.slice(0, 57) + "..." : text)}`;
  },
};
