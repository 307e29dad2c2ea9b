/**
 * A CommonJS process can hold a second, ESM copy of @langchain/core: `initChatModel()` (and
 * so `createAgent({ model: "openai:…" })`) loads provider packages with `import()`, and an
 * ESM provider's models extend the ESM copy's classes. The CommonJS entry patches only the
 * CommonJS copy at import (loading the ESM copy costs 200-450 ms), so `vcr.install()` patches
 * the ESM copy too: it loads core's ESM files with `require()` (Node 20.19+ loads ES modules
 * that way, into the same module map `import()` uses, so a later `import()` gets these very
 * patched classes). Where `require()` cannot (an older Node, jest's loader), `import()` loads it
 * later, before initChatModel builds its first model (`configurableModel.ts`).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { assertCoreUsable } from "../internals/state";
import { processWide } from "../processWide";
import { patchCoreCopy, type PatchableCore } from "../patches";
import { log } from "../log";
import { exportedFile } from "./packageJson";

const FILES: readonly [keyof PatchableCore, string][] = [
  ["BaseChatModel", "./language_models/chat_models"],
  ["BaseLLM", "./language_models/llms"],
  ["StructuredTool", "./tools"],
  ["Embeddings", "./embeddings"],
  ["AIMessageChunk", "./messages"],
  ["ChatGenerationChunk", "./outputs"],
];

const once = processWide("esmCore.v1", () => ({ done: false }));

/** The ESM copy of core that `require()` could not load, and why. */
export interface UnloadedEsmCore {
  coreDir: string;
  cause: string;
}

/**
 * Patches the ESM copy of core, once per process; what it could not load (a Node before 20.19,
 * jest's module loader), for `import()` to load later (`configurableModel.ts`).
 */
export function patchEsmCore(): UnloadedEsmCore | undefined {
  if (once.done) return undefined;
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
    return { coreDir, cause: (e as Error).message.split("\n")[0] };
  }
  patchedAt.add(copyKey(coreDir, "import")); // an integration over this very copy finds it patched (patchCoreAt)
  patchCoreCopy(core);
  return undefined;
}

const later = processWide("esmCoreLater.v1", () => new Map<string, Promise<void>>());

/**
 * Loads the ESM copy of core in `coreDir` with `import()`, which reaches it where `require()`
 * could not (jest's ESM registry under --experimental-vm-modules, a Node before 20.19), and
 * patches it: once per process (under jest, per test file: its registry and its globals are the
 * file's own). Rejects when it cannot be loaded, or lacks an internal (the VcrConfigError).
 */
export function patchEsmCoreLater(coreDir: string): Promise<void> {
  let done = later.get(coreDir);
  if (!done) later.set(coreDir, (done = loadAndPatchLater(coreDir)));
  return done;
}

async function loadAndPatchLater(coreDir: string): Promise<void> {
  const entries: [string, unknown][] = [];
  // one after another: jest links modules that concurrent imports share badly ("… is not in cache")
  for (const [name, subpath] of FILES) {
    const file = exportedFile(coreDir, subpath, "import");
    if (!file) throw new Error(`@langchain/core exports no ESM file for ${subpath}`);
    // jest's resolver takes a path; Node's import() takes a URL (a bare Windows path is none)
    const specifier = process.env.JEST_WORKER_ID !== undefined ? file : pathToFileURL(file).href;
    entries.push([name, ((await import(specifier)) as Record<string, unknown>)[name]]);
  }
  const key = copyKey(coreDir, "import");
  if (patchedAt.has(key)) return;
  patchedAt.add(key);
  patchCoreCopy(Object.fromEntries(entries) as unknown as PatchableCore);
  assertCoreUsable(); // a copy that lacks an internal is not patched: its models would go live
}

/** Under jest without `--experimental-vm-modules`, where no `import()` works (a provider package's included). */
export function jestCannotImport(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): boolean {
  return env.JEST_WORKER_ID !== undefined && !`${execArgv.join(" ")} ${env.NODE_OPTIONS ?? ""}`.includes("--experimental-vm-modules");
}

/**
 * What to say when the ESM copy of core could not be loaded, and langchain's ConfigurableModel
 * could not be wrapped to load it later (`configurableModel.ts`): the cause is Node (before 20.19 or
 * 22.12, `require()` cannot load ES modules) or the module loader in use (jest's). Nothing under
 * jest without `--experimental-vm-modules`: there jest cannot `import()` a provider package
 * either, so initChatModel fails with jest's own error and no string model can call out.
 */
export function esmCoreNote(cause: string, nodeVersion: string, env: NodeJS.ProcessEnv, execArgv: readonly string[]): string | undefined {
  const jest = env.JEST_WORKER_ID !== undefined;
  if (jestCannotImport(env, execArgv)) return undefined;
  const [major, minor] = nodeVersion.replace(/^v/, "").split(".").map(Number);
  const nodeCan = major > 22 || (major === 22 && minor >= 12) || (major === 20 && minor >= 19);
  const where = nodeCan ? `under ${jest ? "jest's module loader" : "this process's module loader (not Node's own require)"}` : `on this Node (${nodeVersion})`;
  const fix = nodeCan ? "pass the model object itself" : "use Node 20.19+ (or 22.12+ on Node 22), or pass the model object itself";
  return (
    `note: vcr.install() could not load the ESM copy of @langchain/core (${cause}).\n` +
    `  Models that providers build from ES modules (initChatModel, createAgent with a "provider:model" string) are not recorded ${where}.\n` +
    `  Fix it: ${fix}: createAgent({ model: new ChatOpenAI({ …, cache: vcr.cache }) }).\n`
  );
}

/** The ESM file a package's package.json exports for `subpath` (its "import" condition), as langchain-vcr resolves the package. */
export function esmFile(pkgName: string, subpath: string): string {
  const file = exportedFile(path.dirname(require.resolve(`${pkgName}/package.json`)), subpath, "import");
  if (!file) throw new Error(`${pkgName} exports no ESM file for ${subpath}`);
  return file;
}

/** Copies of core patched here (`patchEsmCore`, `patchCoreAt`), by real directory and module system. */
const patchedAt = processWide("coreCopies.v1", () => new Set<string>());

function copyKey(coreDir: string, condition: "import" | "require"): string {
  return `${coreDir}|${condition}`;
}

/** The classes `patchCoreCopy` needs, from the copy of core in `coreDir`, loaded as `condition` says. */
function loadCore(coreDir: string, condition: "import" | "require"): PatchableCore {
  return quietly(() =>
    Object.fromEntries(
      FILES.map(([name, subpath]) => {
        const file = exportedFile(coreDir, subpath, condition);
        if (!file) throw new Error(`@langchain/core exports no ${condition === "import" ? "ESM" : "CommonJS"} file for ${subpath}`);
        return [name, (require(file) as Record<string, unknown>)[name]];
      }),
    ),
  ) as unknown as PatchableCore;
}

/**
 * Patches the copy of core in `coreDir` (an integration's own, when it is not langchain-vcr's:
 * another version in a pnpm store), loaded as `condition` says, so its models are recorded and
 * its Embeddings subclasses are recognised. A copy that cannot be loaded is named in a note:
 * what is built on it is not reached.
 */
export function patchCoreAt(coreDir: string, condition: "import" | "require", usedBy: string): void {
  const key = copyKey(coreDir, condition);
  if (patchedAt.has(key)) return;
  patchedAt.add(key);
  let core: PatchableCore;
  try {
    core = loadCore(coreDir, condition);
  } catch (e) {
    log.warn(
      `note: vcr.install() could not load the copy of @langchain/core in ${coreDir}, which ${usedBy} uses (${(e as Error).message.split("\n")[0]}).\n` +
        `  What is built on that copy is not recorded. Fix it: wrap those models and embeddings explicitly (cache: vcr.cache, vcr.embeddings()).\n`,
    );
    return;
  }
  patchCoreCopy(core);
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
