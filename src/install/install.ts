/**
 * `vcr.install()`: makes one Vcr the default, in the whole process, for every chat model and
 * LLM with no cache of its own, every Embeddings instance (see `embeddings.ts` for how they
 * are reached) and every model-initiated tool call (`tools.ts`), until the returned function
 * runs. The patches that do it are in place from import on (`patches.ts`); installing only
 * names the Vcr they use, so models built before `install()` are included: what counts is
 * the call.
 */
import * as path from "node:path";
import { fileURLToPath } from "node:url";
import { VITEST_PLUGIN_ENV } from "../internalEnv";
import { firstWarningOfRun } from "../runner/oncePerRun";
import { VcrConfigError } from "../errors";
import { pathFrom } from "../pathFrom";
import { assertCoreUsable, esmCoreLoadedByEntry, installedVcr, setInstalledVcr, testFilesBegun, type InstalledVcr } from "../internals/state";
import { processWide } from "../processWide";
import { patchLoadedCoreCopies, startRequireHook, stopRequireHook } from "./requireHook";
import { patchEsmCore } from "./esmCore";
import { underJest } from "./jestWhen";
import { reachEsmCoreLater } from "./esmCoreFallback";
import { wrapKnownIntegrations } from "./integrations";
import { noteUninstalled } from "./afterUninstall";
import { installSettled } from "./pending";
import { isEsmFile } from "./esmFiles";
import { onSpecFiles } from "./esmSpecFiles";
import { checkInlined } from "./vitestInlined";
import { log } from "../log";
import { unwatchModerations, watchModerations } from "../adapters/moderation/fetch";
import { onTestStart } from "../scope";

export interface Installable extends InstalledVcr {
  readonly dir: string;
  /** Where install() was called (`callSite`), for the message of a second one. */
  readonly from?: string;
}

/**
 * The installation in force: its uninstall, and the test file it was made in. Under the vitest
 * plugin a worker can run several test files in one module graph (`--no-isolate`, VM pools);
 * a Vcr that an earlier, finished file installed (its setup file's, whose `afterAll` did not run:
 * every test skipped, `-t` selecting none of them) is uninstalled by the next file's install().
 */
const current = processWide("installation.v1", () => ({ uninstall: undefined as (() => void) | undefined, file: 0 }));

/** What install() returns: the function that undoes it, and `ready`, which settles once what it loads with `import()` is patched (`pending.ts`). */
export type Uninstall = (() => void) & { readonly ready: Promise<void> };

export function installVcr(vcr: Installable): Uninstall {
  const installed = installedVcr() as Installable | undefined;
  if (installed && current.uninstall && current.file !== testFilesBegun()) current.uninstall();
  else if (installed) throw alreadyInstalledError(vcr, installed);
  checkInlined(log.warn); // vitest's own copies of LangChain (inlined, bundled), which nothing here reaches
  warnWithoutVitestPlugin();
  const esmProcess = esmCoreLoadedByEntry(); // before patchEsmCore(), which loads the ESM copy in any process
  const unloaded = patchEsmCore();
  if (unloaded) reachEsmCoreLater(unloaded); // string models, through import()
  // jest's registry is no require.cache; its ES-module registry is reached by the setup file langchain-vcr/jest (jestEsm.ts)
  if (underJest()) wrapKnownIntegrations("cjs");
  else if (esmProcess || isEsmFile(process.argv[1])) wrapKnownIntegrations("esm"); // an ESM main module: node:test's test file
  // mocha's spec files, once loaded: when one is an ES module, so are the integrations it imports (esmFiles.ts)
  onSpecFiles((files) => {
    if (installedVcr() && files.some(isEsmFile)) wrapKnownIntegrations("esm");
  });
  if (!underJest()) patchLoadedCoreCopies();
  // a copy of core (the ESM copy, an integration's own) that lacks an internal is not patched: its models would go live, so nothing is installed
  assertCoreUsable();
  setInstalledVcr(vcr);
  startRequireHook();
  // OpenAI's moderation endpoint, which LangChain calls outside any model call; again as each test
  // begins, in case the test runner put back a fetch that was there before (jest's restoreMocks)
  watchModerations();
  const unwatchTests = onTestStart(watchModerations);
  const uninstall = () => {
    if (installedVcr() !== vcr) return; // uninstalled already (twice is harmless)
    setInstalledVcr(undefined);
    stopRequireHook();
    unwatchTests();
    unwatchModerations();
    noteUninstalled(underJest());
    if (current.uninstall === uninstall) current.uninstall = undefined;
  };
  current.uninstall = uninstall;
  current.file = testFilesBegun();
  return Object.assign(uninstall, { ready: installSettled() ?? Promise.resolve() });
}

/**
 * install() in a vitest worker where the plugin's setup file has not run (it counts each test file
 * before the project's setup files run): everything replays, but nothing says the run is unscoped
 * until `prune` refuses, later (29a). Said once per run (`firstWarningOfRun`).
 */
function warnWithoutVitestPlugin(): void {
  // the plugin in the run's config (a project not extending it is warned of by the plugin itself, setupFileMissing)
  if (!process.env.VITEST || testFilesBegun() > 0 || process.env[VITEST_PLUGIN_ENV] || !firstWarningOfRun("vitest")) return;
  log.warn(
    `vcr.install() runs under vitest without the langchain-vcr plugin: tests are not scoped (a miss does not name its test, a failed test's recordings are kept),\n` +
      `  and the run prints no langchain-vcr summary and writes no usage ledger (langchain-vcr prune refuses after it).\n` +
      `  Fix it: add the plugin to vitest.config: import langchainVcr from "langchain-vcr/vitest"; … plugins: [langchainVcr()] (keep the setup file that calls install()).`,
  );
}

function alreadyInstalledError(vcr: Installable, current: Installable): VcrConfigError {
  const at = (v: Installable) => (v.from ? `, called at ${v.from}` : "");
  const which = current.cache === vcr.cache ? "this Vcr is installed already" : `another Vcr is installed`;
  const head =
    `vcr.install() was called while ${which} (dir ${current.dir}${at(current)}).\n` +
    `  This Vcr: dir ${vcr.dir}${at(vcr)}. One Vcr at a time can be the default for models, embeddings and tools that have none of their own.\n` +
    `  Nearest: explicit wiring (\`cache: vcr.cache\`, \`vcr.embeddings()\`, \`vcr.tools()\`) works for any number of Vcrs at once.\n`;
  if (testFilesBegun() > 0) {
    // a runner plugin counts the test files: both calls are in one file's run (its setup files run in it, before it)
    return new VcrConfigError(
      head +
        `  Both calls are in the run of one test file (its setup files run before it, in the same run).\n` +
        `  Fix it: call install() once: in the setup file, which covers every test file (the plugin replaces its Vcr for the next file); remove the other call,\n` +
        `  or call the function the first install() returned before installing again: const uninstall = vcr.install(); … uninstall();`,
    );
  }
  if (process.env.VITEST && !process.env[VITEST_PLUGIN_ENV] && vcr.from !== undefined && vcr.from === current.from) {
    // one call, run again: a setup file vitest runs before each test file, in a worker that kept langchain-vcr loaded (trial 47)
    return new VcrConfigError(
      head +
        `  Both are the same call, run again: vitest runs a setup file before every test file, and this worker kept langchain-vcr loaded (its VM pools, or isolate: false).\n` +
        `  Fix it: add the plugin to vitest.config (plugins: [langchainVcr()] from "langchain-vcr/vitest"): the next file's install() then replaces the Vcr an earlier file installed.`,
    );
  }
  // the same directory: one of the two calls is one too many (a test file repeating its setup file's)
  const fix =
    path.resolve(vcr.dir) === path.resolve(current.dir)
      ? `  Fix it: remove one of the two calls: both use ${vcr.dir}, and the one in your setup file covers every test file.\n` +
        `  (To install another Vcr for a while, call the function the first install() returned first: const uninstall = vcr.install(); … uninstall();)`
      : `  Fix it: call the function the first install() returned before installing again:\n` + `    const uninstall = vcr.install(); … uninstall();`;
  const vitest = process.env.VITEST
    ? `\n  In a vitest setup file (run before every test file, in a worker that may keep langchain-vcr loaded): add the plugin (plugins: [langchainVcr()] from "langchain-vcr/vitest"), and the next file's install() replaces the Vcr an earlier file installed.`
    : "";
  return new VcrConfigError(head + fix + vitest);
}

/**
 * Where the code that called `fn` is (`test/a.test.ts:5:3`, from the working directory), read
 * from V8's stack; undefined when the stack does not say.
 */
export function callSite(fn: (...args: never[]) => unknown): string | undefined {
  const holder: { stack?: string } = {};
  Error.captureStackTrace(holder, fn);
  const frame = holder.stack?.split("\n")[1]?.trim();
  if (!frame) return undefined;
  const where = /\((.+)\)$/.exec(frame)?.[1] ?? frame.replace(/^at /, ""); // "at fn (file:1:2)", or "at file:1:2"
  const [, at, line = ""] = /^(.*?)((?::\d+){1,2})$/.exec(where) ?? [where, where];
  let file = at;
  try {
    if (at.startsWith("file:")) file = fileURLToPath(at); // an ES module's: percent-escapes and a drive letter decoded
  } catch {
    // not a file URL after all
  }
  return (path.isAbsolute(file) ? pathFrom(process.cwd(), file) : file) + line;
}
