/**
 * A chat model or LLM class that overrides `generate()` without calling core's would reach its
 * provider around the Vcr — under `replay_only` too. Core's `invoke()` (which such a class
 * still inherits) is wrapped: for a model the Vcr answers whose `generate` is not core's,
 * it shadows the instance's `_generate` once with a gate. Inside core's `generate()` (an
 * override that calls `super.generate()`) the gate is open and the call is recorded and
 * replayed as usual; a `_generate` reached any other way is a `VcrConfigError` naming the
 * class, before the provider is called (in every mode but `bypass`, which is live on purpose).
 *
 * Limit: an override that calls its provider itself (neither core's `generate` nor
 * `_generate`) is out of reach, as is a class that overrides `invoke` too.
 */
import { VcrConfigError } from "../../errors";
import { defineMethod, patchOnce } from "../../internals/patchOnce";
import type { ModelInstance } from "./call";
import { processWide } from "../../processWide";
import { bypassing, vcrCacheOf } from "./vcrCacheOf";
import { modelClassName } from "./cache";

const PATCHED = Symbol.for("langchain-vcr.patched.invokeGuard");
const GATED = Symbol.for("langchain-vcr.generate.gated");

/** Models inside core's `generate()` right now, with how many calls. */
const inCore = processWide("override.inCore.v1", () => new WeakMap<object, number>());

export function enterCoreGenerate(model: object): () => void {
  inCore.set(model, (inCore.get(model) ?? 0) + 1);
  return () => {
    const n = (inCore.get(model) ?? 1) - 1;
    if (n > 0) inCore.set(model, n);
    else inCore.delete(model);
  };
}

type Invoke = (this: ModelInstance, input: unknown, options?: unknown) => Promise<unknown>;
type Method = (this: ModelInstance, ...args: unknown[]) => unknown;

/** `coreGenerate`: this copy's (patched) `generate` of the class whose `invoke` is wrapped (BaseChatModel or BaseLLM). */
export function patchInvokeGuard(proto: object, coreGenerate: unknown): void {
  patchOnce<Invoke>(
    proto,
    "invoke",
    PATCHED,
    (original) =>
      function (this: ModelInstance, input: unknown, options?: unknown) {
        if (this.generate !== coreGenerate && vcrCacheOf(this) && !gate(this)) return Promise.reject(overriddenGenerateError(this));
        return original.call(this, input, options);
      },
  );
}

/** Shadows the instance's `_generate` with the gate, once; false when the instance cannot take it (frozen). */
function gate(model: ModelInstance): boolean {
  if (Object.prototype.hasOwnProperty.call(model, GATED)) return true;
  if (!Object.isExtensible(model)) return false;
  Object.defineProperty(model, GATED, { value: true });
  const provider = model._generate as Method | undefined;
  if (typeof provider !== "function") return true;
  defineMethod(model, "_generate", function (this: ModelInstance, ...args: unknown[]) {
    const cache = vcrCacheOf(this);
    if (cache && !inCore.has(this) && !bypassing(cache)) return Promise.reject(overriddenGenerateError(this));
    return provider.apply(this, args);
  });
  return true;
}

function overriddenGenerateError(model: object): VcrConfigError {
  const cls = modelClassName(model);
  return new VcrConfigError(
    `${cls} overrides generate() without calling @langchain/core's, so its call would reach the provider unrecorded.\n` +
      `  The call was not made. langchain-vcr records and replays what core's generate() does: ${cls}.generate() called _generate() around it.\n` +
      `  Nearest: an override that calls \`super.generate(messages, options, callbacks)\` is recorded and replayed as usual.\n` +
      `  Fix it: call super.generate() from ${cls}.generate(), or run this model's calls inside withVcr({ mode: "bypass" }, …) to keep them live on purpose.`,
  );
}
