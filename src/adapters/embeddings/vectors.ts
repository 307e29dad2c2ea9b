/**
 * Vectors in and out of fixtures. A fixture's response is `{ vector: number[] }`; JSON keeps
 * every finite double exactly (shortest round-trip form), so replay is bit-exact. A string
 * vector (OpenAI `encodingFormat: "base64"` hands the caller base64 text) is kept as is.
 * What cannot round-trip (NaN, Infinity, non-numbers) is refused when recording, and a
 * fixture whose vector is damaged is a `VcrFixtureError`, never a silent miss.
 */
import { VcrFixtureError, VcrRecordError } from "../../errors";
import type { Fixture } from "../../store/fixture";
import { truncateText } from "./request";

export type Vector = number[] | string;

export interface EmbeddingResponse {
  vector: Vector;
}

/** Why `v` is not a storable vector, or undefined when it is. */
function vectorProblem(v: unknown): string | undefined {
  if (typeof v === "string") return undefined;
  if (!Array.isArray(v)) return `is ${v === null ? "null" : typeof v}, not an array of numbers`;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== "number") return `holds ${JSON.stringify(x) ?? typeof x} at index ${i}, not a number`;
    if (!Number.isFinite(x)) return `holds ${x} at index ${i}, which JSON cannot store`;
  }
  return undefined;
}

/** The response to record for one live vector (a copy: the caller keeps the original). */
export function recordableResponse(vector: unknown, text: string, describe: string): EmbeddingResponse {
  const problem = vectorProblem(vector);
  if (problem) {
    throw new VcrRecordError(
      `langchain-vcr: the embedding returned by ${describe} ${problem}; it cannot be recorded.\n` +
        `  text: ${truncateText(text)}\n` +
        `  Nothing was written and the call failed. Check the wrapped Embeddings: it must return arrays of finite numbers.`,
    );
  }
  return { vector: copy(vector as Vector) };
}

/** The vector a hit replays (a fresh copy, so callers never share one array). */
export function replayVector(fixture: Fixture, file: string): Vector {
  const response = fixture.response as Partial<EmbeddingResponse> | null;
  const vector = response !== null && typeof response === "object" ? response.vector : undefined;
  const problem = vector === undefined ? "has no response.vector" : vectorProblem(vector) && `has a response.vector that ${vectorProblem(vector)}`;
  if (problem) {
    throw new VcrFixtureError(
      `langchain-vcr: embedding fixture ${file} ${problem}.\n` +
        `  hash: ${fixture.hash}\n` +
        `  A fixture's response must be { "vector": [numbers] }. Was it edited by hand or by a redactor?\n` +
        `  Fix it: delete the file and re-record with LANGCHAIN_VCR_MODE=record_or_replay npm test, or run \`npx langchain-vcr validate\`.`,
      file,
    );
  }
  return copy(vector as Vector);
}

function copy(v: Vector): Vector {
  return typeof v === "string" ? v : v.slice();
}
