/**
 * jest with `--experimental-vm-modules`: ES modules (an ESM test file, ESM app code a test
 * loads with `import()`) run on jest's own ES-module copies of LangChain, in a registry of the
 * test file's own that no `require` reaches. Before a test file that may load them, the copies
 * of @langchain/core the project has are loaded there with `import()` and patched, and the known
 * integrations' ESM entries loaded and their Embeddings classes wrapped, one after another (jest
 * links modules that concurrent imports share badly: "… is not in cache"); the test file's own
 * imports then get these very modules. Measured before: an ESM test file's ChatOpenAI and
 * OpenAIEmbeddings answered live under replay_only, with a CommonJS setup file calling install().
 *
 * The setup file `langchain-vcr/jest` hands jest the wait (jest 30 awaits a function a setup file
 * exports, before the next setup file and the test file); `install()` starts it too, so
 * `await uninstall.ready` in an ESM setup file waits for it (jest 29). It costs about 0.1–0.3 s per
 * test file (core's ES modules, and each known integration's), so a test file that is plainly
 * CommonJS and has no `import(` is left out: it loads no ES module of its own.
 */
import { isVcrError } from "../errors";
import { log } from "../log";
import { processWide } from "../processWide";
import { scanExports } from "./embeddings";
import { jestMayLoadEsm } from "./jestWhen";
import { patchEsmCoreLater } from "./esmCoreLater";
import { CORE_USERS, KNOWN_INTEGRATIONS } from "./knownPackages";
import { exportedFile } from "./packageJson";
import { dirResolvedFrom, packageDirs } from "./packageDirs";
import { trackInstallWork } from "./pending";
import { workspaceDirs } from "./workspaces";

/** Per test file under jest (its globals are its own, as its registry is). */
const reached = processWide("jestEsm.v1", () => ({ work: undefined as Promise<void> | undefined }));

/**
 * Starts (once per test file) reaching jest's ES-module copies when `testPath` may load ES
 * modules; the work (rejects with a VcrConfigError when a copy lacks a relied-on internal), or
 * undefined when there is nothing to do. `warn`: a failure is also a warning (for install(),
 * whose caller may not wait for it).
 */
export function reachJestEsm(testPath: string | undefined, { warn }: { warn: boolean }): Promise<void> | undefined {
  if (reached.work) return reached.work;
  if (!jestMayLoadEsm(testPath)) return undefined;
  const work = (reached.work = reach());
  // install() with no setup file to throw it: the failure is said (a setup file's wait throws it instead)
  const settled = work.catch((e: Error) => {
    if (warn) log.warn(isVcrError(e) ? e.message : `vcr.install() could not load jest's ES-module copies of LangChain: ${e.message.split("\n")[0]}`);
  });
  trackInstallWork(settled, "jest's ES-module copies of LangChain");
  return work;
}

/** The test file jest is running in this process (its `expect.getState()`), if it can be told. */
export function jestTestPath(): string | undefined {
  const expect = (globalThis as { expect?: { getState?: () => { testPath?: unknown } } }).expect;
  try {
    const testPath = expect?.getState?.().testPath;
    return typeof testPath === "string" ? testPath : undefined;
  } catch {
    return undefined;
  }
}

async function reach(): Promise<void> {
  const cores = new Set<string>();
  const own = dirResolvedFrom(process.cwd(), "@langchain/core");
  if (own) cores.add(own);
  const integrations: string[] = [];
  for (const name of [...CORE_USERS, ...KNOWN_INTEGRATIONS]) {
    for (const dir of packageDirs(name)) {
      const core = dirResolvedFrom(dir, "@langchain/core");
      if (core) cores.add(core);
      if ((KNOWN_INTEGRATIONS as readonly string[]).includes(name)) integrations.push(dir);
    }
  }
  for (const dir of workspaceDirs(process.cwd())) {
    const core = dirResolvedFrom(dir, "@langchain/core");
    if (core) cores.add(core);
  }
  for (const core of cores) await patchEsmCoreLater(core);
  for (const dir of integrations) {
    const file = exportedFile(dir, ".", "import");
    if (!file) continue;
    try {
      scanExports(await import(file));
    } catch (e) {
      if (isVcrError(e)) throw e;
      log.debug(`install: jest could not import ${file}: ${(e as Error).message.split("\n")[0]}`);
    }
  }
}
