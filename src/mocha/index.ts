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
import { enterTest, leaveTest, setRunner } from "../scope";
import { exitOnConfigError } from "../runner/configCheck";
import { endTest } from "../runner/lifecycle";
import { collectWorkerTotals, saveWorkerTotals, usageSummaryLine } from "../runner/summary";
import { Usage } from "../runner/usage";
import { giveOwnContexts } from "./hookContext";
import { RunLedger, runRole, startMochaRun, type HookContextLike } from "./ledger";

interface MochaContext {
  currentTest?: { fullTitle(): string; state?: string; file?: string; err?: { message?: string } };
}

exitOnConfigError();
setRunner("mocha");
startMochaRun();

const usage = new Usage();
let ledger: RunLedger | undefined;

export const mochaHooks = {
  beforeAll(this: HookContextLike): void {
    giveOwnContexts(this.test?.parent, [mochaHooks.beforeEach, mochaHooks.afterEach]);
    if (ledger) return; // parallel mode runs root hooks once per file
    ledger = RunLedger.start();
    usage.start();
  },
  beforeEach(this: MochaContext): void {
    enterTest(this.currentTest?.fullTitle() ?? "(unknown test)");
  },
  afterEach(this: MochaContext): void {
    const test = this.currentTest;
    const failed = test?.state === "failed";
    const { liveNote } = endTest(leaveTest(), failed);
    // mocha prints failures at the end of the run: the note joins the test's own error there
    if (liveNote && test?.err && typeof test.err.message === "string") test.err.message += "\n" + liveNote;
    if (failed) ledger?.markFailed(test?.fullTitle());
  },
  afterAll(this: HookContextLike): void {
    ledger?.useAll(usage.used, usage.usedBy);
    usage.used.clear();
    usage.usedBy.clear();
    ledger?.flush(this);
    const { role, mainId } = runRole();
    if (role === "worker") saveWorkerTotals(mainId, usage.totals, usage.dirs, usage.modes); // the main process prints the run's line
  },
};

/** Runs once, in mocha's main process, after every test (and every worker) has finished. */
export function mochaGlobalTeardown(): void {
  const { role, mainId } = runRole();
  if (role !== "main") return;
  collectWorkerTotals(mainId, usage);
  process.stdout.write("\n" + usageSummaryLine(usage) + "\n");
}
