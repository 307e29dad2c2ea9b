/**
 * One moderation request, recorded and replayed like any other kind: the canonical request
 * (the moderation model and the input, text normalized, binary data digested), looked up; a hit
 * answers with the recorded body, a miss that may record asks the provider and writes its
 * answer. The HTTP side (what the SDK client sent, the `Response` it gets back) is ./fetch.ts's.
 */
import { canonicalContent } from "../../canonical/content";
import type { Normalize } from "../../canonical/normalize";
import type { Lookup, Recorder } from "../../recorder";
import { assertReplayable } from "../../kinds/damaged";

/** What the SDK client sent: the body of `POST …/moderations`. */
export interface ModerationBody {
  input: unknown;
  model?: unknown;
}

/** The answer a caller gets: the provider's JSON body, or its own non-OK response untouched. */
export type ModerationAnswer = { body: unknown } | { passThrough: Response };

function moderationRequest(body: ModerationBody, normalize: Normalize): Record<string, unknown> {
  const request: Record<string, unknown> = { input: canonicalContent(body.input, normalize, (id) => id) };
  if (body.model !== undefined && body.model !== null) request.model = body.model;
  return request;
}

function describeModeration(request: Record<string, unknown>): string {
  return `OpenAI's moderation endpoint (model ${JSON.stringify(request.model ?? "default")})`;
}

/**
 * `live()` sends the request to the provider. A `replay_only` miss throws the VcrMissError
 * before anything is sent; a provider error or a non-OK answer records nothing.
 */
export async function moderate(
  recorder: Recorder,
  normalize: Normalize,
  body: ModerationBody,
  live: () => Promise<Response>,
  secrets: readonly string[],
): Promise<ModerationAnswer> {
  const request = moderationRequest(body, normalize);
  const lookup: Lookup = await recorder.lookup("moderation", request, { describe: describeModeration(request), secrets: () => secrets });
  if (lookup.fixture) {
    assertReplayable(lookup);
    return { body: lookup.fixture.response }; // serialized into the Response at once (./fetch.ts): never handed out as an object
  }
  let response: Response;
  let answer: unknown;
  try {
    response = await live();
    if (!response.ok) {
      // the provider's own error reaches the caller unchanged (the SDK builds its error from it); counted as a miss that failed live
      recorder.liveFailed(lookup, new Error(`the moderation endpoint answered HTTP ${response.status}`), { note: false });
      return { passThrough: response };
    }
    answer = await response.json();
  } catch (e) {
    recorder.liveFailed(lookup, e);
    throw e;
  }
  recorder.record(lookup, answer, secrets);
  return { body: answer };
}
