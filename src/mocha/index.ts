/**
 * `langchain-vcr/mocha`: a mocha root-hook plugin. Add it to `.mocharc.json`
 * (`"require": ["langchain-vcr/mocha"]`). A thin adapter over the runner-neutral core
 * (../runner): it checks the mode when mocha loads it (a bad LANGCHAIN_VCR_MODE ends the run
 * before any spec file loads), scopes per-test bookkeeping (tool-call order, fixtures
 * written) to the running test, removes what a failed test recorded (and restores what it
 * overwrote), names a live recording call a failed or timed-out test left in flight, keeps
 * the usage ledger `prune` relies on, and prints one summary line for the run (under
 * --parallel too).
 */
import * as os from "node:os";
import { unwritableDirectory } from "../fsProbe";
import { enterTest, leaveTest, setRunner } from "../scope";
import { exitOnConfigError } from "../runner/configCheck";
import { warnUnsupportedCore } from "../runner/coreRange";
import { endTest } from "../runner/lifecycle";
import { collectWorkerTotals, saveWorkerTotals, usageSummaryLine } from "../runner/summary";
import { removeStaleRunDirs } from "../runner/staleTmp";
import { Usage } from "../runner/usage";
import { giveOwnContexts } from "./hookContext";
import { RunLedger, runRole, startMochaRun, type HookContextLike } from "./ledger";
import { DRY_RUN_REASON } from "./runContext";
import { asRunner, followTests, isDryRun, type RunnerLike } from "./testEvents";
import { HOOK_TIMEOUT_MS, installPending, installSettled } from "../install/pending";
import { specFilesLoaded } from "../install/esmSpecFiles";

interface MochaTest {
  fullTitle(): string;
  state?: string;
  file?: string;
  pending?: boolean;
  /** Set by mocha once the test's body ran (a timeout too), before its afterEach hooks; reporters read it. */
  duration?: number;
  err?: { message?: unknown; stack?: unknown };
}
interface MochaContext {
  currentTest?: MochaTest;
}

exitOnConfigError();
warnUnsupportedCore();
setRunner("mocha");
startMochaRun();

const usage = new Usage();
let ledger: RunLedger | undefined;
/** The runner mocha handed to `mochaGlobalSetup` (its serial runner, or the parallel one that runs no test here). */
let runner: RunnerLike | undefined;

function startMochaTest(test: MochaTest | undefined): void {
  enterTest(test?.fullTitle() ?? "(unknown test)", test?.file);
}

function endMochaTest(test: MochaTest | undefined): void {
  // mocha prints failures at the end of the run: a live-call note joins the test's own error there
  const retried = failedAttemptRetried(test);
  const scope = leaveTest();
  if (scope && retried) scope.retried = true;
  // a failed attempt is a failure to its recordings (undone, as vitest's and jest's are), not to the ledger: a later attempt may pass
  endTest(scope, test?.state === "failed" || retried, test?.err, { passed: test?.state === "passed" });
  if (test?.state === "failed") ledger?.markFailed(test?.fullTitle());
}

/**
 * A failed attempt that mocha's retries (`--retries`, `this.retries()`) runs again: mocha queues a clone of the test
 * and runs the attempt's afterEach hooks without setting its state (a passed attempt is "passed", the last failed one
 * "failed", a skipped one "pending"). Its recordings were kept, and the next attempts replayed them (user trial 46).
 * Its body ran (`duration` set): a test whose beforeEach hook failed has no state either, but mocha retries no hook
 * (review 57 M1).
 */
function failedAttemptRetried(test: MochaTest | undefined): boolean {
  return test !== undefined && test.state === undefined && test.pending !== true && typeof test.duration === "number";
}

/** Every fixture file this process used in the run (the summary's note on those git does not track): the ledger takes `usage.used` as it goes. */
const runUsed = new Set<string>();

/** The fixture files used since the last call go into this process's ledger. */
function ledgerTakesUsage(): void {
  for (const f of usage.used) runUsed.add(f);
  ledger?.useAll(usage.used, usage.usedBy);
  usage.used.clear();
  usage.usedBy.clear();
}

export const mochaHooks = {
  beforeAll(this: HookContextLike): Promise<void> | undefined {
    const root = this.test?.parent;
    const each = [mochaHooks.beforeEach, mochaHooks.afterEach];
    // the root suite runs here, so `runner` runs its tests: follow its events, without the each-hooks (./testEvents.ts)
    const following =
      runner !== undefined &&
      followTests(
        runner,
        root,
        each,
        (t) => startMochaTest(t as MochaTest),
        (t) => endMochaTest(t as MochaTest),
      );
    if (!following) giveOwnContexts(root, each);
    if (!ledger) {
      // parallel mode runs root hooks once per file
      ledger = RunLedger.start();
      usage.start();
    }
    const specs = root as { suites?: { file?: string }[]; tests?: { file?: string }[] } | undefined;
    specFilesLoaded([...(specs?.suites ?? []), ...(specs?.tests ?? [])].map((s) => s.file)); // ESM spec files beside a CommonJS setup file's install()
    // the wait is bounded by its own, shorter limit, which says what hangs: raise a shorter hook timeout (never lower one, or turn 0 back on)
    const timeout = installPending() ? this.timeout?.() : undefined;
    if (typeof timeout === "number" && timeout !== 0 && timeout < HOOK_TIMEOUT_MS) this.timeout?.(HOOK_TIMEOUT_MS);
    return installSettled(); // what a setup file's install() loads with import() is patched before the first test calls it
  },
  beforeEach(this: MochaContext): void {
    startMochaTest(this.currentTest);
  },
  afterEach(this: MochaContext): void {
    endMochaTest(this.currentTest);
  },
  afterAll(this: HookContextLike): void {
    ledgerTakesUsage();
    ledger?.flush(this);
    const { role, mainId } = runRole();
    usage.noteVcrs();
    if (role === "worker") saveWorkerTotals(mainId, usage, runUsed); // the main process prints the run's line
  },
};

/** Runs once, in mocha's main process, before any test: mocha passes its runner as `this`. */
export function mochaGlobalSetup(this: unknown): void {
  runner = asRunner(this);
  removeStaleRunDirs(); // what killed runs left in the temp dir
  const main = RunLedger.start();
  if (runner) {
    // mocha's runner says "end" when the run is over; stopped by Ctrl-C under --parallel, it never does and mocha exits 0
    main.runFollowed("begun");
    runner.on("end", () => main.runFollowed("ended"));
  }
  // also `dry-run` set in .mocharc, which argv does not show: no test body or root hook runs
  if (isDryRun(runner)) main.partialBecause(DRY_RUN_REASON);
}

/** Runs once, in mocha's main process, after every test (and every worker) has finished. */
export function mochaGlobalTeardown(): void {
  const { role, mainId } = runRole();
  if (role !== "main") return;
  ledgerTakesUsage(); // a spec file's root-level `after` runs after the plugin's root afterAll: its fixtures join the ledger written at exit
  // the workers' fixtures are in their own ledgers: the main one's usage takes only their counts; the summary, all
  collectWorkerTotals(mainId, {
    add: (w) => {
      usage.add({ ...w, used: undefined });
      if (Array.isArray(w.used)) for (const f of w.used) if (typeof f === "string") runUsed.add(f); // a worker's JSON: anything
    },
  });
  // --parallel: the workers hand their counts over through TMPDIR; none came, and this process ran no test
  const tmpProblem = unwritableDirectory(os.tmpdir());
  const nothingCounted = Object.values(usage.totals).every((n) => n === 0);
  usage.noteVcrs(); // this process's own Vcrs, though no root hook ran (a --grep that matched no test, --dry-run)
  const line =
    tmpProblem && nothingCounted
      ? `langchain-vcr: the test processes' counts are unknown: the temp directory ${os.tmpdir()} (TMPDIR), where mocha --parallel's workers leave them, cannot be written (${tmpProblem}); their usage ledgers are written. Fix: set TMPDIR to a writable directory.`
      : usageSummaryLine({ ...usage, used: runUsed }, "mocha");
  process.stdout.write("\n" + line + "\n");
}
