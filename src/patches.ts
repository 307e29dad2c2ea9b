/**
 * Everything langchain-vcr changes in LangChain, in one place. Called once per copy of
 * @langchain/core: by the CommonJS entry for the CommonJS copy, by the ESM entry for the ESM
 * copy. Every patch is a no-op for models whose `cache` is not a VcrCache.
 */
import { installModelPatches, type CoreClasses } from "./adapters/chat/patch";
import { installLlmStreamPatch, installStreamPatches, type StreamCore } from "./adapters/stream/index";

export type PatchableCore = CoreClasses & { AIMessageChunk?: unknown; ChatGenerationChunk?: unknown };

export function installCorePatches(core: PatchableCore): void {
  installModelPatches(core);
  installStreamPatches(core as unknown as StreamCore);
  installLlmStreamPatch(core);
}
