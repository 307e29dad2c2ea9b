/**
 * Embeddings classes that no `require.cache` shows (see `embeddings.ts`):
 * - a process that loads LangChain as ES modules (an ESM test file, vitest, which loads
 *   dependencies as ES modules): `install()` loads the ESM entry of each integration below
 *   that the project has installed, with `require()` (Node 20.19+ loads ES modules that way,
 *   into the module map `import` uses, so the test's own import gets the very same classes);
 * - jest, which runs every module through its own registry (a fresh one per test file, not
 *   Node's `require.cache`): `install()` requires each installed integration through that
 *   registry, which hands the test file the same module.
 * The Embeddings classes they export are wrapped. An integration missing from this list, or
 * one that cannot be loaded this way, is not reached: wrap its embeddings with `vcr.embeddings()`.
 */
import { embeddingsPrototypes, scanExports } from "./embeddings";
import { embeddingsFiles, learnEmbeddingsFiles } from "./embeddingsFiles";
import * as path from "node:path";
import { pathToFileURL } from "node:url";
import { isEsModule, quietly } from "./esmCore";
import { patchCoreAt } from "./coreCopies";
import { esmCoresSettled } from "./esmCoreLater";
import { exportedFile } from "./packageJson";
import { dirResolvedFrom } from "./packageDirs";
import { processWide } from "../processWide";
import { trackInstallWork } from "./pending";
import { KNOWN_INTEGRATIONS } from "./knownPackages";
import { knownCopies } from "./knownCopies";

const done = processWide("integrations.v1", () => new Set<"esm" | "cjs">());

/**
 * `esm`: load each integration's ESM entry; `cjs`: require it (through the runner's registry, if
 * it has one: its own resolution first, so moduleNameMapper and export conditions hold). Every
 * installed copy the project has (`packageDirs`), not only the one langchain-vcr itself would
 * resolve, each over its own copy of core (patched too when it is another one): an embeddings
 * class left unwrapped would make live calls under replay_only.
 */
export function wrapKnownIntegrations(kind: "esm" | "cjs"): void {
  if (done.has(kind)) return;
  done.add(kind);
  const condition = kind === "esm" ? "import" : "require";
  // ES modules: nothing sees what they load, so each workspace package's copies too (CommonJS: the require hooks patch a copy as it loads)
  const copies = knownCopies({ workspaces: kind === "esm" });
  for (const { name, dir } of copies.filter((c) => !c.integration)) patchCoreUnder(name, dir, condition);
  for (const name of KNOWN_INTEGRATIONS) {
    const targets = new Set<string>();
    if (kind === "cjs") {
      try {
        targets.add(require.resolve(name));
      } catch {
        // not resolvable from here: the copies below
      }
    }
    for (const { dir } of copies.filter((c) => c.name === name)) {
      patchCoreUnder(name, dir, condition);
      const file = exportedFile(dir, ".", condition);
      if (file && ![...targets].some((t) => t.startsWith(dir + path.sep))) targets.add(file);
    }
    for (const target of targets) {
      const dir = copies.find((c) => c.name === name && target.startsWith(c.dir + path.sep))?.dir;
      // the files that hold its Embeddings classes, where learned (embeddingsFiles.ts): not the whole entry
      const files = dir ? embeddingsFiles(dir, target) : undefined;
      if (files && files.every((f) => found(reach(f, condition)))) continue;
      const loaded = reach(target, condition);
      if (dir && loaded !== "later") learnEmbeddingsFiles(dir, target, loaded.exports, (f) => loadedAs(f, condition));
    }
  }
}

type Reached = { exports: unknown; found: boolean } | "later";

/** A learned file gave Embeddings classes (or is left to `import()`): a file that gives none means the entry is loaded. */
const found = (r: Reached) => r === "later" || r.found;

/**
 * Loads `file` with `require()` and wraps the Embeddings classes it exports: its exports, and
 * whether it exports any; "later" when only `import()` can give the classes an `import` gets
 * (scanned when it resolves).
 */
function reach(file: string, condition: "import" | "require"): Reached {
  let loaded: unknown;
  try {
    loaded = loadedAs(file, condition);
  } catch {
    // not loadable by require() (an older Node, vitest's VM pools), or a copy of its own (tsx): import() may load it
    if (condition === "import") scanLater(file);
    return "later";
  }
  scanExports(loaded);
  return { exports: loaded, found: embeddingsPrototypes(loaded).size > 0 };
}

/** `file` as `require()` gives it; for an ES module, its namespace (else throws: `import()` gives other classes). */
function loadedAs(file: string, condition: "import" | "require"): unknown {
  const loaded = quietly(() => require(file) as unknown);
  if (condition === "import" && !isEsModule(loaded)) throw new Error(`require() gave no ES module namespace for ${file}`);
  return loaded;
}

/**
 * The ESM entry `file`, loaded with `import()` and scanned when it resolves: `require()` gave a
 * CommonJS copy of it (a loader such as tsx compiles ES modules on require), whose classes are
 * not the ones the test's `import` gets, or could not load it (vitest's VM pools). The test's import shares that load, so the scan is done
 * before a test runs (not before code at the top of the importing module runs).
 */
function scanLater(file: string): void {
  // after the copies of core under way (their Embeddings is what the scan knows a class by): scanned
  // before them, it found no class, wrapped nothing, and never looked again (a user trial under Yarn PnP)
  const scanned = Promise.all([import(pathToFileURL(file).href), esmCoresSettled()]).then(([loaded]) => scanExports(loaded));
  trackInstallWork(
    scanned.catch(() => {
      // not loadable by import() either: not reached, as documented
    }),
    file,
  );
}

/** Patches the copy of core the copy of `name` in `dir` resolves. */
function patchCoreUnder(name: string, dir: string, condition: "import" | "require"): void {
  const own = dirResolvedFrom(dir, "@langchain/core");
  if (own) patchCoreAt(own, condition, `${name} in ${dir}`);
}
