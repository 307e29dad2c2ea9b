/**
 * The one patch langchain-vcr applies to LangChain: `generate()` of `BaseChatModel` and
 * `BaseLLM` runs inside a context that holds the full request, when — and only when — the
 * model's `cache` is a `VcrCache`. Every other model runs the original code untouched.
 * Patching the base class (not the model instance) survives `bindTools`, `withConfig` and
 * `withStructuredOutput`, which rebuild models from their fields.
 *
 * Each copy of @langchain/core in a process (its ESM and its CommonJS build) has its own
 * classes: the CommonJS entry of langchain-vcr patches the CommonJS copy, the ESM entry
 * patches both.
 */
import { getBufferString } from "@langchain/core/messages";
import { ModelCall, runModelCall, type ModelInstance, type ModelKind } from "./call";

const PATCHED = Symbol.for("langchain-vcr.patched.generate");
const VCR_CACHE = Symbol.for("langchain-vcr.cache");

export function isVcrCache(x: unknown): boolean {
  return typeof x === "object" && x !== null && (x as Record<symbol, unknown>)[VCR_CACHE] === true;
}

export function brandVcrCache(cache: object): void {
  Object.defineProperty(cache, VCR_CACHE, { value: true });
}

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
}

function patchGenerate(proto: { generate: Generate }, kind: ModelKind, promptOf: (input: unknown) => string): void {
  if (Object.prototype.hasOwnProperty.call(proto, PATCHED)) return;
  const original = proto.generate;
  const patched: Generate = function (this: ModelInstance, input, options, callbacks) {
    if (!isVcrCache(this.cache) || !Array.isArray(input)) return original.call(this, input, options, callbacks);
    const call = new ModelCall(this, kind, input, options, promptOf);
    return runModelCall(call, () => original.call(this, input, options, callbacks)).finally(() => {
      for (const e of call.entries) if (e.lookup && !e.updated) (this.cache as { release(l: unknown): void }).release(e.lookup);
    });
  };
  Object.defineProperty(proto, "generate", { value: patched, writable: true, configurable: true });
  Object.defineProperty(proto, PATCHED, { value: original });
}
