/**
 * `langchain-vcr/jest/reporter`: `reporters: ["default", "langchain-vcr/jest/reporter"]`.
 * Runs in jest's main process. Constructed before any test runs, it checks the mode (a bad
 * LANGCHAIN_VCR_MODE ends the run with the message, no stack) and starts the run the test
 * files report to. After each test file it undoes what that file's failed tests recorded; at
 * the end it prints one summary line and writes the ledger, partial after `-t`, named test
 * files, options that leave test files out (`--testPathIgnorePatterns`, ...),
 * `--onlyChanged`/`--findRelatedTests`/`--changedSince`/`--onlyFailures`, watch mode, `.only`, or a failure; `--shard` runs are shards `prune` merges. The run is on record (as unfinished) from
 * the moment its tests start.
 */
import { exitOnConfigError } from "../runner/configCheck";
import { restoreFailedTest } from "../runner/cleanup";
import { keepShared } from "../runner/lifecycle";
import { failedOnMiss, timedOut } from "../runner/caughtMisses";
import { filesUsingOnly } from "../runner/onlyScan";
import { argvNarrowingReason, NARROWING_OPTIONS } from "../runner/narrowingArgs";
import { finishRun, readRunReports, recordRunStart, startRun, unitReport, withoutPlugin, type RunShare } from "../runner/share";
import * as path from "node:path";
import { log } from "../log";
import { isCi, MODE_ENV } from "../modes";
import { nodeOptionsPrefix } from "../diagnose/commandEnv";
import type { Shard } from "../runner/ledgerFiles";
import { scopeOf, type JournalEntry } from "./journal";
import { REPORTER_IN_TEST_FILE, slotError } from "./slots";

interface JestGlobalConfig {
  testNamePattern?: string;
  nonFlagArgs?: string[];
  testPathPatterns?: { patterns?: string[] } | string[];
  onlyChanged?: boolean;
  findRelatedTests?: boolean;
  onlyFailures?: boolean;
  changedSince?: string;
  lastCommit?: boolean;
  watch?: boolean;
  watchAll?: boolean;
  shard?: { shardIndex: number; shardCount: number };
  /** `--ci`, or jest's own guess that it runs in CI (ci-info). */
  ci?: boolean;
}
interface AssertionLike {
  fullName: string;
  status: string;
  failureMessages?: string[];
}
interface TestFileResult {
  testFilePath: string;
  testResults: AssertionLike[];
  testExecError?: unknown;
}
interface AggregatedLike {
  success: boolean;
  numFailedTests: number;
  numFailedTestSuites: number;
  numRuntimeErrorTestSuites: number;
  testResults: TestFileResult[];
}

class LangchainVcrJestReporter {
  private readonly share: RunShare;
  private readonly failed: string[] = [];
  private readonly files: string[] = [];
  /** Test files in which at least one test ran (a file whose tests were all skipped reports nothing). */
  private ran = 0;
  private undone = 0;

  constructor(private readonly globalConfig: JestGlobalConfig = {}) {
    exitOnConfigError();
    this.share = startRun("jest");
  }

  /** The tests are about to run (not for `--listTests`): the run is on record from here. */
  onRunStart(): void {
    recordRunStart(this.share, this.shard());
    if (this.globalConfig.ci && !isCi() && !process.env[MODE_ENV]) {
      // jest's --ci does not seal the run: a request without a fixture would go to the provider and be recorded (trial 38)
      // jest's ESM support (--experimental-vm-modules) carried over, as a miss's command carries it (trial 48: without it, "Must use import")
      const env = `${nodeOptionsPrefix(true)}CI=true`;
      log.note(
        `jest runs with --ci, but the CI environment variable is not set, so langchain-vcr's mode is record_or_replay (unless your code sets one): ` +
          `a request without a fixture is sent to the provider and recorded.\n  To replay only, as in CI: ${env} npx jest --ci (or ${MODE_ENV}=replay_only).\n`,
      );
    }
  }

  private shard(): Shard | undefined {
    const s = this.globalConfig.shard;
    return s ? { index: s.shardIndex, total: s.shardCount } : undefined;
  }

  onTestResult(_test: unknown, result: TestFileResult): void {
    const failed = result.testResults.filter((t) => t.status === "failed");
    this.files.push(result.testFilePath);
    if (result.testResults.some((t) => t.status === "passed" || t.status === "failed")) this.ran++;
    for (const t of failed) this.failed.push(t.fullName);
    const report = unitReport(this.share, result.testFilePath);
    const entries = (report?.extra ?? []) as JournalEntry[];
    const passed = new Set(result.testResults.filter((t) => t.status === "passed").map((t) => t.fullName));
    // a test that passed although a request of it had no fixture, or failed on another error: the worker made the notes, jest tells here how it ended
    // each attempt's failure, the last attempt's last: whether it timed out is the last one's (jest.retryTimes)
    const errors = new Map(failed.map((t) => [t.fullName, { message: (t.failureMessages ?? []).join("\n"), last: t.failureMessages?.at(-1) }] as const));
    for (const e of entries) {
      const error = errors.get(e.title);
      if (e.caught && passed.has(e.title))
        log.note(e.caught.passed + "\n"); // LANGCHAIN_VCR_QUIET silences it: a test may expect its miss
      else if (e.caught && error && !failedOnMiss(error))
        log.warn((timedOut({ message: error.last }) ? (e.caught.timedOut ?? e.caught.failed) : e.caught.failed) + "\n");
    }
    if (failed.length === 0) return;
    const titles = new Set(failed.map((t) => t.fullName));
    // a failed test's recording that a test beside it replayed, and passed with, stays (runner/sharedRecordings.ts)
    const passedWith = new Map<string, string>();
    for (const e of entries) if (passed.has(e.title)) for (const f of e.usedFromOthers ?? []) passedWith.set(f, e.title);
    for (const entry of entries) {
      if (!titles.has(entry.title)) continue;
      const scope = scopeOf(entry);
      scope.specFile = result.testFilePath; // the note names it: a test of the same title may fail in another file
      keepShared(
        scope,
        [...scope.created].filter((f) => passedWith.has(f)).map((file) => ({ file, passedWith: passedWith.get(file), handedTo: [] })),
      );
      this.undone += restoreFailedTest(scope).undone; // counted here: the worker that recorded them has reported already
    }
  }

  onRunComplete(_contexts: unknown, results: AggregatedLike): void {
    const c = this.globalConfig;
    const reasons: string[] = [];
    if (c.testNamePattern) reasons.push(`-t ${JSON.stringify(c.testNamePattern)} selected only some tests`);
    const patterns = Array.isArray(c.testPathPatterns) ? c.testPathPatterns : (c.testPathPatterns?.patterns ?? []);
    const shard = this.shard();
    if (patterns.length && !shard) reasons.push(`test files were selected on the command line (${patterns.join(" ")}), so this may be a subset of the suite`);
    const narrowed = argvNarrowingReason(NARROWING_OPTIONS.jest);
    if (narrowed) reasons.push(narrowed);
    if (c.onlyChanged || c.lastCommit || c.changedSince)
      reasons.push("only the test files related to changed files ran (--onlyChanged/--changedSince/--lastCommit)");
    if (c.findRelatedTests) reasons.push("--findRelatedTests ran only the tests related to the given sources");
    if (c.onlyFailures) reasons.push("--onlyFailures ran only the tests that failed in the run before");
    if (c.watch || c.watchAll) reasons.push("watch mode runs are never complete");
    const focused = filesUsingOnly(this.files);
    if (focused.length) reasons.push(`.only selected exclusive tests in ${focused.join(", ")}`);
    if (results.numRuntimeErrorTestSuites) reasons.push(`${results.numRuntimeErrorTestSuites} test file(s) failed to run`);
    // jest sets results.success only after the reporters have run
    const exitCode = results.numFailedTests || results.numFailedTestSuites || results.numRuntimeErrorTestSuites ? 1 : 0;
    // not in a run that selected some test files or projects: one without the plugin's (--selectProjects web) is no sign of a mistake
    const selected =
      patterns.length > 0 || !!narrowed || !!(c.onlyChanged || c.lastCommit || c.changedSince || c.findRelatedTests || c.onlyFailures) || !!shard;
    const reports = readRunReports(this.share);
    const unplugged = reports.reports
      .filter((r) => r.unplugged)
      .map((r) => r.unit)
      .sort(); // in any run: these files did use langchain-vcr
    if (unplugged.length) log.warn(usedWithoutPlugin(unplugged));
    else if (!selected && this.ran > 0 && reports.reports.length === 0) log.warn(pluginNotLoaded(this.ran));
    // jest writes everything to stderr; the summary line goes with it
    const print = (line: string) => process.stderr.write("\n" + line + "\n");
    finishRun(this.share, { reasons, failed: this.failed, exitCode, shard, undone: this.undone, print, reports });
  }
}

/** Test files that used langchain-vcr (a setup file of the user's called vcr.install()) without langchain-vcr/jest. */
function usedWithoutPlugin(files: string[]): string {
  const named = files.map((f) => path.relative(process.cwd(), f) || f);
  return (
    `${files.length} ${withoutPlugin("jest")} (${named.slice(0, 3).join(", ")}${files.length > 3 ? ", …" : ""}): the summary below leaves them out, no test of theirs was scoped or cleaned up after, and \`prune\` will not trust this run.\n` +
    `  Nearest: jest reads setupFilesAfterEnv from each project's config (or the config itself), and langchain-vcr/jest is not in the one these files ran under.\n` +
    `  Fix it: put "langchain-vcr/jest" first in that setupFilesAfterEnv, before the setup file that calls vcr.install(), as docs/runners.md shows.`
  );
}

/** A whole run in whose `ran` test files tests ran, and none of which loaded langchain-vcr/jest (which reports to this reporter). */
function pluginNotLoaded(ran: number): string {
  return (
    `tests ran in ${ran} test file(s), and none of them loaded langchain-vcr/jest, though its reporter is configured: no test was scoped or cleaned up after, and no fixture use was counted.\n` +
    `  A setup file next to it in setupFilesAfterEnv (the one calling vcr.install()) did not run either, so models that rely on it were neither recorded nor replayed.\n` +
    `  Nearest: with projects, jest reads setupFilesAfterEnv from each project's config, not the root's (reporters come from the root).\n` +
    `  Fix it: add setupFilesAfterEnv: ["langchain-vcr/jest", …] to the config of every project that calls models (or to the config itself when it has no projects), as docs/runners.md shows.`
  );
}

/**
 * What jest loads: the reporter, which jest constructs; called as a function, it is in a test
 * file's slot (jest calls the function a `setupFiles` or `setupFilesAfterEnv` module exports, where
 * the class would fail with "cannot be invoked without 'new'"), and says so.
 */
const entry = function (this: unknown, globalConfig?: JestGlobalConfig): LangchainVcrJestReporter {
  if (!new.target) throw slotError(REPORTER_IN_TEST_FILE);
  return new LangchainVcrJestReporter(globalConfig);
} as unknown as typeof LangchainVcrJestReporter;
export = entry;
