/**
 * Under jest's `--experimental-vm-modules`: when LangChain's ES modules are loaded into the test
 * file's ES-module registry (the test file's own imports, or an `import()` anywhere: a test, a
 * helper module, the app code), they are reached (`jestEsm.ts`) before the load that brought them
 * is handed back. jest-runtime's `linkAndEvaluateModule` (on the Runtime in jest 29, on its
 * `esmLoader` in jest 30) is wrapped, and after each load the active registry's new entries
 * (jest 30: `registries.getActiveEsmRegistry()`; jest 29: `_isolatedModuleRegistry` or
 * `_esmoduleRegistry`) are looked at: a whole graph loaded in one go is seen too. Measured before:
 * a CommonJS test whose helper module imported ESM app code answered live under replay_only.
 *
 * The reach waits for the outer load to finish (linked and evaluated), so nothing is imported while
 * jest links ("… is not in cache"). A module's top-level code runs before the reach: the setup file
 * also reaches ahead of time, where jest 30 waits for it (`jest/index.ts`). Where the loader or its
 * registry is not found (another jest), `watchEsmLoads` returns false (`unwatchable` names what is
 * missing) and the setup file reaches in every test file, before its hooks and before each test.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { fileURLToPath } from "node:url";
import { processWide } from "../processWide";
import { replaceOwnMethod, type RuntimeLike } from "./jestRuntime";

type AsyncMethod = (this: unknown, ...args: unknown[]) => Promise<unknown>;
interface EsmLoaderLike {
  linkAndEvaluateModule: AsyncMethod;
}
type Registry = Map<string, unknown>;

const WATCHED = Symbol.for("langchain-vcr.jestEsmWatch.v2");
/** Marks langchain-vcr's own imports (`ownImports`), along their async chain: a load they make never waits on a reach, which may be waiting on them. */
const own = processWide("jestEsmWatch.own.v2", () => new AsyncLocalStorage<true>());

/**
 * Runs `load`, langchain-vcr's own imports (patching a copy of core for a string model,
 * `esmCoreLater.ts`; a reach, `jestEsm.ts`): what they bring in is not reached on their account
 * (the reach would wait on the very import that waits on it); a load of the test's is.
 */
export function ownImports<T>(load: () => Promise<T>): Promise<T> {
  return own.run(true, load);
}

/** A LangChain package's module: `@langchain/<name>` or `langchain` in a node_modules. */
const LANGCHAIN_FILE = /[\\/]node_modules[\\/](@langchain[\\/][^\\/]+|langchain)[\\/]/;

/**
 * Watches the ES-module loads of `runtime`: after a load (not one of langchain-vcr's own) that
 * brought LangChain's files into the active registry, `reach(files)` runs before the load is handed
 * back (its rejection rejects the load), once per registry: again after jest cleared it
 * (`resetModules`, teardown) or swapped it (`isolateModules`), with `forget()` first. Loads that end
 * while a reach is under way wait for it. False when the loader or its registry cannot be found.
 */
export function watchEsmLoads(runtime: RuntimeLike | undefined, reach: (files: readonly string[]) => Promise<void> | undefined, forget: () => void): boolean {
  if (unwatchable(runtime)) return false;
  const loader = esmLoaderOf(runtime)!;
  const marks = loader as unknown as Record<symbol, boolean>;
  if (marks[WATCHED]) return true;
  marks[WATCHED] = true;
  const linkAndEvaluate = loader.linkAndEvaluateModule;
  /**
   * Per registry: how many of its entries were looked at, whether it was reached, and one entry as
   * it was then (a registry cleared and filled again holds the same keys, with new modules).
   */
  const seen = new WeakMap<Registry, { looked: number; reached: boolean; probe?: [string, unknown] }>();
  const cleared = (registry: Registry, probe: [string, unknown] | undefined) =>
    registry.size === 0 || (probe !== undefined && registry.get(probe[0]) !== probe[1]);
  let lastReached: Registry | undefined;
  let inFlight: Promise<void> | undefined;
  const afterLoad = async (): Promise<void> => {
    if (inFlight) return inFlight;
    const registry = activeRegistry(runtime);
    if (!registry) return;
    let state = seen.get(registry);
    if (!state || registry.size < state.looked || cleared(registry, state.probe)) seen.set(registry, (state = { looked: 0, reached: false })); // new, or cleared
    if (!state.probe) {
      const first = registry.keys().next();
      if (!first.done) state.probe = [first.value, registry.get(first.value)];
    }
    if (state.reached) return void (state.looked = registry.size);
    const files = [...registry.keys()]
      .slice(state.looked)
      .map(filePath)
      .filter((f): f is string => f !== undefined && LANGCHAIN_FILE.test(f));
    state.looked = registry.size;
    if (!files.length) return;
    state.reached = true;
    if (lastReached) forget(); // a cleared or another registry: fresh copies
    lastReached = registry;
    inFlight = Promise.resolve(reach(files)).finally(() => (inFlight = undefined));
    return inFlight;
  };
  replaceOwnMethod(loader, "linkAndEvaluateModule", async function (this: unknown, ...args: unknown[]) {
    const module = await linkAndEvaluate.apply(this, args);
    if (!own.getStore()) await afterLoad();
    return module;
  });
  return true;
}

/** What of jest's the watch needs and this process lacks (jestEsmWatch cannot watch), or undefined when nothing is missing. */
export function unwatchable(runtime: RuntimeLike | undefined): string | undefined {
  if (!runtime) return "runtime (jest-runtime's Runtime.prototype.requireModule)";
  if (!esmLoaderOf(runtime)) return "ES-module loader (linkAndEvaluateModule on the Runtime or on its esmLoader)";
  if (!activeRegistry(runtime)) return "active ES-module registry (registries.getActiveEsmRegistry(), _esmoduleRegistry)";
  return undefined;
}

/** The test file's active ES-module registry: jest 30's `registries.getActiveEsmRegistry()`, jest 29's `_isolatedModuleRegistry ?? _esmoduleRegistry`. */
function activeRegistry(runtime: RuntimeLike | undefined): Registry | undefined {
  const r = runtime as { registries?: { getActiveEsmRegistry?: () => unknown }; _isolatedModuleRegistry?: unknown; _esmoduleRegistry?: unknown } | undefined;
  let registry: unknown;
  try {
    registry =
      typeof r?.registries?.getActiveEsmRegistry === "function" ? r.registries.getActiveEsmRegistry() : (r?._isolatedModuleRegistry ?? r?._esmoduleRegistry);
  } catch {
    return undefined;
  }
  // a Map of jest's own realm, not of the test file's (instanceof Map is false there)
  const map = registry as Registry | undefined;
  return typeof map?.keys === "function" && typeof map.size === "number" ? map : undefined;
}

function esmLoaderOf(runtime: RuntimeLike | undefined): EsmLoaderLike | undefined {
  const candidates = [(runtime as { esmLoader?: unknown } | undefined)?.esmLoader, runtime];
  return candidates.find((c): c is EsmLoaderLike => typeof c === "object" && c !== null && typeof (c as EsmLoaderLike).linkAndEvaluateModule === "function");
}

/** A registry key as a file path: jest 30 keys by file URL, jest 29 by path (either with a query). */
function filePath(key: unknown): string | undefined {
  if (typeof key !== "string") return undefined;
  const bare = key.replace(/[?#].*$/, "");
  try {
    return bare.startsWith("file:") ? fileURLToPath(bare) : bare;
  } catch {
    return undefined;
  }
}
