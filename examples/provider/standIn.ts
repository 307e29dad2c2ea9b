/**
 * Starts the stand-in provider the way the examples use it: the loopback server of
 * ./server.ts with the examples' canned answers (./answers.ts) and bag-of-words embeddings
 * (./vectors.ts, 32 dimensions). Deterministic, offline, keyless — and not a model.
 */
import { EXAMPLE_ANSWERS } from "./answers";
import { startFakeProvider, type FakeProvider } from "./server";
import { wordVector } from "./vectors";

export type StandIn = FakeProvider;

export function startStandIn(options: { latencyMs?: number } = {}): Promise<StandIn> {
  return startFakeProvider({
    latencyMs: options.latencyMs ?? 0,
    answers: EXAMPLE_ANSWERS,
    vector: wordVector,
    dims: 32,
    unref: true,
  });
}
