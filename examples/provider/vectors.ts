/**
 * Bag-of-words vectors for the stand-in provider's embeddings: each word (lower-cased, common
 * stop words dropped, a trailing plural "s" removed) is hashed to one dimension, counts are
 * summed and the vector is scaled to length 1. Texts that share words get similar vectors, so
 * retrieval in the examples finds the document a human would — unlike the default sha256
 * noise vectors. Still a stand-in, not a language model: "refund" and "money back" are
 * unrelated here. Every value is Float32-exact (Math.fround), so OpenAI's base64 Float32
 * transport round-trips it losslessly.
 */
import { createHash } from "node:crypto";

const STOP_WORDS = new Set(
  "a an and are as at be by can do does for from how i in is it my of on or our the this to we what when which who why with you your".split(" "),
);

function words(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP_WORDS.has(w)).map((w) => (w.length > 3 && w.endsWith("s") ? w.slice(0, -1) : w));
}

export function wordVector(text: string, dims: number): number[] {
  const v = new Array<number>(dims).fill(0);
  for (const w of words(text)) {
    const digest = createHash("sha256").update(w).digest();
    v[digest.readUInt32LE(0) % dims] += 1;
  }
  const norm = Math.sqrt(v.reduce((n, x) => n + x * x, 0));
  return v.map((x) => Math.fround(norm === 0 ? 0 : x / norm));
}
