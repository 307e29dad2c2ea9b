/**
 * Text-completion models (`BaseLLM`, e.g. `OpenAI`): a `.stream()` (and `streamEvents`) of a
 * model whose cache is a `VcrCache` is answered with one `invoke()` — what LangChain itself
 * does for a completion model that cannot stream — so it is keyed, recorded and replayed as
 * an `llm` fixture like any other call. Core never consults the cache when it streams: left
 * alone, the stream would reach the provider on every run, `replay_only` included.
 */
import { vcrCacheOf } from "../chat/vcrCacheOf";
import { checkOwnCacheStream } from "../chat/ownCache";
import { patchOnce } from "../../internals/patchOnce";

const PATCHED = Symbol.for("langchain-vcr.patched.llmStream");

interface LlmLike {
  cache?: unknown;
  _streamResponseChunks?: unknown;
  invoke(input: unknown, options?: unknown): Promise<unknown>;
}

type StreamIterator = (this: LlmLike, input: unknown, options?: unknown) => AsyncGenerator<unknown>;

export function installLlmStreamPatch(core: { BaseLLM: { prototype: unknown } }): void {
  const baseChunks = (core.BaseLLM.prototype as LlmLike)._streamResponseChunks;
  patchOnce<StreamIterator>(
    core.BaseLLM.prototype as object,
    "_streamIterator",
    PATCHED,
    (original) =>
      function (this: LlmLike, input: unknown, options?: unknown) {
        if (vcrCacheOf(this)) return invokeAsStream(this, input, options);
        // a model with a cache of its own that streams natively reaches its provider (chat/ownCache.ts); one that does not answers with invoke(), which looks its cache up
        if (this.cache && this._streamResponseChunks !== baseChunks) checkOwnCacheStream(this, "llm");
        return original.call(this, input, options);
      },
  );
}

async function* invokeAsStream(model: LlmLike, input: unknown, options: unknown): AsyncGenerator<unknown> {
  yield await model.invoke(input, options);
}
