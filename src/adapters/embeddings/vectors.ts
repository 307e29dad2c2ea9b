/**
 * Vectors in and out of fixtures. A fixture's response is `{ vector: number[] }`; JSON keeps
 * every finite double exactly (shortest round-trip form), so replay is bit-exact. A string
 * vector is valid only when the request asks for base64 text (OpenAI `encodingFormat:
 * "base64"` hands the caller base64 text), and is then kept as is. Recording and replay judge
 * a vector by the same rule (`vectorProblem`): what cannot round-trip (NaN, Infinity,
 * non-numbers, a string nobody asked for) is refused when recording, and a fixture whose
 * vector is damaged is a `VcrFixtureError` (src/kinds/damaged.ts), never a silent miss or a silently wrong value.
 */
import { VcrRecordError } from "../../errors";
import type { Fixture } from "../../store/fixture";
import { truncateText, type EmbeddingRequest } from "./request";

export type Vector = number[] | string;

export interface EmbeddingResponse {
  vector: Vector;
}

/** True when the request asks for base64 text vectors: an output option (e.g. `encodingFormat`) is or holds "base64". */
function asksForText(request: unknown): boolean {
  const options = request !== null && typeof request === "object" ? (request as { options?: unknown }).options : undefined;
  if (options === null || typeof options !== "object") return false;
  return Object.values(options).some((v) => v === "base64" || (Array.isArray(v) && v.includes("base64")));
}

/** Why `v` is not a storable vector for `request`, or undefined when it is. */
export function vectorProblem(v: unknown, request: unknown): string | undefined {
  if (typeof v === "string") {
    return asksForText(request) ? undefined : `is a string, but the request does not ask for base64 vectors (no "base64" in request.options)`;
  }
  if (!Array.isArray(v)) return `is ${v === null ? "null" : typeof v}, not an array of numbers`;
  for (let i = 0; i < v.length; i++) {
    const x = v[i];
    if (typeof x !== "number") return `holds ${JSON.stringify(x) ?? typeof x} at index ${i}, not a number`;
    if (!Number.isFinite(x)) return `holds ${x} at index ${i}, which JSON cannot store`;
  }
  return undefined;
}

/** The response to record for one live vector (a copy: the caller keeps the original). */
export function recordableResponse(vector: unknown, text: string, describe: string, request: EmbeddingRequest): EmbeddingResponse {
  const problem = vectorProblem(vector, request);
  if (problem) {
    throw new VcrRecordError(
      `the embedding returned by ${describe} ${problem}; it cannot be recorded.\n` +
        `  text: ${truncateText(text)}\n` +
        `  Nothing was written and the call failed. Check the wrapped Embeddings: it must return arrays of finite numbers (or base64 strings, when asked for).`,
    );
  }
  return { vector: copy(vector as Vector) };
}

/** What is wrong with an embedding fixture's response (the `embedding` kind's rule), or undefined. */
export function embeddingResponseProblem(response: unknown, request: unknown): string | undefined {
  const vector = response !== null && typeof response === "object" ? (response as Partial<EmbeddingResponse>).vector : undefined;
  if (vector === undefined) return `has no "response.vector"`;
  const found = vectorProblem(vector, request);
  return found && `has a "response.vector" that ${found}`;
}

/** The vector of a hit the caller has checked (`embeddingResponseProblem`): a fresh copy, so callers never share one array. */
export function replayVector(fixture: Fixture): Vector {
  return copy((fixture.response as EmbeddingResponse).vector);
}

function copy(v: Vector): Vector {
  return typeof v === "string" ? v : v.slice();
}
