/**
 * Everything langchain-vcr changes in LangChain, in one place. Called once per copy of
 * @langchain/core: by the CommonJS entry for the CommonJS copy, by the ESM entry for the ESM
 * copy. Every patch is a no-op for models whose `cache` is not a VcrCache.
 */
import { installModelPatches, type CoreClasses } from "./adapters/chat/patch";

export function installCorePatches(core: CoreClasses): void {
  installModelPatches(core);
}
