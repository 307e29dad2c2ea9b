/**
 * jest with `--experimental-vm-modules`: ES modules (an ESM test file, ESM app code a test
 * loads with `import()`) run on jest's own ES-module copies of LangChain, in a registry of the
 * test file's own that no `require` reaches. When they are loaded there (`jestEsmWatch.ts`), the
 * copies of @langchain/core the project has are loaded with `import()` and patched, and the known
 * integrations' ESM entries loaded and their Embeddings classes wrapped, one after another (jest
 * links modules that concurrent imports share badly: "… is not in cache"): the very modules the
 * test's code got. Measured before: an ESM test file's ChatOpenAI and OpenAIEmbeddings answered
 * live under replay_only, with a CommonJS setup file calling install().
 *
 * The setup file `langchain-vcr/jest` starts it, never while jest links a module's imports. It
 * costs about 0.1–0.3 s per test file that loads LangChain's ES modules (mostly the known
 * integrations it would not load otherwise). Where jest's loader cannot be watched, the setup file
 * reaches in every test file, before its hooks and before each test (`jest/index.ts`).
 */
import * as path from "node:path";
import { isVcrError } from "../errors";
import { log } from "../log";
import { embeddingsPrototypes, scanExports } from "./embeddings";
import { embeddingsFiles, learnEmbeddingsFilesLater } from "./embeddingsFiles";
import { jestMayLoadEsm } from "./jestWhen";
import { ownImports } from "./jestEsmWatch";
import { patchEsmCoreLater } from "./esmCoreLater";
import { reached } from "./jestEsmState";
import { KNOWN_INTEGRATIONS } from "./knownPackages";
import { knownCopies } from "./knownCopies";
import { exportedFile } from "./packageJson";
import { dirResolvedFrom, realDir } from "./packageDirs";

/**
 * Starts reaching jest's ES-module copies when `testPath` may load ES modules, `always` (jest's
 * loads cannot be watched: any test file may load them, through a helper module's `import()`), or
 * `loaded` lists LangChain's files just loaded (`jestEsmWatch.ts`: the copies they belong to are
 * reached too, wherever they are installed); once per test file, and again after a registry
 * reset. The work, or undefined when there is nothing to do. It rejects with the VcrConfigError
 * of a copy of core that lacks a relied-on internal; a copy or an integration that cannot be
 * imported is a warning.
 */
export function reachJestEsm(
  testPath: string | undefined,
  { loaded, always = false }: { loaded?: readonly string[]; always?: boolean } = {},
): Promise<void> | undefined {
  if (reached.work) return reached.work;
  if (!loaded && !always && !jestMayLoadEsm(testPath)) return undefined;
  return (reached.work = ownImports(() => reach(testPath ?? "this test file", (reached.cores = []), loaded ?? [])));
}

/** Every copy is tried (one after another); the first VcrConfigError is thrown once all were. `patched`: the copies patched, for a reset to forget. */
async function reach(testFile: string, patched: string[], loaded: readonly string[]): Promise<void> {
  const { cores, integrations } = copiesToReach(loaded);
  let refusal: Error | undefined;
  for (const core of cores) {
    try {
      await patchEsmCoreLater(core);
      patched.push(core);
    } catch (e) {
      if (isVcrError(e)) refusal ??= e;
      else log.warn(notImported(`the ES-module copy of @langchain/core in ${core}`, testFile, e as Error, "its chat models, LLMs and tools"));
    }
  }
  for (const dir of integrations) {
    const file = exportedFile(dir, ".", "import");
    if (!file) continue;
    try {
      // the files that hold its Embeddings classes, where learned (embeddingsFiles.ts): not the whole entry
      const files = embeddingsFiles(dir, file);
      if (files && (await allFound(files))) continue;
      const exports = await import(file);
      scanExports(exports);
      await learnEmbeddingsFilesLater(dir, file, exports, (f) => import(f));
    } catch (e) {
      if (isVcrError(e)) refusal ??= e;
      else log.warn(notImported(file, testFile, e as Error, "its Embeddings classes"));
    }
  }
  if (refusal) throw refusal;
}

/** Imports each learned file and wraps its Embeddings classes: false when one gives none (the entry is imported then). */
async function allFound(files: readonly string[]): Promise<boolean> {
  for (const f of files) {
    const exports = await import(f);
    scanExports(exports);
    if (!embeddingsPrototypes(exports).size) return false;
  }
  return true;
}

/** Each copy of core the project has (its own, each known package's, each workspace package's), and each known integration's directory. */
function copiesToReach(loaded: readonly string[]): { cores: Set<string>; integrations: string[] } {
  const cores = new Set<string>();
  const integrations: string[] = [];
  // the copies the loaded files belong to, wherever they are installed (a package's own nested copy): each directory once
  const named = new Map<string, string>();
  for (const file of loaded)
    for (const name of ["@langchain/core", ...KNOWN_INTEGRATIONS]) {
      const dir = packageDirOf(file, name);
      if (dir) named.set(dir, name);
    }
  for (const [dir, name] of named) {
    const real = realDir(dir);
    if (!real) continue;
    if (name === "@langchain/core") cores.add(real);
    else if (!integrations.includes(real)) integrations.push(real);
  }
  const known = knownCopies({ workspaces: true });
  for (const from of [process.cwd(), ...known.map((c) => c.dir)]) {
    const core = dirResolvedFrom(from, "@langchain/core");
    if (core) cores.add(core);
  }
  for (const c of known) if (c.integration && !integrations.includes(c.dir)) integrations.push(c.dir);
  return { cores, integrations };
}

/** The directory of package `name` that `file` lies in (`…/node_modules/<name>`), if it does. */
function packageDirOf(file: string, name: string): string | undefined {
  const marker = `${path.sep}node_modules${path.sep}${name.split("/").join(path.sep)}${path.sep}`;
  const at = file.lastIndexOf(marker);
  return at < 0 ? undefined : file.slice(0, at + marker.length - 1);
}

function notImported(what: string, testFile: string, e: Error, whose: string): string {
  return (
    `langchain-vcr could not import ${what} into jest's ES-module registry (${e.message.split("\n")[0]}).\n` +
    `  test file: ${testFile}\n` +
    `  Under --experimental-vm-modules, what this test file imports as ES modules runs on jest's own copies; ${whose} there are not recorded, and would call the provider.\n` +
    `  Fix it: wire those explicitly (cache: vcr.cache, vcr.embeddings()), or find why it cannot be imported (NODE_DEBUG=langchain-vcr).`
  );
}
