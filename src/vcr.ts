/** `Vcr`: one fixture directory, one set of options, and the adapters that write into it. */
import type { Embeddings } from "@langchain/core/embeddings";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { composeNormalizers } from "./canonical/normalize";
import { VcrCache } from "./adapters/chat/cache";
import { VcrEmbeddings } from "./adapters/embeddings/vcrEmbeddings";
import { wrapTool } from "./adapters/tools/index";
import { resolveOptions, type VcrOptions } from "./options";
import { Recorder, type VcrStats } from "./recorder";
import { resolveMode, resolveToolMode, type VcrMode, type VcrToolMode } from "./modes";
import { callSite, installVcr, type Uninstall } from "./install/install";
import { moderate } from "./adapters/moderation/call";
import { assertCoreUsable } from "./internals/state";
import { vcrCreated } from "./scope";

export class Vcr {
  /** Absolute fixture directory. */
  readonly dir: string;
  /** The `BaseCache` to pass as `cache:` to any chat model or LLM constructor. */
  readonly cache: VcrCache;
  /** @internal */
  readonly recorder: Recorder;
  private readonly normalize: (text: string) => string;

  constructor(options: VcrOptions = {}) {
    vcrCreated(); // first: a setup file whose options are wrong is loaded all the same (the summary's note is for one left out)
    assertCoreUsable(); // a copy of @langchain/core lacking an internal langchain-vcr relies on: never a silent live call
    const o = resolveOptions(options);
    resolveMode(o.mode); // an invalid LANGCHAIN_VCR_MODE fails here, not at the first call
    resolveToolMode(o.toolMode);
    this.dir = o.dir;
    this.normalize = composeNormalizers(o.normalizers);
    this.recorder = new Recorder({
      dir: o.dir,
      relativeTo: o.relativeTo,
      mode: o.mode,
      toolMode: o.toolMode,
      redactors: o.redactors,
      sizeWarningBytes: o.sizeWarningBytes,
      allowSecretPatterns: o.allowSecretPatterns,
    });
    this.cache = new VcrCache(this.recorder, this.normalize);
  }

  /** Wraps any LangChain `Embeddings` so its vectors are recorded and replayed. */
  embeddings<E extends Embeddings>(inner: E): VcrEmbeddings<E> {
    return new VcrEmbeddings(inner, this.recorder, this.normalize);
  }

  /** Wraps one tool: same name, description and schema; replays never run its body. */
  tool<T extends StructuredToolInterface>(tool: T): T {
    return wrapTool(tool, this.recorder);
  }

  /** Wraps tools, in the same order. */
  tools<T extends StructuredToolInterface>(tools: readonly T[]): T[] {
    return tools.map((t) => this.tool(t));
  }

  /**
   * Makes this Vcr the default, in the whole process, for every chat model and LLM with no
   * cache of its own (built before or after this call), every Embeddings instance and every
   * model-initiated tool call, as if each had been wired to it explicitly (same fixtures).
   * Returns the function that undoes it (calling it twice is harmless). A second install()
   * before that is a VcrConfigError. Its `ready` settles (never rejects) once the ES modules
   * install() loads with `import()` (under tsx, in vitest's VM pools) are patched or have failed
   * to load (bounded: 30 s, then a warning); the runner plugins wait for it before tests run.
   */
  install(): Uninstall {
    return installVcr({
      dir: this.dir,
      from: callSite(Vcr.prototype.install),
      cache: this.cache,
      tool: (t) => this.tool(t as StructuredToolInterface),
      embeddings: (inner) => this.embeddings(inner as Embeddings),
      moderation: (body, live, secrets) => moderate(this.recorder, this.normalize, body, live, secrets),
    });
  }

  /** The mode a call made here would use. */
  mode(): VcrMode {
    return this.recorder.mode();
  }

  toolMode(): VcrToolMode {
    return this.recorder.toolMode();
  }

  /** Counts for this instance: `missed` counts `replay_only` misses; a recorded miss counts as `recorded`. */
  stats(): VcrStats {
    return { ...this.recorder.stats };
  }
}
