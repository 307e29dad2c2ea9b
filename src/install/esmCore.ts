/**
 * A CommonJS process can hold a second, ESM copy of @langchain/core: `initChatModel()` (and
 * so `createAgent({ model: "openai:…" })`) loads provider packages with `import()`, and an
 * ESM provider's models extend the ESM copy's classes. The CommonJS entry patches only the
 * CommonJS copy at import (loading the ESM copy costs 200-450 ms), so `vcr.install()` patches
 * the ESM copy too: it loads core's ESM files with `require()` (Node 20.19+ loads ES modules
 * that way, into the same module map `import()` uses, so a later `import()` gets these very
 * patched classes). Where `require()` cannot (an older Node, jest's loader, a loader such as
 * tsx that compiles it to CommonJS), `import()` loads it (`esmCoreFallback.ts`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { types } from "node:util";
import { processWide } from "../processWide";
import { patchCoreCopy, type PatchableCore } from "../patches";
import { exportedFile } from "./packageJson";

/** The classes `patchCoreCopy` needs, and the file of core that exports each. */
export const FILES: readonly [keyof PatchableCore, string][] = [
  ["BaseChatModel", "./language_models/chat_models"],
  ["BaseLLM", "./language_models/llms"],
  ["StructuredTool", "./tools"],
  ["DynamicStructuredTool", "./tools"],
  ["RunnableToolLike", "./runnables"],
  ["Embeddings", "./embeddings"],
  ["AIMessageChunk", "./messages"],
  ["ChatGenerationChunk", "./outputs"],
];

/** Whether `patchEsmCore` has run in this process, and what it could not load (kept: every install() needs it). */
const once = processWide("esmCore.v2", () => ({ done: false, unloaded: undefined as UnloadedEsmCore | undefined }));

/** The ESM copy of core that `require()` could not load, and why. */
export interface UnloadedEsmCore {
  coreDir: string;
  cause: string;
}

/**
 * Patches the ESM copy of core, once per process; what it could not load (a Node before 20.19,
 * jest's module loader), for `import()` to load later (`esmCoreFallback.ts`), on every call.
 */
export function patchEsmCore(): UnloadedEsmCore | undefined {
  if (once.done) return once.unloaded;
  once.done = true;
  let coreDir: string;
  try {
    coreDir = fs.realpathSync(path.dirname(require.resolve("@langchain/core/package.json")));
  } catch {
    return undefined; // no core to patch: `new Vcr()` has said so already
  }
  let core: PatchableCore;
  try {
    core = loadCore(coreDir, "import");
  } catch (e) {
    return (once.unloaded = { coreDir, cause: (e as Error).message.split("\n")[0] });
  }
  claimCopy(coreDir, "import"); // an integration over this very copy finds it patched (patchCoreAt)
  patchCoreCopy(core);
  return undefined;
}

/** Whether this Node's `require()` loads ES modules (20.19+ on 20, 22.12+ on 22, and every later major). */
export function nodeRequiresEsm(nodeVersion: string = process.version): boolean {
  const [major, minor] = nodeVersion.replace(/^v/, "").split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
}

/** The ESM file a package's package.json exports for `subpath` (its "import" condition), as langchain-vcr resolves the package. */
export function esmFile(pkgName: string, subpath: string): string {
  const file = exportedFile(path.dirname(require.resolve(`${pkgName}/package.json`)), subpath, "import");
  if (!file) throw new Error(`${pkgName} exports no ESM file for ${subpath}`);
  return file;
}

/** Copies of core patched here (`patchEsmCore`, `patchCoreAt`, `patchEsmCoreLater`), by real directory and module system. */
const patchedAt = processWide("coreCopies.v1", () => new Set<string>());

/** Claims the copy of core in `coreDir`, loaded as `condition` says, for patching: false when it is claimed already. */
export function claimCopy(coreDir: string, condition: "import" | "require"): boolean {
  const key = copyKey(coreDir, condition);
  if (patchedAt.has(key)) return false;
  patchedAt.add(key);
  return true;
}

function copyKey(coreDir: string, condition: "import" | "require"): string {
  return `${coreDir}|${condition}`;
}

/** The classes `patchCoreCopy` needs, from the copy of core in `coreDir`, loaded as `condition` says. */
export function loadCore(coreDir: string, condition: "import" | "require"): PatchableCore {
  return quietly(() =>
    Object.fromEntries(
      FILES.map(([name, subpath]) => {
        const file = exportedFile(coreDir, subpath, condition);
        if (!file) throw new Error(`@langchain/core exports no ${condition === "import" ? "ESM" : "CommonJS"} file for ${subpath}`);
        const loaded = require(file) as Record<string, unknown>;
        if (condition === "import") assertEsModule(loaded, file);
        return [name, loaded[name]];
      }),
    ),
  ) as unknown as PatchableCore;
}

/** Whether `require()` of an ES module gave its module namespace, not a loader's CommonJS copy of it. */
export function isEsModule(loaded: unknown): boolean {
  return types.isModuleNamespaceObject(loaded);
}

/**
 * Throws unless `require()` of the ES module `file` gave its module namespace: a loader that
 * compiles ES modules to CommonJS on `require()` (tsx registered before install()) hands back a
 * copy of its own, whose classes are not the ones an `import` gets, so patching it would leave
 * the real ones live. The caller then takes the `import()` route.
 */
export function assertEsModule(loaded: unknown, file: string): void {
  if (!isEsModule(loaded)) {
    throw new Error(`require() of ${file} gave a CommonJS copy, not the ES module (a loader such as tsx compiles it on require)`);
  }
}

/** Runs `fn` without Node's one-time "require() of an ES module is experimental" warning. */
export function quietly<T>(fn: () => T): T {
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === "string" ? warning : warning?.message;
    if (/ES Module|require\(\)/i.test(String(text))) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    return fn();
  } finally {
    process.emitWarning = emit;
  }
}
