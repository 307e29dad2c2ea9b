/**
 * The chat patch: `generate()` of `BaseChatModel` and `BaseLLM` captures the full request (a
 * `ModelCall`, see `call.ts`) when — and only when — a VcrCache answers the model: its own
 * `cache`, or, under `vcr.install()`, the installed one for a model with no cache
 * (`vcrCacheOf.ts`). Every other model runs the original code untouched.
 * Patching the base class (not the model instance) survives `bindTools`, `withConfig` and
 * `withStructuredOutput`, which rebuild models from their fields.
 *
 * Each copy of @langchain/core in a process (its ESM and its CommonJS build) has its own
 * classes: the CommonJS entry of langchain-vcr patches the CommonJS copy, the ESM entry
 * patches both, and `vcr.install()` patches the ESM copy from a CommonJS process too.
 */
import { coerceMessageLikeToMessage, getBufferString } from "@langchain/core/messages";
import { VcrConfigError } from "../../errors";
import { patchOnce } from "../../internals/patchOnce";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { inGraphNode } from "./answerIds";
import { ModelCall, runModelCall, takeStartingCall, type ModelInstance, type ModelKind } from "./call";
import { enterCoreGenerate, patchInvokeGuard } from "./override";
import { isVcrCache, vcrCacheOf } from "./vcrCacheOf";
import { modelClassName } from "./cache";
import { ownCacheLiveCall } from "./ownCache";

const PATCHED = Symbol.for("langchain-vcr.patched.generate");

type Generate = (this: ModelInstance, input: unknown[], options?: unknown, callbacks?: unknown) => Promise<unknown>;
interface Patchable {
  prototype: { generate: Generate };
}

export interface CoreClasses {
  BaseChatModel: Patchable;
  BaseLLM: Patchable;
}

export function installModelPatches(core: CoreClasses): void {
  patchGenerate(core.BaseChatModel.prototype, "chat", (messages) => getBufferString(messages as Parameters<typeof getBufferString>[0]));
  patchGenerate(core.BaseLLM.prototype, "llm", (prompt) => String(prompt));
  patchCacheKey(core.BaseChatModel.prototype);
  patchCacheKey(core.BaseLLM.prototype);
  patchInvokeGuard(core.BaseChatModel.prototype, core.BaseChatModel.prototype.generate);
  patchInvokeGuard(core.BaseLLM.prototype, core.BaseLLM.prototype.generate);
  patchOwnCacheGuard(core.BaseChatModel.prototype, "chat");
  patchOwnCacheGuard(core.BaseLLM.prototype, "llm");
}

const OWN_CACHE_PATCHED = Symbol.for("langchain-vcr.patched.ownCacheGuard");

interface StartedRun {
  handleLLMError?(error: unknown): Promise<unknown>;
}

/**
 * Core calls `_generateUncached(inputs, options, config, startedRunManagers)` for the prompts a model's cache had no
 * answer for: a model with a cache of its own is stopped there under replay_only (`ownCache.ts`), each prompt counted.
 * Core's cached path has started a callback run per prompt: they end with the error, as core ends them when a call fails.
 */
function patchOwnCacheGuard(proto: object, kind: ModelKind): void {
  type Uncached = (this: ModelInstance, ...args: unknown[]) => Promise<unknown>;
  patchOnce<Uncached>(
    proto,
    "_generateUncached",
    OWN_CACHE_PATCHED,
    (original) =>
      function (this: ModelInstance, ...args: unknown[]) {
        const stop = ownCacheLiveCall(this, kind, false, Array.isArray(args[0]) ? args[0].length : 1);
        if (!stop) return original.apply(this, args);
        const started = Array.isArray(args[3]) ? (args[3] as (StartedRun | undefined)[]) : [];
        return Promise.all(started.map((run) => run?.handleLLMError?.(stop))).then(() => Promise.reject(stop));
      },
  );
}

const KEY_PATCHED = Symbol.for("langchain-vcr.patched.cacheKey");

/** `VcrCache.release`, as the patch calls it on the cache it found (`vcrCacheOf`). */
interface VcrCacheRelease {
  release(lookup: unknown, error?: { thrown: unknown; note: boolean }): void;
}

/**
 * Core serializes every call option (and the client config, API key included) into an
 * `llmKey` string on every call — the largest single cost of a cache hit — and a VcrCache
 * ignores it. For a VcrCache call the patch hands the call options to the captured call
 * (so they are not separated twice) and returns the call's own key instead: core passes it
 * to every `lookup` and `update` of the call, which is how they find the call (see `call.ts`).
 */
function patchCacheKey(proto: object): void {
  type KeyStep = (this: ModelInstance, callOptions: unknown) => string;
  patchOnce<KeyStep>(
    proto,
    "_getSerializedCacheKeyParametersForCall",
    KEY_PATCHED,
    (original) =>
      function (this: ModelInstance, callOptions: unknown): string {
        const call = isVcrCache(this.cache) ? takeStartingCall(this, callOptions) : undefined;
        return call ? call.key : original.call(this, callOptions);
      },
  );
}

function patchGenerate(proto: object, kind: ModelKind, promptOf: (input: unknown) => string): void {
  patchOnce<Generate>(
    proto,
    "generate",
    PATCHED,
    (original) =>
      function (this: ModelInstance, input, options, callbacks) {
        const cache = vcrCacheOf(this);
        if (!cache || !Array.isArray(input)) return original.call(this, input, options, callbacks);
        avoidTokenizerDownload(this);
        let inputs: unknown[];
        try {
          // core coerces message-likes ("hi", ["human", "hi"]) before it looks up: key on the same messages
          inputs = kind === "chat" ? input.map((list) => (Array.isArray(list) ? list.map((m) => coerceMessageLikeToMessage(m as never)) : list)) : input;
        } catch (e) {
          return Promise.reject(e); // as core's own (async) generate() fails on such input
        }
        const call = new ModelCall(this, kind, inputs, promptOf);
        // LangGraph hands a node's config to a model call through the running config, not generate()'s options
        call.inGraph = inGraphNode(options) || inGraphNode(AsyncLocalStorageProviderSingleton.getRunnableConfig());
        const leave = enterCoreGenerate(this);
        // `error`: the live call failed (a miss that went live says so on it, once for the call: a batch fails as one)
        const end = (result: unknown, error?: { thrown: unknown }) => {
          leave();
          call.end(result);
          let first = true;
          for (const e of call.entries) {
            if (!e.lookup || e.updated) continue;
            (cache as VcrCacheRelease).release(e.lookup, error && { ...error, note: first });
            first = false;
          }
        };
        const run = () => original.call(this, input, options, callbacks) as Promise<unknown>;
        return runModelCall(call, cache === this.cache ? run : () => withLentCache(this, cache, run)).then(
          (result) => (end(result), result),
          (error: unknown) => {
            // an aborted call is no failure to explain
            const aborted = (call.options() as { signal?: AbortSignal } | undefined)?.signal?.aborted;
            end(undefined, aborted ? undefined : { thrown: error });
            throw error;
          },
        );
      },
  );
}

/**
 * `vcr.install()`: core's `generate()` reads `this.cache` synchronously, before its first
 * `await` (the llmKey step and the cached path are chosen there). The installed VcrCache is
 * lent to the model for exactly that synchronous start, so core takes its cache path with
 * it, and given back before `generate()` returns its promise: the model's own `cache` field
 * is unset again before any other code runs.
 */
function withLentCache<T>(model: ModelInstance, cache: object, run: () => T): T {
  const own = model.cache;
  try {
    model.cache = cache;
  } catch {
    // a frozen model: core would read its unset cache and call the provider unrecorded
  }
  if (model.cache !== cache) throw unlendableModelError(model);
  try {
    return run();
  } finally {
    model.cache = own;
  }
}

function unlendableModelError(model: object): VcrConfigError {
  const cls = modelClassName(model);
  return new VcrConfigError(
    `vcr.install() cannot route a call of ${cls} through the Vcr: its \`cache\` field cannot be set (the model is frozen or sealed).\n` +
      `  The call was not made: without a cache, @langchain/core would send it to the provider unrecorded.\n` +
      `  Nearest: a frozen model built with \`cache: vcr.cache\` is recorded and replayed (its invoke() and batch(); a native stream needs an unfrozen model).\n` +
      `  Fix it: build the model with \`cache: vcr.cache\`, or do not freeze it.`,
  );
}

const TOKENS_SHADOWED = Symbol.for("langchain-vcr.tokens.shadowed");

/**
 * The tiktoken trap: ChatOpenAI built with `streaming: true` estimates token usage after an
 * `invoke()` with tiktoken, whose ranks are downloaded on first use — offline, the recording
 * hangs for minutes. For models with a VcrCache, `getNumTokens` uses the encoding only when
 * it is already loaded, else core's own fallback estimate (characters / 4). This only
 * changes `llmOutput.estimatedTokenUsage`, which fixtures do not store.
 */
function avoidTokenizerDownload(model: ModelInstance): void {
  if (Object.prototype.hasOwnProperty.call(model, TOKENS_SHADOWED)) return;
  if (Object.isExtensible(model)) Object.defineProperty(model, TOKENS_SHADOWED, { value: true }); // a frozen model is looked at on every call
  shadowGetNumTokens(model);
  // ChatOpenAI delegates to inner models (`completions`, `responses`) that count on their own
  for (const value of Object.values(model)) {
    const inner = value as ModelInstance | null;
    if (inner && typeof inner === "object" && typeof inner._generate === "function" && typeof inner.getNumTokens === "function") {
      shadowGetNumTokens(inner);
    }
  }
}

function shadowGetNumTokens(model: ModelInstance): void {
  if (Object.prototype.hasOwnProperty.call(model, "getNumTokens") || !Object.isExtensible(model)) return;
  const original = model.getNumTokens;
  if (typeof original !== "function") return;
  Object.defineProperty(model, "getNumTokens", {
    configurable: true,
    writable: true,
    value: async function (this: ModelInstance, content: unknown): Promise<number> {
      if (this._encoding) return (original as (c: unknown) => Promise<number>).call(this, content);
      return Math.ceil(textOf(content).length / 4);
    },
  });
}

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((item: unknown) => {
      if (typeof item === "string") return item;
      const block = item as { type?: string; text?: unknown };
      return block?.type === "text" && typeof block.text === "string" ? block.text : "";
    })
    .join("");
}
