/**
 * `langchain-vcr/node-test`: `node --require langchain-vcr/node-test --test`, for ESM and
 * CommonJS test files alike. `--require` loads it in the runner process and in every test
 * file's child process (node:test sets NODE_TEST_CONTEXT there):
 * - runner process: checks the mode before any test file starts (a bad LANGCHAIN_VCR_MODE
 *   ends the run with the message, no stack), starts the run, and at exit prints one summary
 *   line summed over the test files and writes the ledger (partial after
 *   `--test-name-pattern`, `--test-skip-pattern`, `--test-only`, named test files, `--watch`
 *   or a failure; `--test-shard` runs are shards `prune` merges);
 * - test processes: a scope per test (./testScope.ts), failed-test cleanup and the live call
 *   in flight named in `afterEach`, a `beforeEach` that waits for what `vcr.install()` loads with
 *   `import()`, an error thrown while the file loads (./loadError.ts: the report written first, a
 *   config error printed as its message), and the file's report for the runner process.
 * Run without `--test` (`node --require langchain-vcr/node-test file.test.mjs`) it is both.
 * Loaded with `--import` it reaches the test processes only: each test file then prints its
 * own summary line and no ledger is written.
 */
import * as path from "node:path";
import { isMainThread } from "node:worker_threads";
import { leaveTestSlot, setRunner } from "../scope";
import { exitOnConfigError } from "../runner/configCheck";
import { processWide } from "../processWide";
import { endTest } from "../runner/lifecycle";
import { finishRun, joinRun, recordRunStart, startRun, Unit } from "../runner/share";
import { nodeTestArgvReasons, nodeTestShard } from "./argv";
import { installTestScopes, scopeOfContext } from "./testScope";
import { installSettled } from "../install/pending";
import { watchFileLoad } from "./loadError";

// once per process, whichever copy (ESM or CommonJS build) is loaded first
const loaded = processWide("node-test.loaded", () => ({ done: false }));

interface TestContextLike {
  passed?: boolean;
  name?: string;
}

/** `alsoTests`: this process runs the tests too (it starts them after the run exists, and their reports are written before the run is added up). */
function runnerProcess(alsoTests = false): void {
  const share = startRun("node --test");
  if (alsoTests) testProcess();
  const shard = nodeTestShard(process.execArgv);
  const reasons = [...nodeTestArgvReasons(process.execArgv, process.argv, shard !== undefined)];
  // node's test runner starts its test files right after this preload: the run is on record now
  recordRunStart(share, shard);
  process.on("exit", (code) => {
    const exitCode = code || Number(process.exitCode ?? 0) || 0;
    finishRun(share, { reasons, exitCode, shard });
  });
}

function testProcess(): void {
  installTestScopes();
  const share = joinRun();
  const testFile = path.relative(process.cwd(), process.argv[1] ?? "(unknown test file)");
  const unit = new Unit(share, testFile);
  const testsStarted = watchFileLoad(testFile, () => unit.finish({ followLateUse: true })); // the report written, use still counted

  const { afterEach, beforeEach } = require("node:test") as {
    afterEach(fn: (t: TestContextLike) => void): void;
    beforeEach(fn: () => Promise<void> | undefined): void;
  };
  // what a setup file's install() loads with import() is patched before a test calls it (install/pending.ts); node:test passes the test context, not a limit
  beforeEach(() => {
    testsStarted();
    return installSettled();
  });
  afterEach((t) => {
    const scope = scopeOfContext(t as object);
    if (!scope) return;
    const failed = t.passed === false;
    leaveTestSlot(scope);
    endTest(scope, failed, undefined, { passed: t.passed === true });
    if (failed) unit.markFailed(scope.title ?? t.name ?? "(unknown test)");
  });
  process.on("exit", () => {
    unit.finish();
    if (!share) {
      // loaded with --import: no runner process to add this file up with the others
      const solo = startRun("node --test");
      finishRun(solo, { reasons: ["loaded with --import, so only one test file's use is known"], exitCode: 1, local: unit.usage });
    }
  });
}

// Node 20 also runs `--require` preloads in the module-hooks thread that `--import tsx` (any
// `module.register()` loader) starts; that thread runs no test, and a report it began would
// never finish (prune would then refuse every run), so only a main thread takes part.
if (!loaded.done && isMainThread) {
  loaded.done = true;
  exitOnConfigError();
  setRunner("node-test");
  const inTestProcess = process.env.NODE_TEST_CONTEXT !== undefined;
  const isRunner = !inTestProcess && process.execArgv.some((a) => a === "--test" || a.startsWith("--test="));
  if (isRunner) runnerProcess();
  else if (inTestProcess) testProcess();
  else runnerProcess(true); // a single file run without --test: this process is both
}
