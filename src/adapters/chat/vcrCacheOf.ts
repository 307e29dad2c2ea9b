/**
 * Which VcrCache answers a model's calls: its own `cache` when that is a VcrCache; else,
 * while `vcr.install()` is in force, the installed Vcr's — for a model with no cache at all
 * (core stores `cache: false` as unset), or with `cache: true`, which core stores as its
 * process-wide `InMemoryCache.global()` (app code asking for caching, not a cache a test set
 * up). A model with any other `BaseCache` is left alone, as is a test double (`install/testDouble.ts`).
 */
import { installedVcr } from "../../internals/state";
import { warnIfUninstalledInThisFile } from "../../install/afterUninstall";
import { isTestDouble } from "../../install/testDouble";

const VCR_CACHE = Symbol.for("langchain-vcr.cache");

export function isVcrCache(x: unknown): boolean {
  return typeof x === "object" && x !== null && (x as Record<symbol, unknown>)[VCR_CACHE] === true;
}

export function brandVcrCache(cache: object): void {
  Object.defineProperty(cache, VCR_CACHE, { value: true });
}

/** The VcrCache that answers `model`, or undefined when langchain-vcr leaves it alone. */
export function vcrCacheOf(model: { cache?: unknown }): object | undefined {
  const own = model.cache;
  if (isVcrCache(own)) return own as object;
  const installed = installedVcr();
  if (own !== undefined && own !== null && own !== false) {
    // a cache of the model's own: only cache: true counts as none, and only while a Vcr is installed (no lookup otherwise)
    return installed && isCoreGlobalCache(own) && !isTestDouble(model) ? installed.cache : undefined;
  }
  if (!installed) warnIfUninstalledInThisFile("model", model.constructor.name);
  return installed && !isTestDouble(model) ? installed.cache : undefined;
}

/** True when `cache` (a VcrCache) runs in `bypass` mode now: live on purpose, so no guard stops its calls. */
export function bypassing(cache: object): boolean {
  return (cache as { recorder?: { mode(): string } }).recorder?.mode() === "bypass";
}

/** Core's `InMemoryCache.global()`, which `cache: true` stands for: an InMemoryCache over the process-wide map its class's `global()` uses. */
function isCoreGlobalCache(cache: unknown): boolean {
  const cls = (cache as { constructor?: { name?: string; global?: () => { cache?: unknown } } }).constructor;
  if (cls?.name !== "InMemoryCache" || typeof cls.global !== "function") return false;
  const map = (cache as { cache?: unknown }).cache;
  let global = globalMaps.get(cls);
  if (global === undefined) globalMaps.set(cls, (global = cls.global().cache)); // global() builds a new instance over the one map
  return map !== undefined && map === global;
}
/** Each copy of core's InMemoryCache class → the map its `global()` instances share. */
const globalMaps = new WeakMap<object, unknown>();
