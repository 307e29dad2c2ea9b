/**
 * One streamed call of a model whose cache is a `VcrCache`, in place of the provider's
 * `_streamResponseChunks` generator. It looks the `chat_stream` request up (a `replay_only`
 * miss throws before any chunk):
 * - hit: yields the recorded chunks, rebuilt, and after each one makes the
 *   `handleLLMNewToken(token, idx, ..., { chunk })` call the provider made for it (if it
 *   made one; always after the yield, as ChatOpenAI and ChatOllama do), or the
 *   `handleLLMNewToken(token)` with no chunk it made (ChatGoogleGenerativeAI);
 * - miss: runs the provider's generator, yields its chunks as they come, and writes the
 *   fixture only when that generator has finished and the call was not aborted. An error,
 *   an abort, or a consumer that stops early (`break`, `return()`, an iterator let go)
 *   writes nothing.
 */
import { chatRequest, type ModelLike } from "../../canonical/chat";
import { assertReplayable } from "../../kinds/damaged";
import type { Lookup, Recorder } from "../../recorder";
import type { Normalize } from "../../canonical/normalize";
import { callSecrets } from "../../clientSecrets";
import { describeModel } from "../chat/cache";
import { vcrCacheOf } from "../chat/vcrCacheOf";
import { loadChunk, type ChunkClasses, type GenerationChunkLike, type StreamResponse } from "./chunks";
import { TokenNotes } from "./tokenNotes";
import { watchNewTokens, type RunManagerLike } from "./tokens";

export type StreamChunks = (this: unknown, messages: unknown[], options: unknown, runManager?: unknown) => AsyncIterable<GenerationChunkLike>;

/** The parts of a chat model the stream adapter reads. */
export interface StreamModel extends ModelLike {
  cache?: unknown;
  disableStreaming?: boolean;
  callbacks?: unknown;
  [key: string]: unknown;
}

interface VcrParts {
  recorder: Recorder;
  normalize: Normalize;
}

interface CallOptionsLike {
  signal?: AbortSignal;
}

export async function* vcrStream(
  classes: ChunkClasses,
  model: StreamModel,
  original: StreamChunks,
  messages: unknown[],
  options: unknown,
  runManager: RunManagerLike | undefined,
): AsyncGenerator<GenerationChunkLike> {
  const { recorder, normalize } = vcrCacheOf(model) as VcrParts;
  const request = chatRequest(model, messages, options, normalize);
  const lookup = await recorder.lookup("chat_stream", request, { describe: describe(model, request) });
  const signal = (options as CallOptionsLike | undefined)?.signal;
  if (lookup.fixture) {
    yield* replay(classes, lookup, runManager, signal);
    return;
  }
  // Release the request at once: a consumer may drop a stream half-way without closing it
  // (an abort races `next()`; a hand-driven iterator is let go), and nothing may wait on it.
  // Identical streams running at the same time each call the provider; the first to
  // finish is written (`record_or_replay` never replaces a fixture).
  recorder.abandon(lookup);
  const notes = new TokenNotes();
  const watched = watchNewTokens(runManager, (text, idx, chunk) => notes.note(text, idx, chunk));
  try {
    for await (const chunk of original.call(model, messages, options, watched)) {
      notes.add(chunk);
      yield chunk;
    }
  } catch (e) {
    if (!signal?.aborted) recorder.liveFailed(lookup, e); // a miss that went live says so on the provider's error
    throw e;
  }
  // Only a generator that ran to its end gets here: an error, a `break` or `return()` never does.
  if (signal?.aborted) return;
  const response: StreamResponse = { chunks: notes.recorded };
  recorder.record(lookup, response, await callSecrets(model));
}

async function* replay(
  classes: ChunkClasses,
  lookup: Lookup,
  runManager: RunManagerLike | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<GenerationChunkLike> {
  const fixture = lookup.fixture!;
  assertReplayable(lookup);
  for (const stored of (fixture.response as StreamResponse).chunks) {
    signal?.throwIfAborted();
    const chunk = loadChunk(stored, classes);
    yield chunk;
    const token = stored.newToken;
    if (token) {
      const text = token.token ?? chunk.text ?? "";
      if (token.bare) await runManager?.handleLLMNewToken?.(text, token.idx);
      else await runManager?.handleLLMNewToken?.(text, token.idx, undefined, undefined, undefined, { chunk });
    }
  }
}

function describe(model: StreamModel, request: Record<string, unknown>): string {
  return `${describeModel(model, request)}, streamed`;
}
