/** langchain-vcr: record/replay for LangChain.js chat models, LLMs, embeddings and tools. */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { BaseLLM } from "@langchain/core/language_models/llms";
import { AIMessageChunk } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { DynamicStructuredTool, StructuredTool } from "@langchain/core/tools";
import { RunnableToolLike } from "@langchain/core/runnables";
import { Embeddings } from "@langchain/core/embeddings";
import { installCorePatches } from "./patches";
import { followJestRegistry } from "./install/jestRegistry";
import { watchUseWithoutJestPlugin } from "./install/jestUnplugged";

installCorePatches({
  BaseChatModel,
  BaseLLM,
  StructuredTool,
  DynamicStructuredTool,
  RunnableToolLike,
  Embeddings,
  AIMessageChunk,
  ChatGenerationChunk,
} as unknown as Parameters<typeof installCorePatches>[0]);
followJestRegistry(); // under jest: the copies a module registry reset loads are patched too
watchUseWithoutJestPlugin(); // under jest's reporter: a test file that uses langchain-vcr without langchain-vcr/jest is named

export { Vcr } from "./vcr";
export type { VcrOptions } from "./options";
export type { Uninstall as VcrUninstall } from "./install/install";
export { DEFAULTS } from "./options";
export { withVcr } from "./withVcr";
export { normalizers } from "./normalizers";
export type { Normalizer } from "./normalizers";
export type { Redactor } from "./redact";
export { VCR_MODES, VCR_TOOL_MODES } from "./modes";
export type { VcrMode, VcrToolMode } from "./modes";
export type { Fixture, FixtureKind } from "./store/fixture";
export { SCHEMA_VERSION } from "./store/fixture";
export type { VcrStats } from "./recorder";
export { VcrCache } from "./adapters/chat/cache";
export { VcrEmbeddings } from "./adapters/embeddings/vcrEmbeddings";
export { VcrError, VcrMissError, VcrFixtureError, VcrConfigError, VcrSecretError, VcrRecordError, isVcrError } from "./errors";
export type { VcrDifference, VcrNearest, VcrErrorCode } from "./errors";
export { validateFixtures } from "./validate";
export type { FixtureProblem } from "./validate";
/** @internal used by the ESM entry to patch the ESM copy of @langchain/core. */
export { installCorePatches } from "./patches";
