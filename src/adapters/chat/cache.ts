/**
 * `VcrCache`: the LangChain `BaseCache` users pass as `cache:` to any chat model or LLM.
 * Lookups key on the full request captured by the `generate()` patch (see `patch.ts`).
 */
import { BaseCache } from "@langchain/core/caches";
import type { Generation } from "@langchain/core/outputs";
import { chatParts, llmParts, requestOf, type CallParts } from "../../canonical/chat";
import type { RequestParts } from "../../canonical/hashMemo";
import type { Normalize } from "../../canonical/normalize";
import { VcrConfigError } from "../../errors";
import type { Lookup, Recorder } from "../../recorder";
import { modelCallForKey, type ModelCall } from "./call";
import { assertReplayable } from "../../kinds/damaged";
import { loadGenerations, storeGenerations } from "./generations";
import { brandVcrCache } from "./vcrCacheOf";
import { callSecrets, clientSecrets } from "../../clientSecrets";
import { isSharedFixture } from "../../store/store";
import { alikeRequests } from "../../canonical/legacyBinary";
import { ownFormRequest } from "./answeredBy";
import { requireMadeByVcr } from "../madeByVcr";
import { answerNumber } from "./answerIds";

export class VcrCache extends BaseCache<Generation[]> {
  constructor(
    /** @internal read by the stream adapter (src/adapters/stream), which records through the same recorder. */
    readonly recorder: Recorder,
    /** @internal */
    readonly normalize: Normalize,
  ) {
    super();
    requireMadeByVcr("VcrCache", recorder, normalize);
    brandVcrCache(this);
  }

  async lookup(prompt: string, llmKey: string): Promise<Generation[] | null> {
    const call = requireCall(llmKey);
    const entry = call.claimForLookup(prompt);
    const signal = (call.options() as { signal?: AbortSignal } | undefined)?.signal;
    // a call whose signal is already aborted fails as the live one does (every client checks it first), replayed or not
    signal?.throwIfAborted();
    const model = call.model;
    const parts = partsOf(call, entry.input, this.normalize);
    // core's prompt string (lossy: no images, no tool-call ids) only narrows where a remembered hash is looked for
    const source: RequestParts<CallParts> = { key: prompt, parts, build: (p) => requestOf(model, p) };
    const found = this.recorder.findParts(call.kind, source, {
      describe: (request) => describeModel(model, request as Record<string, unknown>),
      secrets: () => clientSecrets(model),
      owner: call,
      borrow: true,
      alternate: (fixture, request) => ownFormRequest(model, call.options(), fixture, request),
      alike: (request) => alikeRequests(model, request, () => requestOf(model, partsOf(call, entry.input, this.normalize))),
      signal,
    });
    const lookup = found instanceof Promise ? await found : found; // a hit takes no extra microtask turn
    entry.lookup = lookup;
    if (lookup.fixture) {
      entry.updated = true;
      assertReplayable(lookup);
      const generations = loadGenerations(lookup.fixture.response, {
        shared: isSharedFixture(lookup.fixture),
        answer: answerNumber(lookup.file, call.inGraph),
      });
      call.replayed(entry, generations);
      return generations as Generation[];
    }
    call.missed(entry);
    return null;
  }

  async update(prompt: string, llmKey: string, value: Generation[]): Promise<void> {
    const call = requireCall(llmKey);
    const entry = call.claimForUpdate(prompt);
    if (!entry?.lookup) return;
    // an aborted call can still resolve (ChatOllama ends its stream early and answers ""): never record it
    if ((call.options() as { signal?: AbortSignal } | undefined)?.signal?.aborted) return;
    entry.updated = true;
    const secrets = await callSecrets(call.model);
    answerNumber(entry.lookup.file, call.inGraph); // the live answer is this fixture's first in the test: a caller that shared the call gets the next id
    this.recorder.record(entry.lookup, storeGenerations(value as Parameters<typeof storeGenerations>[0]), secrets);
  }

  /**
   * Called by the patch when a looked-up request never reached `update`: the call failed
   * (`error`) or its answer was not recorded (an aborted call's).
   */
  release(lookup: Lookup, error?: { thrown: unknown; note: boolean }): void {
    if (error) this.recorder.liveFailed(lookup, error.thrown, { note: error.note });
    else this.recorder.abandon(lookup);
  }
}

/** The canonical parts of a call's input: a chat model's messages or an LLM's prompt. */
function partsOf(call: ModelCall, input: unknown, normalize: Normalize): CallParts {
  return call.kind === "chat"
    ? chatParts(call.model, input as unknown[], call.options(), normalize)
    : llmParts(call.model, input as string, call.options(), normalize);
}

function requireCall(llmKey: string): ModelCall {
  const call = modelCallForKey(llmKey);
  if (call) return call;
  throw new VcrConfigError(
    "VcrCache was called by a model whose copy of @langchain/core langchain-vcr has not patched.\n" +
      "  This happens when a test loads LangChain as ESM but langchain-vcr through require() (or the reverse),\n" +
      "  or when the project has two installed copies of @langchain/core, or two installed copies of langchain-vcr (the one\n" +
      "  that loaded first patched core, and this Vcr belongs to the other), or when code calls vcr.cache.lookup() itself\n" +
      "  (the cache only answers the generate() of a model it was passed to as `cache:`).\n" +
      "  Fix it: import langchain-vcr the same way you import @langchain/*, and run `npm ls @langchain/core langchain-vcr` to check for duplicates\n" +
      "  (`npm dedupe` leaves one copy of each).",
  );
}

/** How a miss message names a chat model: its class and, when known, its model name (Azure: its deployment first). */
export function describeModel(model: object, request: Record<string, unknown>): string {
  const cls = modelClassName(model);
  const named = [
    typeof request.deployment === "string" ? `deployment ${JSON.stringify(request.deployment)}` : "",
    request.model !== undefined ? `model ${JSON.stringify(request.model)}` : "",
  ].filter(Boolean);
  return named.length ? `${cls} (${named.join(", ")})` : cls;
}

/** How messages name a model's class ("ChatOpenAI"); "model" when it has none. */
export function modelClassName(model: object): string {
  return (model.constructor as { name?: string })?.name ?? "model";
}
