/**
 * Under jest's `--experimental-vm-modules`: when LangChain's ES modules are loaded into the test
 * file's ES-module registry (the test file's own imports, or an `import()` anywhere: a test, a
 * helper module, the app code), they are reached (`jestEsm.ts`) before the module that loaded them
 * is handed back: jest's loader of this test file (jest-runtime's `loadEsmModule` and
 * `linkAndEvaluateModule`: on the Runtime in jest 29, on its `esmLoader` in jest 30) is watched.
 * Measured before: a CommonJS test whose helper module imported ESM app code answered live under
 * replay_only, since nothing in the test file itself said it would load ES modules.
 *
 * The reach waits for the outer load to finish (linked and evaluated), so nothing is imported while
 * jest links ("… is not in cache"), and runs before the importer continues. Where the loader's
 * methods are not found (another jest), `watchEsmLoads` says so by returning false; the setup file
 * then reaches ahead of time for test files that may load ES modules (`jestWhen.ts`).
 */
import { processWide } from "../processWide";
import type { RuntimeLike } from "./jestRuntime";

type AsyncMethod = (this: unknown, ...args: unknown[]) => Promise<unknown>;
interface EsmLoaderLike {
  loadEsmModule: AsyncMethod;
  linkAndEvaluateModule: AsyncMethod;
}

const WATCHED = Symbol.for("langchain-vcr.jestEsmWatch.v1");
/** How many of langchain-vcr's own imports are under way (`ownImports`): a load they make never waits on a reach, which may be waiting on them. */
const own = processWide("jestEsmWatch.ownImports.v1", () => ({ depth: 0 }));

/**
 * Runs `load`, langchain-vcr's own imports (patching a copy of core for a string model,
 * `esmCoreLater.ts`; a reach, `jestEsm.ts`): what they bring in is not reached on their account
 * (the reach would wait on the very import that waits on it); a load of the test's after them is.
 */
export async function ownImports<T>(load: () => Promise<T>): Promise<T> {
  own.depth++;
  try {
    return await load();
  } finally {
    own.depth--;
  }
}
/** A LangChain package's module: `@langchain/<name>` or `langchain` in a node_modules. */
const LANGCHAIN_FILE = /[\\/]node_modules[\\/](@langchain[\\/][^\\/]+|langchain)[\\/]/;

/**
 * Watches the ES-module loader of `runtime`: `reach` runs after a load that brought in LangChain
 * (its rejection rejects that load), and `forget` after each registry reset (the next load brings
 * fresh copies). False when the loader cannot be watched.
 */
export function watchEsmLoads(runtime: RuntimeLike | undefined, reach: () => Promise<void> | undefined, forget: () => void): boolean {
  const loader = esmLoaderOf(runtime);
  if (!loader) return false;
  const marks = loader as unknown as Record<symbol, boolean>;
  if (marks[WATCHED]) return true;
  marks[WATCHED] = true;
  const reset = runtime?.resetModules;
  if (runtime && typeof reset === "function")
    Object.defineProperty(runtime, "resetModules", {
      configurable: true,
      writable: true,
      value: function (this: unknown, ...args: unknown[]): unknown {
        const out = reset.apply(this, args);
        forget();
        return out;
      },
    });
  const load = loader.loadEsmModule;
  const linkAndEvaluate = loader.linkAndEvaluateModule;
  let loaded = false;
  let reaching = false;
  define(loader, "loadEsmModule", function (this: unknown, ...args: unknown[]) {
    if (!reaching && typeof args[0] === "string" && LANGCHAIN_FILE.test(args[0])) loaded = true;
    return load.apply(this, args);
  });
  define(loader, "linkAndEvaluateModule", async function (this: unknown, ...args: unknown[]) {
    const module = await linkAndEvaluate.apply(this, args);
    if (loaded && !reaching && own.depth === 0) {
      loaded = false;
      reaching = true;
      try {
        await reach();
      } finally {
        reaching = false;
      }
    }
    return module;
  });
  return true;
}

function esmLoaderOf(runtime: RuntimeLike | undefined): EsmLoaderLike | undefined {
  const candidates = [(runtime as { esmLoader?: unknown } | undefined)?.esmLoader, runtime];
  return candidates.find(
    (c): c is EsmLoaderLike =>
      typeof c === "object" &&
      c !== null &&
      typeof (c as EsmLoaderLike).loadEsmModule === "function" &&
      typeof (c as EsmLoaderLike).linkAndEvaluateModule === "function",
  );
}

function define(target: object, name: keyof EsmLoaderLike, value: AsyncMethod): void {
  Object.defineProperty(target, name, { configurable: true, writable: true, value });
}
