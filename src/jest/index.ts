/**
 * `langchain-vcr/jest`: `setupFilesAfterEnv: ["langchain-vcr/jest"]`, with the reporter
 * `langchain-vcr/jest/reporter` (which checks the mode before any test, undoes what failed
 * tests recorded, prints the summary line and writes the ledger). Runs in each test file's
 * sandbox: the current test is looked up from jest's own `expect.getState()` in `beforeEach`
 * (jest runs one test at a time per file, and `enterWith` there would not reach the test
 * body), a `test.concurrent` test, which runs without those hooks, at its first call
 * (`concurrent.ts`), and what each test recorded is kept for the reporter; a failed attempt
 * that `jest.retryTimes()` runs again is undone here, before it does (`retries.ts`).
 */
import { enterTest, leaveTest, setRunner, setTestFinder, type Scope } from "../scope";
import { ConcurrentTests, type ConcurrentState } from "./concurrent";
import { checkEnvironment } from "../runner/configCheck";
import { endTest } from "../runner/lifecycle";
import { joinRun, Unit } from "../runner/share";
import { journalEntry, type JournalEntry } from "./journal";
import { JestAttempts, onCircusEvent, type Attempt } from "./retries";
import { forgetShared } from "../runner/sharedRecordings";
import { log } from "../log";
import { firstWarningOfRun } from "../runner/oncePerRun";
import { SETUP_IN_SETUP_FILES, SETUP_OUTSIDE_TEST_FILE, slotError } from "./slots";
import * as path from "node:path";
import { jestMayLoadEsm, jestVmModules } from "../install/jestWhen";
import { currentRuntime, replaceOwnMethod } from "../install/jestRuntime";
import { unwatchable, watchEsmLoads } from "../install/jestEsmWatch";
import { forgetJestEsm } from "../install/jestEsmState";

interface JestGlobals {
  beforeAll(fn: () => void): void;
  beforeEach(fn: () => void): void;
  afterEach(fn: () => void): void;
  afterAll(fn: () => void): void;
  expect: { getState(): { currentTestName?: string; testPath?: string } & ConcurrentState };
}

function jestGlobals(): JestGlobals {
  const complete = (g: Partial<JestGlobals>): g is JestGlobals =>
    !!(g.beforeAll && g.beforeEach && g.afterEach && g.afterAll && typeof g.expect?.getState === "function");
  const g = globalThis as unknown as Partial<JestGlobals>;
  if (complete(g)) return g;
  let globals: Partial<JestGlobals>;
  try {
    globals = require("@jest/globals") as Partial<JestGlobals>; // injectGlobals: false
  } catch {
    throw slotError(SETUP_OUTSIDE_TEST_FILE); // "Do not import `@jest/globals` outside of the Jest test environment"
  }
  if (!complete(globals)) throw slotError(SETUP_IN_SETUP_FILES);
  return globals;
}

checkEnvironment();
const { beforeAll, beforeEach, afterEach, afterAll, expect } = jestGlobals();
setRunner("jest");
const share = joinRun();
// once per run: each test file runs this afresh, in a sandbox of its own
if (!share && firstWarningOfRun("jest-noreporter")) {
  log.warn(
    `the jest setup file is loaded but not its reporter, so failed tests' recordings stay on disk and no summary or usage ledger is written.\n` +
      `  Fix: add it to jest.config: reporters: ["default", "langchain-vcr/jest/reporter"].\n`,
  );
}
// on record once its tests start: jest runs no hook of a file whose tests are all skipped
const unit = new Unit(share, expect.getState().testPath ?? "(unknown test file)", { announce: false });
beforeAll(() => unit.announce());

const concurrent = new ConcurrentTests(() => expect.getState());
setTestFinder(concurrent.find);

beforeEach(() => {
  const state = expect.getState();
  enterTest(state.currentTestName ?? "(unknown test)", state.testPath); // a miss's command names the file
});
/** A test is over: a live call still in flight is named; jest tells the reporter, not us, whether the test failed. */
function testOver(scope: Scope): JournalEntry | undefined {
  endTest(scope, undefined);
  const entry = journalEntry(scope);
  if (entry) unit.extra.push(entry);
  return entry;
}

/** A failed attempt jest runs again: undone now, as a failed test's recordings are, and out of the journal (the reporter sees the last attempt only). */
function retried({ scope, entry }: Attempt<JournalEntry>): void {
  const at = entry ? unit.extra.indexOf(entry) : -1;
  if (at >= 0) unit.extra.splice(at, 1);
  concurrent.forget(scope); // a concurrent test's scope, which `endAll` would end
  scope.retried = true;
  endTest(scope, true);
}
const attempts = new JestAttempts<JournalEntry>(concurrent.attemptOf, retried);
onCircusEvent(attempts.handle);

afterEach(() => {
  const scope = leaveTest();
  if (scope) attempts.ended(scope, testOver(scope));
});
// registered before the test file's own top-level afterAll, which runs after it: use made there is followed
afterAll(() => {
  concurrent.endAll(testOver);
  forgetShared();
  unit.finish({ followLateUse: true });
});

// Under --experimental-vm-modules, jest's ES-module copies of LangChain (install/jestEsm.ts): reached as soon as a
// load brings them in, before it is handed back (install/jestEsmWatch.ts), and, for a test file that may load ES
// modules, ahead of time in the function this setup file exports, which jest 30 awaits before the test file loads
// (its top-level code runs on patched classes; jest 29 calls no such function). Never at this module's load: an
// import() under way while jest links the test file's own imports makes jest fail the file ("… is not in cache").
// The state a reset clears is in a module that loads no LangChain (jestEsmState.ts): forgetting costs nothing.
//
// Where jest's loads cannot be watched (a jest whose internals differ), no load is seen: a CommonJS test file may load
// ES modules through a helper's import() (measured: it answered live under replay_only), and a registry reset may go
// unseen (the runtime not found). So every test file is reached ahead of time, then afresh before its hooks and
// before each test (modules still cached are patched already: a cheap pass), and inside jest.isolateModulesAsync.
const testPath = expect.getState().testPath;
const esm = () => require(path.join(__dirname, "esm")) as typeof import("./esm");
let ahead: (() => Promise<void> | undefined) | undefined;
if (jestVmModules()) {
  const runtime = currentRuntime();
  if (watchEsmLoads(runtime, (files) => esm().reachJestEsm(testPath, { loaded: files }), forgetJestEsm)) {
    if (jestMayLoadEsm(testPath, runtime)) ahead = () => esm().reachJestEsm(testPath);
  } else {
    log.warn(unwatchedNote(unwatchable(runtime)!));
    ahead = () => esm().reachJestEsm(testPath, { always: true });
    const afresh = () => {
      forgetJestEsm();
      return ahead!();
    };
    beforeAll(afresh);
    beforeEach(afresh);
    if (runtime) reachInIsolation(runtime, afresh);
  }
}
module.exports = (): Promise<void> | undefined => ahead?.();

/** `jest.isolateModulesAsync(fn)` (a registry of its own): reached inside it before `fn` runs; what is imported after it, afresh. */
function reachInIsolation(runtime: object, afresh: () => Promise<void> | undefined): void {
  const isolate = (runtime as { isolateModulesAsync?: unknown }).isolateModulesAsync;
  if (typeof isolate !== "function") return;
  replaceOwnMethod(runtime, "isolateModulesAsync", function (this: unknown, fn: () => Promise<unknown>) {
    return isolate.call(this, async () => {
      await afresh();
      try {
        return await fn();
      } finally {
        forgetJestEsm();
      }
    });
  });
}

/** Said in each test file where jest's ES-module loads cannot be watched: what is done instead, what it misses, and its cost. */
function unwatchedNote(missing: string): string {
  return (
    `note: langchain-vcr cannot watch jest's ES-module loads under --experimental-vm-modules: it found no jest ${missing} in this process (another jest, or a custom runtime in jest.config).\n` +
    `  So each test file imports @langchain/core's and the installed LangChain integrations' ES modules into jest's registry and patches them, before the file loads (where jest awaits the setup file), before its hooks, before each test and inside jest.isolateModulesAsync: 0.1–0.8 s a test file (the more integrations installed, the more) and a few ms a test.\n` +
    `  Not seen: ES modules first loaded after a jest.resetModules() in a test or in the test file's own hooks, or inside jest.isolateModules(); their models and embeddings would call the provider.\n` +
    `  Fix it: reset with resetModules: true in jest.config instead (jest resets before the setup file's beforeEach), or give those models cache: vcr.cache; langchain-vcr watches the loaders of jest 29 and 30, so with another jest see whether a newer langchain-vcr knows it.\n`
  );
}
