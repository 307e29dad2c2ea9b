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
 *   writes nothing; a `break` or `return()` that reaches this generator also warns, since the
 *   request then misses under `replay_only` in every run.
 */
import { chatRequest, type ModelLike } from "../../canonical/chat";
import { assertReplayable } from "../../kinds/damaged";
import type { Lookup, Recorder } from "../../recorder";
import type { Normalize } from "../../canonical/normalize";
import { callSecrets, clientSecrets } from "../../clientSecrets";
import { describeModel } from "../chat/cache";
import { vcrCacheOf } from "../chat/vcrCacheOf";
import { answerNumber, inGraphNode } from "../chat/answerIds";
import { loadChunk, type ChunkClasses, type GenerationChunkLike, type StreamResponse } from "./chunks";
import { TokenNotes } from "./tokenNotes";
import { cutStreamWarning } from "./finished";
import { watchNewTokens, type RunManagerLike } from "./tokens";
import { currentTest } from "../../scope";
import { log } from "../../log";
import { processWide } from "../../processWide";
import { alikeRequests } from "../../canonical/legacyBinary";
import { ownFormRequest } from "../chat/answeredBy";

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
  // a stream whose signal is already aborted fails as the live one does, replayed or not, and is never sent to be recorded
  (options as CallOptionsLike | undefined)?.signal?.throwIfAborted();
  const request = chatRequest(model, messages, options, normalize);
  const lookup = await recorder.lookup("chat_stream", request, {
    describe: describe(model, request),
    secrets: () => clientSecrets(model),
    alternate: (fixture, req) => ownFormRequest(model, options, fixture, req),
    alike: (req) => alikeRequests(model, req, () => chatRequest(model, messages, options, normalize)),
  });
  const signal = (options as CallOptionsLike | undefined)?.signal;
  if (lookup.fixture) {
    yield* replay(classes, lookup, runManager, signal);
    return;
  }
  // Release the request at once: a consumer may drop a stream half-way without closing it
  // (an abort races `next()`; a hand-driven iterator is let go), and nothing may wait on it.
  // Identical streams running at the same time each call the provider; the first to
  // finish is written (`record_or_replay` never replaces a fixture). The running test still
  // knows the call is in flight until it ends (a test that times out mid-stream is told which).
  recorder.release(lookup);
  const notes = new TokenNotes();
  const watched = watchNewTokens(runManager, (text, idx, chunk) => notes.note(text, idx, chunk));
  let settled = false; // the provider's generator ended or threw: not a consumer that stopped reading
  try {
    for await (const chunk of original.call(model, messages, options, watched)) {
      notes.add(chunk);
      yield chunk;
    }
    settled = true;
  } catch (e) {
    settled = true;
    if (!signal?.aborted)
      recorder.liveFailed(lookup, e); // a miss that went live says so on the provider's error
    else recorder.abandon(lookup);
    throw e;
  } finally {
    // `break` / `return()` on the stream: the yield above returned, and nothing will be written
    if (!settled) {
      recorder.abandon(lookup);
      if (!signal?.aborted && lookup.policy.writes !== "never") warnStoppedEarly(lookup, describeModel(model, request));
    }
  }
  // Only a generator that ran to its end gets here: an error, a `break` or `return()` never does.
  if (signal?.aborted) {
    recorder.abandon(lookup);
    return;
  }
  const response: StreamResponse = { chunks: notes.recorded };
  answerNumber(lookup.file, inGraphNode({ metadata: runManager?.metadata })); // the live stream is this fixture's first answer in the test
  const written = recorder.record(lookup, response, await callSecrets(model));
  const cut = written && cutStreamWarning(response.chunks, describeModel(model, request), lookup.file); // bypass writes nothing: undefined
  if (cut) log.warn(cut);
}

async function* replay(
  classes: ChunkClasses,
  lookup: Lookup,
  runManager: RunManagerLike | undefined,
  signal: AbortSignal | undefined,
): AsyncGenerator<GenerationChunkLike> {
  const fixture = lookup.fixture!;
  assertReplayable(lookup);
  const answer = answerNumber(lookup.file, inGraphNode({ metadata: runManager?.metadata }));
  for (const stored of (fixture.response as StreamResponse).chunks) {
    signal?.throwIfAborted();
    const chunk = loadChunk(stored, classes, answer);
    yield chunk;
    const token = stored.newToken;
    if (token) {
      const text = token.token ?? chunk.text ?? "";
      if (token.bare) await runManager?.handleLLMNewToken?.(text, token.idx);
      else await runManager?.handleLLMNewToken?.(text, token.idx, undefined, undefined, undefined, { chunk });
    }
  }
}

/**
 * A stream its caller stopped reading records nothing, so the same request misses again under
 * `replay_only` in every run: said once per request and process, as the stream is let go.
 */
function warnStoppedEarly(lookup: Lookup, what: string): void {
  if (warnedEarly.has(lookup.hash)) return;
  warnedEarly.add(lookup.hash);
  const test = currentTest()?.title;
  log.warn(
    [
      `the stream from ${what} was stopped by its caller before its end (a break or return() on it), so nothing was recorded for it.`,
      ...(test ? [`  test:     ${test}`] : []),
      `  hash:     ${lookup.hash}`,
      `  A stream is written only once it has been read to its end: under replay_only (CI=true) this request misses in every run.`,
      `  Fix: read the stream to its end in the test that records it (collect every chunk, then check the first ones).`,
    ].join("\n"),
  );
}

const warnedEarly = processWide("streamStoppedEarly.v1", () => new Set<string>());

function describe(model: StreamModel, request: Record<string, unknown>): string {
  return `${describeModel(model, request)}, streamed`;
}
