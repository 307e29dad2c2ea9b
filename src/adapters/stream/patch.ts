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
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { VcrConfigError } from "../../errors";
import { isVcrCache } from "../chat/patch";
import { defineMethod } from "../patchMethod";
import type { ChunkClasses } from "./chunks";
import { generateWillStream, markStreamed, vcrHandlesStream } from "./route";
import { vcrStream, type StreamChunks, type StreamModel } from "./session";
import type { RunManagerLike } from "./tokens";

const PATCHED = Symbol.for("langchain-vcr.patched.stream");
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
}

export function installStreamPatches(core: StreamCore): void {
  const proto = core.BaseChatModel.prototype as ChatModelPrototype;
  if (Object.prototype.hasOwnProperty.call(proto, PATCHED)) return;
  for (const name of ["_streamIterator", "streamEvents", "_generateCached", "_streamResponseChunks", "_streamChatModelEvents"] as const) {
    if (typeof proto[name] !== "function") {
      throw new VcrConfigError(
        `langchain-vcr: cannot record or replay streams: this copy of @langchain/core has no BaseChatModel.prototype.${name}.\n` +
          `  langchain-vcr's streaming support is written against @langchain/core 1.x (tested with 1.4).\n` +
          `  Fix it: run \`npm ls @langchain/core\` and install a supported version: npm install @langchain/core@^1.4`,
      );
    }
  }
  const base = { chunks: proto._streamResponseChunks, events: proto._streamChatModelEvents };
  const classes: ChunkClasses = {
    AIMessageChunk: (core.AIMessageChunk ?? AIMessageChunk) as ChunkClasses["AIMessageChunk"],
    ChatGenerationChunk: (core.ChatGenerationChunk ?? ChatGenerationChunk) as ChunkClasses["ChatGenerationChunk"],
  };
  const install = (model: StreamModel): Installed => installOnModel(model, base, classes);

  const beforeCore = (original: Method): Method =>
    function (this: StreamModel, ...args: unknown[]) {
      if (isVcrCache(this.cache)) install(this);
      return original.apply(this, args);
    };
  defineMethod(proto, "_streamIterator", beforeCore(proto._streamIterator));
  defineMethod(proto, "streamEvents", beforeCore(proto.streamEvents));

  const generateCached = proto._generateCached;
  defineMethod(proto, "_generateCached", function (this: StreamModel, ...args: unknown[]) {
    const a = args[0] as GenerateCachedArgs | undefined;
    if (a && isVcrCache(a.cache) && Array.isArray(a.messages)) {
      const { nativeChunks } = install(this);
      if (generateWillStream(this, a.messages.length, a.handledOptions?.callbacks, nativeChunks) && markStreamed(this, a.llmStringKey)) {
        return Promise.resolve({ generations: [], missingPromptIndices: a.messages.map((_, i) => i), startedRunManagers: undefined });
      }
    }
    return generateCached.apply(this, args);
  });
  Object.defineProperty(proto, PATCHED, { value: true });
}

function installOnModel(model: StreamModel, base: { chunks: StreamChunks; events: EventsMethod }, classes: ChunkClasses): Installed {
  const existing = Object.getOwnPropertyDescriptor(model, INSTALLED)?.value as Installed | undefined;
  if (existing) return existing;
  const chunks = model._streamResponseChunks as StreamChunks;
  const installed: Installed = { nativeChunks: typeof chunks === "function" && chunks !== base.chunks };
  Object.defineProperty(model, INSTALLED, { value: installed });
  if (!installed.nativeChunks) return installed; // core answers .stream() with invoke(): the chat cache keys it

  shadow(model, "_streamResponseChunks", function (this: StreamModel, messages: unknown[], options: unknown, runManager?: unknown) {
    if (!vcrHandlesStream(this, options)) return chunks.call(this, messages, options, runManager);
    return vcrStream(classes, this, chunks, messages, options, runManager as RunManagerLike | undefined);
  });

  const events = model._streamChatModelEvents as EventsMethod;
  if (typeof events === "function" && events !== base.events) {
    shadow(model, "_streamChatModelEvents", function (this: StreamModel, messages: unknown[], options: unknown, runManager?: unknown) {
      if (!vcrHandlesStream(this, options)) return events.call(this, messages, options, runManager);
      return base.events.call(this, messages, options, runManager);
    });
  }
  return installed;
}

function shadow(model: object, name: string, fn: (...args: never[]) => unknown): void {
  Object.defineProperty(model, name, { value: fn, writable: true, configurable: true, enumerable: false });
}
