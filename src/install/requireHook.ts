/**
 * `vcr.install()` in CommonJS: what `require()` has loaded and will load.
 *
 * - Copies of @langchain/core: the entry patches the copy langchain-vcr resolves; a package may
 *   bring its own (a pnpm store holding another version, a nested node_modules), and its models
 *   would call the provider unrecorded. Every copy with a CommonJS module in `require.cache` is
 *   patched at install(), and every copy a module requires by name while a Vcr is installed is
 *   patched before that `require` returns. A copy that lacks a relied-on internal is the
 *   VcrConfigError naming it: thrown by install(), or by the `require` that loads it.
 * - Embeddings classes: every loaded module's exports, and every required module's while a Vcr
 *   is installed, are handed to the embeddings scan (`embeddings.ts`).
 *
 * Under jest, `require` is jest's own registry, not `Module._load`: `jestRegistry.ts` does both.
 */
import Module from "node:module"; // the module object itself (its _load is replaced); also compiles as an ES module
import * as fs from "node:fs";
import * as path from "node:path";
import { installedVcr } from "../internals/state";
import { scanExports } from "./embeddings";
import { patchCoreAt } from "./esmCore";
import { dirResolvedFrom } from "./packageDirs";

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const loader = Module as unknown as { _load: Load };
/** Our wrapper of `Module._load` and the function it wraps, while it is in place. */
let hook: { wrapper: Load; wrapped: Load } | undefined;

/** A CommonJS file of a copy of core: its directory is the part up to `@langchain/core`. */
const CORE_FILE = /^(.*[\\/]@langchain[\\/]core)[\\/].*\.cjs$/;

/**
 * Patches every copy of core `require.cache` holds a CommonJS module of; the first error of a copy
 * that cannot be patched (install() throws it: `assertCoreUsable`).
 */
export function patchLoadedCoreCopies(): void {
  const dirs = new Set<string>();
  for (const file of Object.keys(require.cache)) {
    const m = CORE_FILE.exec(file);
    if (m) dirs.add(m[1]);
  }
  for (const dir of dirs) patchCoreAt(realDir(dir), "require", "a module loaded before install()");
}

/** Wraps the Embeddings classes of every loaded CommonJS module, and (as every copy of core) of every one required from now on. */
export function startRequireHook(): void {
  for (const m of Object.values(require.cache)) if (m) scanExports(m.exports);
  if (hook) return;
  const wrapped = loader._load;
  const wrapper: Load = function (this: unknown, request: string, parent: unknown, isMain: boolean) {
    const exports = wrapped.call(this, request, parent, isMain);
    if (installedVcr()) {
      if (request.startsWith("@langchain/core")) patchCopyRequiredBy(parent);
      scanExports(exports);
    }
    return exports;
  };
  loader._load = wrapper;
  hook = { wrapper, wrapped };
}

/**
 * Takes the wrapper out again, unless something wrapped `Module._load` after us (a mocking
 * library): then ours stays, idle (it acts only while a Vcr is installed), so theirs keeps working.
 */
export function stopRequireHook(): void {
  if (!hook || loader._load !== hook.wrapper) return;
  loader._load = hook.wrapped;
  hook = undefined;
}

/** Directories of requiring modules whose copy of core is patched (a copy is loaded once per directory). */
const seenFrom = new Set<string>();

function patchCopyRequiredBy(parent: unknown): void {
  const file = (parent as { filename?: unknown } | null | undefined)?.filename;
  if (typeof file !== "string") return;
  const from = path.dirname(file);
  if (seenFrom.has(from)) return;
  seenFrom.add(from);
  const coreDir = dirResolvedFrom(from, "@langchain/core");
  if (!coreDir) return;
  const broken = patchCoreAt(coreDir, "require", file);
  if (broken) throw broken; // the require fails: what is built on that copy would reach the provider
}

function realDir(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}
