/**
 * Every LangChain internal langchain-vcr relies on, in one table: which class of
 * @langchain/core defines it, its name, and what breaks without it. `check.ts` verifies all of
 * them before anything of a copy of core is patched; nothing else in the code may reach for
 * a LangChain method that is not listed here.
 *
 * Relied on at call time and not checkable before (each is read defensively where it is used):
 * `BaseLanguageModel#_encoding` (an instance field, set once tiktoken has loaded),
 * `handleLLMNewToken(token, idx, runId, parentRunId, tags, { chunk })`'s argument order, and
 * the `lc_prefer_streaming` / `lc_prefer_chat_model_stream_events` flags of callback handlers,
 * the `disableStreaming` field of a chat model (read where core reads it, to tell whether `.stream()` reaches the provider),
 * and, for `interrupt()` inside a wrapped tool, LangGraph's task scratchpad, `GraphInterrupt`
 * and `interrupt` export (`adapters/tools/interrupts.ts`, which fails loudly on another shape).
 *
 * Of the `langchain` package, only where `require()` cannot load core's ESM copy (jest's loader,
 * a Node before 20.19): `ConfigurableModel.prototype._getModelInstance` of
 * `langchain/chat_models/universal`, which builds every `initChatModel` model
 * (`install/configurableModel.ts`; over a copy without it, install() is a VcrConfigError naming it).
 *
 * Of `@langchain/openai`, read at call time where present: `ChatOpenAI#_useResponsesApi(options)`,
 * which API a call goes to (`adapters/chat/openaiApi.ts`; without it, a fixture of the other
 * OpenAI API is not told apart: the check keeps a replayed answer's shape, not a call from going live).
 *
 * Of jest (29, 30): jest-runtime's `Runtime.prototype.requireModule(from, moduleName)`, which every
 * `require` of a real module ends in, found through Node's module cache
 * (`install/jestRegistry.ts`; without it, a note that a module registry reset is not followed),
 * and `resetModules()` of the same runtime, which resets jest's ESM registry too (without it, a
 * note when install() covers string models through ConfigurableModel).
 */

/** The classes of one copy of @langchain/core that the table names. */
export type CoreClassName = "BaseChatModel" | "BaseLLM" | "StructuredTool" | "DynamicStructuredTool" | "RunnableToolLike";

export interface Internal {
  /** The class of the copy of core where it is looked up. */
  owner: CoreClassName;
  /**
   * The class that must define it: the owner itself, or the owner's parent class
   * (`BaseLanguageModel`, `RunnableBinding`). An inherited default from further up (Runnable's
   * generic `_streamIterator`, `streamEvents`, `invoke`) does not count: it would route around us.
   */
  definedBy?: "BaseLanguageModel" | "RunnableBinding";
  name: string;
  /** What langchain-vcr does with it (for the error message). */
  use: string;
}

/** `BaseChatModel.prototype.generate`, `BaseLanguageModel.prototype.getNumTokens`: how messages name it. */
export function internalName(internal: Internal): string {
  return `${internal.definedBy ?? internal.owner}.prototype.${internal.name}`;
}

export const INTERNALS: readonly Internal[] = [
  { owner: "BaseChatModel", name: "generate", use: "capture the full request of every chat call" },
  { owner: "BaseChatModel", name: "invoke", use: "route invoke() of a class that overrides generate()" },
  { owner: "BaseChatModel", definedBy: "BaseLanguageModel", name: "_getSerializedCacheKeyParametersForCall", use: "hand the call options to the cache lookup" },
  { owner: "BaseChatModel", name: "_generateCached", use: "record a token-streamed invoke() as a stream" },
  { owner: "BaseChatModel", name: "_generateUncached", use: "stop a model with a cache of its own from calling its provider under replay_only" },
  { owner: "BaseChatModel", name: "_streamIterator", use: "record and replay .stream() and streamEvents v1/v2" },
  { owner: "BaseChatModel", name: "streamEvents", use: "record and replay the new-protocol streamEvents()" },
  { owner: "BaseChatModel", name: "_streamResponseChunks", use: "tell providers that stream natively from those that do not" },
  { owner: "BaseChatModel", name: "_streamChatModelEvents", use: "bridge native stream events to recorded chunks" },
  { owner: "BaseChatModel", definedBy: "BaseLanguageModel", name: "getNumTokens", use: "keep tiktoken from downloading its ranks while recording" },
  { owner: "BaseLLM", name: "generate", use: "capture the full request of every text-completion call" },
  { owner: "BaseLLM", name: "invoke", use: "route invoke() of a class that overrides generate()" },
  { owner: "BaseLLM", name: "_generateUncached", use: "stop a model with a cache of its own from calling its provider under replay_only" },
  { owner: "BaseLLM", name: "_streamIterator", use: "answer a text-completion .stream() with a replayed invoke()" },
  { owner: "BaseLLM", name: "_streamResponseChunks", use: "tell a completion model that streams natively from one that answers .stream() with invoke()" },
  { owner: "StructuredTool", name: "invoke", use: "isolate model-initiated tool calls under vcr.install()" },
  { owner: "StructuredTool", name: "call", use: "run a wrapped tool's _call with core's validation and callbacks" },
  { owner: "RunnableToolLike", definedBy: "RunnableBinding", name: "invoke", use: "isolate model-initiated calls of a runnable.asTool() under vcr.install()" },
  { owner: "DynamicStructuredTool", name: "_call", use: "stand in for a runnable.asTool() under vcr.install() (its body is the runnable's invoke)" },
];
