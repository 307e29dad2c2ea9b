/**
 * How streamed calls reach the stream adapter. Core never consults the cache when it
 * streams, and providers override the generators core streams from, so two layers:
 *
 * 1. Three methods of `BaseChatModel.prototype` that only the base class defines — every
 *    streaming path starts in one of them — are wrapped. For a model whose `cache` is a
 *    `VcrCache` (and no other) they first install (2) on that model, then run core's code:
 *    - `_streamIterator`: `.stream()`, `streamEvents` v1/v2, `chain.stream()`;
 *    - `streamEvents`: the new-protocol `streamEvents()` (no `version`);
 *    - `_generateCached`: `invoke()`/`generate()` that core is about to stream because a
 *      callback handler wants tokens (LangGraph `streamMode: "messages"`, `streamEvents`
 *      over a chain). The chat cache then stands aside: it reports every prompt missing, so
 *      core runs `_generateUncached`, whose streaming branch reaches (2).
 * 2. On the model instance, non-enumerable own properties shadow the provider's methods:
 *    - `_streamResponseChunks` → `vcrStream` (record / replay chunk by chunk) when
 *      `vcrHandlesStream`, else the provider's own generator;
 *    - `_streamChatModelEvents` (ChatOpenAI, ChatOllama have native ones that never call
 *      `_streamResponseChunks`) → core's base bridge, which builds the events from
 *      `_streamResponseChunks` — so they too are recorded and replayed as chunks.
 *
 * Instance properties (not subclass prototypes) because any subclass must work and a
 * subclass override may call `super`: shadowing once, per instance, never wraps twice.
 * `bindTools`, `withConfig` and `withStructuredOutput` either keep the instance (a
 * `RunnableBinding`) or build a new one from the same fields, `cache` included, which is
 * installed on its first streamed call.
 */
import { AIMessageChunk } from "@langchain/core/messages";
import { VcrConfigError } from "../../errors";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { bypassing, isVcrCache, vcrCacheOf } from "../chat/vcrCacheOf";
import { modelClassName } from "../chat/cache";
import { defineMethod, patchOnce } from "../../internals/patchOnce";
import type { ChunkClasses } from "./chunks";
import { generateWillStream, markStreamed, vcrHandlesStream } from "./route";
import { checkOwnCacheStream } from "../chat/ownCache";
import { vcrStream, type StreamChunks, type StreamModel } from "./session";
import type { RunManagerLike } from "./tokens";

const PATCHED = {
  _streamIterator: Symbol.for("langchain-vcr.patched.stream._streamIterator"),
  streamEvents: Symbol.for("langchain-vcr.patched.stream.streamEvents"),
  _generateCached: Symbol.for("langchain-vcr.patched.stream._generateCached"),
} as const;
const INSTALLED = Symbol.for("langchain-vcr.stream.installed");

type Method = (this: StreamModel, ...args: unknown[]) => unknown;
type EventsMethod = (this: StreamModel, messages: unknown[], options: unknown, runManager?: unknown) => unknown;

interface ChatModelPrototype {
  _streamIterator: Method;
  streamEvents: Method;
  _generateCached: Method;
  _streamResponseChunks: StreamChunks;
  _streamChatModelEvents: EventsMethod;
}

/**
 * Classes of ONE copy of @langchain/core (its ESM or its CommonJS build). The chunk classes
 * default to the ones this module resolves with `require` (the CommonJS copy): the ESM
 * entry must pass its own.
 */
export interface StreamCore {
  BaseChatModel: { prototype: unknown };
  AIMessageChunk?: unknown;
  ChatGenerationChunk?: unknown;
}

interface GenerateCachedArgs {
  messages: unknown[][];
  cache?: unknown;
  llmStringKey?: unknown;
  handledOptions?: { callbacks?: unknown };
}

interface Installed {
  nativeChunks: boolean;
  /** The instance could not take the shadows (frozen or sealed): its provider's stream would bypass the Vcr. */
  unshadowable?: boolean;
}

/** Patches one copy of core; `src/internals/check.ts` has verified every method used here exists. */
export function installStreamPatches(core: StreamCore): void {
  const proto = core.BaseChatModel.prototype as ChatModelPrototype;
  const base = { chunks: proto._streamResponseChunks, events: proto._streamChatModelEvents };
  const classes: ChunkClasses = {
    AIMessageChunk: (core.AIMessageChunk ?? AIMessageChunk) as ChunkClasses["AIMessageChunk"],
    ChatGenerationChunk: (core.ChatGenerationChunk ?? ChatGenerationChunk) as ChunkClasses["ChatGenerationChunk"],
  };
  const install = (model: StreamModel): Installed => installOnModel(model, base, classes);

  /**
   * Core looks no stream up in a cache, so a model with one of its own streams from its provider (chat/ownCache.ts) when it
   * streams natively: `_streamIterator` unless streaming is disabled (then it answers with invoke(), which looks its cache
   * up); the new-protocol `streamEvents()` whatever `disableStreaming` says (it calls `_streamChatModelEvents` directly).
   * `streamEvents` v1/v2 go through `.stream()`, so `_streamIterator` checks them (once).
   */
  const streamsNatively: Record<"_streamIterator" | "streamEvents", (model: StreamModel, args: unknown[]) => boolean> = {
    _streamIterator: (model) => !model.disableStreaming && model._streamResponseChunks !== base.chunks,
    streamEvents: (model, args) => {
      const version = (args[1] as { version?: unknown } | undefined)?.version;
      if (version === "v1" || version === "v2") return false;
      return model._streamChatModelEvents !== base.events || model._streamResponseChunks !== base.chunks;
    },
  };
  const beforeCore =
    (name: keyof typeof streamsNatively) =>
    (original: Method): Method =>
      function (this: StreamModel, ...args: unknown[]) {
        const cache = vcrCacheOf(this);
        if (cache && install(this).unshadowable && !bypassing(cache)) throw unshadowableModelError(this);
        if (!cache && this.cache && streamsNatively[name](this, args)) checkOwnCacheStream(this, "chat");
        return original.apply(this, args);
      };
  patchOnce<Method>(proto, "_streamIterator", PATCHED._streamIterator, beforeCore("_streamIterator"));
  patchOnce<Method>(proto, "streamEvents", PATCHED.streamEvents, beforeCore("streamEvents"));

  patchOnce<Method>(
    proto,
    "_generateCached",
    PATCHED._generateCached,
    (generateCached) =>
      function (this: StreamModel, ...args: unknown[]) {
        const a = args[0] as GenerateCachedArgs | undefined;
        if (a && isVcrCache(a.cache) && Array.isArray(a.messages)) {
          const { nativeChunks, unshadowable } = install(this);
          // an instance without the shadows: the chat cache keys the call (a chat fixture; its tokens stream from the provider while recording)
          if (!unshadowable && generateWillStream(this, a.messages.length, a.handledOptions?.callbacks, nativeChunks) && markStreamed(this, a.llmStringKey)) {
            return Promise.resolve({ generations: [], missingPromptIndices: a.messages.map((_, i) => i), startedRunManagers: undefined });
          }
        }
        return generateCached.apply(this, args);
      },
  );
}

function installOnModel(model: StreamModel, base: { chunks: StreamChunks; events: EventsMethod }, classes: ChunkClasses): Installed {
  // own, not inherited (a model made with Object.create(model) has its own methods); no descriptor object per call
  const existing = Object.hasOwn(model, INSTALLED) ? ((model as Record<symbol, unknown>)[INSTALLED] as Installed) : undefined;
  if (existing) return existing;
  const chunks = model._streamResponseChunks as StreamChunks;
  const installed: Installed = { nativeChunks: typeof chunks === "function" && chunks !== base.chunks };
  if (!Object.isExtensible(model)) return installed.nativeChunks ? { ...installed, unshadowable: true } : installed;
  Object.defineProperty(model, INSTALLED, { value: installed });
  if (!installed.nativeChunks) return installed; // core answers .stream() with invoke(): the chat cache keys it

  defineMethod(model, "_streamResponseChunks", function (this: StreamModel, messages: unknown[], options: unknown, runManager?: unknown) {
    if (!vcrHandlesStream(this, options)) return chunks.call(this, messages, options, runManager);
    return vcrStream(classes, this, chunks, messages, options, runManager as RunManagerLike | undefined);
  });

  const events = model._streamChatModelEvents as EventsMethod;
  if (typeof events === "function" && events !== base.events) {
    defineMethod(model, "_streamChatModelEvents", function (this: StreamModel, messages: unknown[], options: unknown, runManager?: unknown) {
      if (!vcrHandlesStream(this, options)) return events.call(this, messages, options, runManager);
      return base.events.call(this, messages, options, runManager);
    });
  }
  return installed;
}

function unshadowableModelError(model: object): VcrConfigError {
  const cls = modelClassName(model);
  return new VcrConfigError(
    `cannot record or replay a stream of ${cls}: the model object is frozen or sealed, so its provider's stream cannot be routed through the Vcr.\n` +
      `  The call was not made: ${cls} streams natively, and langchain-vcr records a stream by shadowing _streamResponseChunks on the model object.\n` +
      `  Nearest: invoke() and batch() of the same frozen model, given \`cache: vcr.cache\`, are recorded and replayed.\n` +
      `  Fix it: do not freeze the model (Object.freeze / Object.seal), or keep this stream live on purpose inside withVcr({ mode: "bypass" }, …).`,
  );
}
