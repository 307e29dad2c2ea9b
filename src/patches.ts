/**
 * Everything langchain-vcr changes in LangChain, in one place. Called once per copy of
 * @langchain/core: by the CommonJS entry for the CommonJS copy, by the ESM entry for the ESM
 * copy. Every internal relied on (`internals/table.ts`) is checked first; a copy that lacks
 * one is not patched at all, and its error is thrown by every `new Vcr()` (import never
 * throws, so the CLI still works). Every patch is a no-op for models whose cache is not a
 * VcrCache and, while `vcr.install()` is in force, for models with a cache of their own.
 */
import { installModelPatches } from "./adapters/chat/patch";
import { installLlmStreamPatch, installStreamPatches, type StreamCore } from "./adapters/stream/index";
import { installRunnableToolPatch, installToolPatch } from "./install/tools";
import { noteEmbeddingsClass } from "./install/embeddings";
import type { VcrConfigError } from "./errors";
import { missingInternal, type OtherCopy } from "./internals/check";
import { noteBrokenCore, noteEsmCore } from "./internals/state";
import { isEsmBuild, processWide } from "./processWide";
import { BaseChatModel as CommonJsBaseChatModel } from "@langchain/core/language_models/chat_models";

/** The classes of one copy of @langchain/core. */
export interface PatchableCore {
  BaseChatModel: { prototype: object };
  BaseLLM: { prototype: object };
  StructuredTool?: { prototype: object };
  DynamicStructuredTool?: unknown;
  RunnableToolLike?: { prototype: object };
  Embeddings?: { prototype: object };
  AIMessageChunk?: unknown;
  ChatGenerationChunk?: unknown;
}

/** Called by each entry at import for its copy of core (the ESM entry's is another copy than this module's). */
export function installCorePatches(core: PatchableCore): void {
  if (isEsmBuild() || core.BaseChatModel !== CommonJsBaseChatModel) noteEsmCore();
  patchCoreCopy(core);
}

/**
 * Each copy of core seen, by its BaseChatModel class: `true` once patched, or the error of a copy
 * that could not be. By class, not by directory: a copy loaded again (a cleared `require.cache`,
 * a jest registry reset) is new classes, patched again.
 */
const copies = processWide("coreCopies.byClass.v1", () => new WeakMap<object, VcrConfigError | true>());

/** What is known of the copy of core whose BaseChatModel is `chatModel`: patched (`true`), its error, or nothing yet. */
export function knownCopy(chatModel: unknown): VcrConfigError | true | undefined {
  return isKey(chatModel) ? copies.get(chatModel) : undefined;
}

/**
 * Checks every internal of one copy of core, then patches it, once per copy; or keeps its error
 * for `new Vcr()` and returns it, on every call for that copy. `copy`: where it is, when it is not
 * the copy langchain-vcr resolves (the error names it).
 */
export function patchCoreCopy(core: PatchableCore, copy?: OtherCopy): VcrConfigError | undefined {
  const known = knownCopy(core.BaseChatModel);
  if (known) return known === true ? undefined : known;
  const missing = missingInternal(
    {
      BaseChatModel: core.BaseChatModel,
      BaseLLM: core.BaseLLM,
      StructuredTool: core.StructuredTool,
      DynamicStructuredTool: core.DynamicStructuredTool as { prototype: object } | undefined,
      RunnableToolLike: core.RunnableToolLike,
    },
    copy,
  );
  if (missing) {
    if (isKey(core.BaseChatModel)) copies.set(core.BaseChatModel, missing);
    noteBrokenCore(missing);
    return missing;
  }
  installModelPatches(core as never);
  installStreamPatches(core as unknown as StreamCore);
  installLlmStreamPatch(core);
  installToolPatch(core.StructuredTool!.prototype);
  installRunnableToolPatch(core.RunnableToolLike!.prototype, core.DynamicStructuredTool as never);
  if (core.Embeddings) noteEmbeddingsClass(core.Embeddings);
  copies.set(core.BaseChatModel, true);
  return undefined;
}

function isKey(value: unknown): value is object {
  return (typeof value === "function" || typeof value === "object") && value !== null;
}
