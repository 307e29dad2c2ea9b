/**
 * A model with a cache of its own (`cache: new InMemoryCache()`, any `BaseCache` but a VcrCache
 * and core's process-wide one that `cache: true` stands for) is left alone by `vcr.install()`:
 * not recorded (`vcrCacheOf.ts`), so a cache a test filled in advance still answers. Left alone
 * used to mean unwatched: when its own cache had no answer it called its provider, under
 * `replay_only` (CI) too, and the summary counted nothing (trial 42 H2). So, while a Vcr is
 * installed, such a call about to reach its provider (core's `_generateUncached`, or a native
 * stream, which core never looks up in a cache) is:
 * - under `replay_only`: not made; a VcrConfigError says why and how to record it, and the
 *   summary counts a miss;
 * - under `record_or_replay` and `record_always`: made, unrecorded, counted as bypassed, and
 *   noted once per model class in the process;
 * - under `bypass`: made, as every call is.
 * A test double (`install/testDouble.ts`) calls no provider and is never stopped.
 */
import { VcrConfigError } from "../../errors";
import { installedVcr } from "../../internals/state";
import { isTestDouble } from "../../install/testDouble";
import { log } from "../../log";
import { modeSource, type VcrMode } from "../../modes";
import { processWide } from "../../processWide";
import { currentTest, emit } from "../../scope";
import { modelClassName } from "./cache";
import { currentTestCommand } from "../../diagnose/rerecordCommand";
import { isVcrCache, vcrCacheOf } from "./vcrCacheOf";

const noted = processWide("ownCache.noted.v1", () => new Set<string>());

/**
 * The error that stops the call, or undefined when it may go on (counted and noted when it goes live unrecorded).
 * `stream`: a native stream, which core looks up in no cache (else: the cache had no answer); `requests`: the prompts
 * the call holds (a batch's `generate()` holds several), each counted.
 */
export function ownCacheLiveCall(model: { cache?: unknown }, kind: "chat" | "llm", stream = false, requests = 1): VcrConfigError | undefined {
  const own = model.cache;
  if (own === undefined || own === null || own === false || isVcrCache(own)) return undefined;
  const installed = installedVcr();
  if (!installed || vcrCacheOf(model) || isTestDouble(model)) return undefined;
  const recorder = (installed.cache as { recorder?: { mode(): VcrMode; config?: { mode?: VcrMode } } }).recorder;
  const mode = recorder?.mode();
  if (mode === undefined || mode === "bypass") return undefined;
  const cls = modelClassName(model);
  const cacheName = modelClassName(own as object);
  if (mode === "replay_only") {
    const test = currentTest();
    for (let i = 0; i < requests; i++) emit({ type: "missed", kind, mode });
    return new VcrConfigError(
      `${cls} has a cache of its own (${cacheName}), ${stream ? "which LangChain does not look a stream up in" : "which had no answer for this call"}, so the call would reach the provider; under replay_only (${modeSource(recorder?.config?.mode)}) nothing may.\n` +
        (test?.title !== undefined ? `  test:     ${test.title}\n` : "") +
        `  The call was not made. vcr.install() records and replays a model with no cache, or with cache: true; a cache of the model's own is left alone, unrecorded.\n` +
        `  Fix it: in tests, build ${cls} without \`cache:\` (or with \`cache: true\`, LangChain's process-wide cache, which vcr.install() records like none), or give it \`cache: vcr.cache\`; ` +
        `then record the call: ${currentTestCommand()}. To keep it live on purpose, run it inside withVcr({ mode: "bypass" }, …).`,
    );
  }
  for (let i = 0; i < requests; i++) emit({ type: "bypassed", kind, mode, ownCache: true });
  if (!noted.has(cls)) {
    noted.add(cls);
    log.warn(
      `${cls} has a cache of its own (${cacheName}), so vcr.install() leaves it alone: ${stream ? "LangChain looks no stream up in it" : "its cache had no answer"}, and the call went to the provider unrecorded (counted as bypassed).\n` +
        `  Under replay_only (CI) the same call will be stopped. To record and replay it, build ${cls} without \`cache:\` in tests (or with \`cache: true\`), or give it \`cache: vcr.cache\`.`,
    );
  }
  return undefined;
}

/** A native stream of `model`, which has a cache of its own: thrown when stopped, else counted (`ownCacheLiveCall`). */
export function checkOwnCacheStream(model: { cache?: unknown }, kind: "chat" | "llm"): void {
  const stop = ownCacheLiveCall(model, kind, true);
  if (stop) throw stop;
}
