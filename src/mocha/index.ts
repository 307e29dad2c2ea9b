/**
 * `langchain-vcr/mocha`: a mocha root-hook plugin. Add it to `.mocharc.json`
 * (`"require": ["langchain-vcr/mocha"]`). It checks the mode once at start, scopes per-test
 * bookkeeping (tool-call order, fixtures written) to the running test, removes what a
 * failed test recorded (and restores what it overwrote), keeps the usage ledger `prune`
 * relies on, and prints one summary line for the run (under --parallel too).
 */
import * as path from "node:path";
import { modeSource, resolveMode, resolveToolMode } from "../resolve";
import { currentTest, enterTest, leaveTest, onScopeEvent } from "../scope";
import { restoreFailedTest } from "./cleanup";
import { RunLedger, runRole, type HookContextLike } from "./ledger";
import { collectWorkerTotals, emptyTotals, saveWorkerTotals, summaryLine } from "./summary";

interface MochaContext {
  currentTest?: { fullTitle(): string; state?: string; file?: string };
}

const totals = emptyTotals();
const dirs = new Set<string>();
let ledger: RunLedger | undefined;
let unsubscribe: (() => void) | undefined;

export const mochaHooks = {
  beforeAll(): void {
    if (unsubscribe) return; // parallel mode runs root hooks once per file
    resolveMode(); // an invalid LANGCHAIN_VCR_MODE fails the run here, before any test
    resolveToolMode();
    ledger = RunLedger.start();
    unsubscribe = onScopeEvent((e) => {
      if (e.type === "used") {
        dirs.add(path.dirname(e.file));
        ledger?.use(e.file, currentTest()?.title);
      } else totals[e.type]++;
    });
  },
  beforeEach(this: MochaContext): void {
    enterTest(this.currentTest?.fullTitle() ?? "(unknown test)");
  },
  afterEach(this: MochaContext): void {
    const scope = leaveTest();
    const failed = this.currentTest?.state === "failed";
    if (scope && failed) restoreFailedTest(scope);
    if (failed) ledger?.markFailed(this.currentTest?.fullTitle());
  },
  afterAll(this: HookContextLike): void {
    ledger?.flush(this);
    const { role, mainId } = runRole();
    if (role === "worker") saveWorkerTotals(mainId, totals, dirs); // the main process prints the run's line
  },
};

/** Runs once, in mocha's main process, after every test (and every worker) has finished. */
export function mochaGlobalTeardown(): void {
  const { role, mainId } = runRole();
  if (role !== "main") return;
  collectWorkerTotals(mainId, totals, dirs);
  process.stdout.write("\n" + summaryLine(totals, dirs, resolveMode(), modeSource()) + "\n");
}
