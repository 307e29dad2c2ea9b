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
import { factsOfModule, factsOfRequest, type LoadedModule, type ModuleFacts } from "./ownCode";
import { patchLoadedCopy } from "./coreCopies";
import { dirResolvedFrom } from "./packageDirs";

type Load = (request: string, parent: unknown, isMain: boolean) => unknown;
const loader = Module as unknown as { _load: Load };
/** Our wrapper of `Module._load` and the function it wraps, while it is in place. */
let hook: { wrapper: Load; wrapped: Load } | undefined;

/** A CommonJS file of a copy of core: its directory is the part up to `@langchain/core`. */
const CORE_FILE = /^(.*[\\/]@langchain[\\/]core)[\\/].*\.cjs$/;

/**
 * Patches every copy of core `require.cache` holds a CommonJS module of; a copy that cannot be
 * patched is kept as the error install() throws (`assertCoreUsable`).
 */
export function patchLoadedCoreCopies(): void {
  const dirs = new Set<string>();
  for (const file of Object.keys(require.cache)) {
    const m = CORE_FILE.exec(file);
    if (m) dirs.add(m[1]);
  }
  for (const dir of dirs) patchLoadedCopy(realDir(dir), () => userOf(dir) ?? "a module loaded before install()");
}

/** Wraps the Embeddings classes of every loaded CommonJS module, and (as every copy of core) of every one required from now on. */
export function startRequireHook(): void {
  for (const m of Object.values(require.cache)) if (m) scanExports(m.exports, () => factsOfModule(m));
  // in place already; or put back: another library (a stub's restore) may have set Module._load to what it found before ours
  if (hook && loader._load === hook.wrapper) return;
  const wrapped = loader._load;
  const wrapper: Load = function (this: unknown, request: string, parent: unknown, isMain: boolean) {
    const exports = wrapped.call(this, request, parent, isMain);
    if (installedVcr()) {
      if (request.startsWith("@langchain/core")) patchCopyRequiredBy(parent);
      scanExports(exports, () => factsOf(exports, request, parent));
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

/** The real directory of the copy of core each directory of requiring modules resolves (`null`: none). */
const coreDirFrom = new Map<string, string | null>();

/** Patches the copy of core `parent` (a module requiring core by name) resolves; throws its error (the require fails) when it cannot be. */
function patchCopyRequiredBy(parent: unknown): void {
  const file = (parent as { filename?: unknown } | null | undefined)?.filename;
  if (typeof file !== "string") return;
  const from = path.dirname(file);
  let coreDir = coreDirFrom.get(from);
  if (coreDir === undefined) coreDirFrom.set(from, (coreDir = dirResolvedFrom(from, "@langchain/core") ?? null));
  if (coreDir === null) return;
  const broken = patchLoadedCopy(coreDir, file);
  if (broken) throw broken; // what is built on that copy would reach the provider
}

/**
 * The module `request` loaded for `parent`: Node lists it among the parent's children, which
 * gives its real file (through an alias such as tsconfig `paths` too) and whether it is still
 * loading (a require cycle). Without a parent (a module required from nowhere), the request is resolved.
 */
function factsOf(exports: unknown, request: string, parent: unknown): ModuleFacts {
  const p = parent as { filename?: unknown; children?: LoadedModule[] } | null | undefined;
  const children = Array.isArray(p?.children) ? p.children : [];
  for (let i = children.length - 1; i >= 0; i--) if (children[i]?.exports === exports) return factsOfModule(children[i]);
  return factsOfRequest(request, p?.filename, require.cache);
}

/** A loaded module outside the copy of core in `dir` that required one of its files: who uses that copy. */
function userOf(dir: string): string | undefined {
  const inside = dir + path.sep;
  for (const [file, m] of Object.entries(require.cache)) {
    if (!m || file.startsWith(inside)) continue;
    if (m.children?.some((c) => c.filename.startsWith(inside))) return file;
  }
  return undefined;
}

const realDirs = new Map<string, string>();

function realDir(dir: string): string {
  let real = realDirs.get(dir);
  if (real === undefined) {
    try {
      real = fs.realpathSync(dir);
    } catch {
      real = dir;
    }
    realDirs.set(dir, real);
  }
  return real;
}
