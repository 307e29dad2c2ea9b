/**
 * One run of a runner whose tests run in other processes (vitest, jest, node:test): the main
 * process starts a run (`startRun`), which its test processes find through an environment
 * variable they inherit (`joinRun`). Each test file ("unit") a test process runs leaves one
 * report in the run's directory: written as unfinished when the file starts, rewritten with its
 * counts, fixture use and failures when it ends. The main process puts the run on record when
 * its tests start (`recordRunStart`), and adds the reports up at the end (`finishRun`): one
 * summary line and the run's ledger, in the same file. A report still unfinished at the end (a
 * worker killed mid-file) makes the run partial, so `prune` never trusts a run that lost
 * part of its fixture use.
 */
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { newRunIds, parseEnvJson } from "./runIds";
import {
  LEDGER_VERSION,
  RootRelative,
  defaultLedgerDir,
  ledgerRoot,
  removeOldRuns,
  warnUnwritableLedger,
  writeLedger,
  type LedgerRecord,
  type Shard,
} from "./ledgerFiles";
import { usageSummaryLine, type Totals } from "./summary";
import { Usage } from "./usage";
import { causesRecord, type MissCausesRecord } from "./missCauses";
import type { UsedByRecord } from "./usedBy";
import type { MissedTest } from "../diagnose/rerecordCommand";
import { removeStaleRunDirs } from "./staleTmp";
import { forgetRunDigests, specFacts } from "./specDigests";
import { checkoutOf } from "./checkout";
import { rootInRepo } from "./runRoot";
import { log } from "../log";
import { processWide } from "../processWide";
import { SHARE_ENV } from "./shareEnv";
import { COMMAND_OPTIONS, commandArgsOf } from "./commandArgs";
import { unwritableDirectory } from "../fsProbe";
import { replaceFile } from "../replaceFile";

export { SHARE_ENV };

export interface RunShare {
  runner: string;
  runId: string;
  mainId: string;
  mainPid: number;
  startedAt: string;
  dir: string;
  /** Where the run is rooted (`ledgerRoot`): its ledger's paths are relative to it. */
  root: string;
  /** The main process's working directory: test files reported relative to it (node:test) are resolved against it. */
  cwd?: string;
  /** vitest's and jest's options that chose the config (`commandArgs.ts`): a miss's command to record a test again carries them. */
  command?: string[];
  /** Why the temp directory the test processes report to cannot be written (TMPDIR), when it cannot: the run is partial. */
  tmpProblem?: string;
  /** When this run's tests last started (`recordRunStart`): in watch mode, each rerun's (`startedAt` is the session's). */
  testsStartedAt?: string;
}

export interface UnitReport {
  unit: string;
  pid: number;
  done: boolean;
  totals?: Totals;
  dirs?: string[];
  used?: string[];
  usedBy?: UsedByRecord;
  modes?: string[];
  /** Each miss's first difference from its nearest fixture → how many misses, and which requests (the summary's roll-up). */
  missCauses?: MissCausesRecord;
  /** The tests whose misses a recording fixes (the summary's one command for them). */
  missedTests?: MissedTest[];
  failed?: string[];
  /** Runner-specific extras (jest: what each test recorded, for the reporter to undo). */
  extra?: unknown[];
  /** jest: the file used langchain-vcr without langchain-vcr/jest, so nothing of its use was counted (`install/jestUnplugged.ts`). */
  unplugged?: boolean;
}

/** The main process starts the run its test processes will join. */
export function startRun(runner: string, env: NodeJS.ProcessEnv = process.env): RunShare {
  const existing = parseShare(env[SHARE_ENV]);
  if (existing && existing.mainPid === process.pid) return existing;
  const now = new Date();
  const { mainId, runId } = newRunIds(process.pid, now, env);
  const share: RunShare = {
    runner,
    runId,
    mainId,
    mainPid: process.pid,
    startedAt: now.toISOString(),
    dir: path.join(os.tmpdir(), `langchain-vcr-run-${mainId}`),
    root: ledgerRoot(),
    cwd: process.cwd(),
  };
  const command = runner in COMMAND_OPTIONS ? commandArgsOf(runner as keyof typeof COMMAND_OPTIONS) : [];
  if (command.length) share.command = command;
  const tmpProblem = unwritableDirectory(os.tmpdir());
  if (tmpProblem) {
    share.tmpProblem = `the temp directory ${os.tmpdir()} (TMPDIR) cannot be written (${tmpProblem}), so the test processes could not report which fixtures they used`;
    log.warn(`${share.tmpProblem}: the run is partial, and its summary counts nothing.\n  Fix: set TMPDIR to a writable directory.\n`);
  }
  // the directory is made by the first report written to it: a command that runs no test
  // (`vitest list`) leaves nothing behind in the temp dir
  env[SHARE_ENV] = JSON.stringify(share);
  removeStaleRunDirs(); // what killed runs left there
  return share;
}

/** The run this test process belongs to, if its main process started one. */
export function joinRun(env: NodeJS.ProcessEnv = process.env): RunShare | undefined {
  return parseShare(env[SHARE_ENV]);
}

function parseShare(text: string | undefined): RunShare | undefined {
  return parseEnvJson<RunShare>(text, (s) => typeof s.dir === "string" && typeof s.runId === "string" && typeof s.mainId === "string");
}

let unitSeq = 0;

/** The finished unit of this process still taking in late use, until the next unit starts (`Unit.finish`). */
const followingSlot = processWide("unit.following.v1", () => ({ unit: undefined as { stopFollowing(): void } | undefined }));

/** One test file in a test process: its usage, its failed tests, and its report. */
export class Unit {
  readonly usage: Usage;
  readonly failed: string[] = [];
  /** Tests that failed an attempt and may pass a later one, by the runner's id of the test. */
  private readonly failedAttempts = new Map<string, string>();
  readonly extra: unknown[] = [];
  private readonly file: string;
  /** Set by `finish({ followLateUse: true })`: the report is final but still takes in later use. */
  private following = false;

  private announced = false;

  /** Use or a failure since the report was last written (`testEnded`). */
  private changed = false;

  /**
   * `announce: false` (jest): the unfinished report is written by `announce()`, once the file's
   * tests start, not now. jest runs no hook of a file whose tests are all skipped (or that fails
   * to load), so a report written at load would never finish, and the run would look as if a
   * worker had died.
   */
  constructor(
    private readonly share: RunShare | undefined,
    readonly name: string,
    { announce = true }: { announce?: boolean } = {},
  ) {
    this.file = share ? path.join(share.dir, `${process.pid}-${++unitSeq}-${randomBytes(2).toString("hex")}.json`) : "";
    this.usage = new Usage(name.startsWith("(") ? "" : name).start(() => this.used()); // "(unknown test file)" names none
    followingSlot.unit?.stopFollowing(); // the file before this one in the process is over, its hooks included
    if (announce) this.announce();
  }

  /** Puts the file on record as unfinished: if its process dies before `finish`, the run is partial. */
  announce(): void {
    if (this.announced) return;
    this.announced = true;
    this.write({ unit: this.name, pid: process.pid, done: false });
  }

  /**
   * `attempt`: the runner's id of the test, given by a runner that may run it again (vitest's
   * `retry`): a later attempt that passes takes the failure back (`markPassed`).
   */
  markFailed(title: string, attempt?: string): void {
    if (attempt === undefined) this.failed.push(title);
    else this.failedAttempts.set(attempt, title);
    this.changed = true;
  }

  /** The test `attempt` names passed: an earlier attempt's failure no longer counts. */
  markPassed(attempt: string): void {
    if (this.failedAttempts.delete(attempt)) this.changed = true;
  }

  /**
   * A test of the file is over (vitest): the report, still unfinished, is rewritten with the use
   * so far when there is any since the last write. vitest skips the file's remaining `afterAll`
   * hooks, the setup file's `finish` among them, once one throws or times out: the run is then
   * partial, but its summary still counts what the file's tests used.
   */
  testEnded(): void {
    if (!this.share || !this.changed || this.following) return;
    this.changed = false;
    this.write(this.report(false));
  }

  /**
   * The file's tests are over: its report is final. `followLateUse`: use made after this (in a
   * hook of the test file's own that its runner runs after the setup file's `afterAll`: jest
   * always, vitest under `sequence.hooks` "list" or "parallel") rewrites the report with it, so
   * a fixture used only there is in the ledger. It follows until the next unit of the process
   * starts: a test process runs one test file at a time.
   */
  finish({ followLateUse = false }: { followLateUse?: boolean } = {}): void {
    if (followLateUse) {
      this.following = true;
      followingSlot.unit = this;
    } else this.usage.stop();
    this.writeFinal();
  }

  stopFollowing(): void {
    this.following = false;
    this.usage.stop();
    if (followingSlot.unit === this) followingSlot.unit = undefined;
  }

  private used(): void {
    // used before its tests start (a model called while jest loads the file): on record now, or a file whose tests are all skipped would lose it
    if (!this.announced) this.announce();
    this.changed = true;
    if (this.following) this.writeFinal();
  }

  private writeFinal(): void {
    this.write(this.report(true));
  }

  private report(done: boolean): UnitReport {
    const u = this.usage;
    u.noteVcrs();
    return {
      unit: this.name,
      pid: process.pid,
      done,
      totals: u.totals,
      dirs: [...u.dirs],
      used: [...u.used],
      usedBy: u.usedByRecord(),
      modes: [...u.modes],
      missCauses: causesRecord(u.missCauses),
      missedTests: [...u.missedTests.values()],
      failed: [...this.failed, ...this.failedAttempts.values()],
      extra: this.extra,
    };
  }

  private write(report: UnitReport): void {
    if (!this.share) return;
    try {
      replaceFile(this.file, JSON.stringify(report));
    } catch (e) {
      // the main process said it once for the run (`tmpProblem`): not again at every write of every file
      if (!this.share.tmpProblem) log.warn(`could not write this test file's usage report in ${this.share.dir}: ${(e as Error).message}`);
    }
  }
}

export interface RunEnd {
  /** What the runner's own options say makes the run partial (a name filter, named files, ...). */
  reasons: string[];
  /** The tests that failed, by title, as the main process saw them (added to those the units report). */
  failed?: string[];
  /** 0 when the runner says the run passed. */
  exitCode: number;
  shard?: Shard;
  /** Usage of the main process itself (a runner that runs tests in band). */
  local?: Usage;
  /** Recordings the main process took back from failed tests (jest's reporter), beyond those the units report. */
  undone?: number;
  /** Write the summary line here (default: stdout). */
  print?: (line: string) => void;
  /** The units' reports, when the main process read them already to act on them (`readRunReports`): read once. */
  reports?: RunReports;
}

/** The main process: adds up every unit's report, prints the summary line, writes the run's ledger. */
export function finishRun(share: RunShare, end: RunEnd): { record: LedgerRecord; line: string } {
  const total = new Usage();
  if (end.local) total.add(end.local);
  const failed = [...(end.failed ?? [])];
  const unfinished: string[] = [];
  const reasons = [...end.reasons];
  if (share.tmpProblem) reasons.push(share.tmpProblem);
  const { reports, problems } = end.reports ?? readRunReports(share);
  reasons.push(...problems);
  const rel = new RootRelative(share.root);
  const specFiles = new Set<string>();
  const unplugged: string[] = [];
  for (const r of reports) {
    if (r.unplugged) unplugged.push(r.unit.startsWith("(") ? r.unit : rel.of(path.resolve(cwdOf(share), r.unit)));
    if (!r.done) unfinished.push(r.unit);
    // an unfinished report counts the use it holds (vitest writes it after each test): the run is partial all the same
    else if (!r.unit.startsWith("(")) specFiles.add(rel.of(path.resolve(cwdOf(share), r.unit))); // "(unknown test file)" names none
    // the files its tests were declared in and used fixtures from (node:test's entry file imports the test files): they ran too
    if (r.done)
      for (const tests of Object.values(r.usedBy ?? {}))
        for (const spec of Object.keys(tests)) if (spec !== "" && !spec.startsWith("(")) specFiles.add(rel.of(path.resolve(cwdOf(share), spec)));
    if (!r.done && !r.totals) continue; // put on record as its file began, and nothing since
    total.add({
      totals: r.totals ?? ({} as Totals),
      dirs: r.dirs ?? [],
      used: r.used,
      usedBy: r.usedBy,
      modes: r.modes,
      missCauses: r.missCauses,
      missedTests: r.missedTests,
    });
    for (const f of r.failed ?? []) if (!failed.includes(f)) failed.push(f);
  }
  total.totals.undone += end.undone ?? 0;
  if (unfinished.length) {
    reasons.push(
      `${unfinished.length} test file(s) stopped before they finished (${unfinishedCauses(share.runner)}), so their fixture use is not fully known: ${unfinished.slice(0, 3).join(", ")}`,
    );
  }
  if (unplugged.length) reasons.push(`${unplugged.length} ${withoutPlugin(share.runner)}: ${unplugged.sort().slice(0, 3).join(", ")}`);
  if (failed.length) reasons.push(`${failed.length} test(s) failed (first: ${JSON.stringify(failed[0])})`);
  const specList = [...specFiles].sort();
  const record = runRecord(share, {
    specFiles: specList,
    ...specFacts(share.root, specList),
    checkout: checkoutOf(share.root),
    exitCode: end.exitCode,
    shard: end.shard,
    partial: reasons,
    used: [...total.used].map((f) => rel.of(f)).sort(),
    usedBy: total.usedByRecord((f) => rel.of(path.resolve(cwdOf(share), f))), // node:test names its test file relative to the working directory
  });
  writeRunLedger(share, record, { removeOld: true });
  try {
    fs.rmSync(share.dir, { recursive: true, force: true });
  } catch (e) {
    // TMPDIR not a directory (ENOTDIR): no report was written there, and the run said so (`tmpProblem`)
    if (!share.tmpProblem) log.warn(`could not remove the run's usage reports in ${share.dir}: ${(e as Error).message}`);
  }
  // every test file reported in full (none unfinished, unplugged or unreadable; at least one there): whether one built a Vcr is known
  const allReported = unfinished.length === 0 && unplugged.length === 0 && problems.length === 0 && (reports.length > 0 || end.local !== undefined);
  const line = usageSummaryLine(total, allReported ? share.runner : undefined);
  (end.print ?? ((l: string) => process.stdout.write("\n" + l + "\n")))(line);
  return { record, line };
}

/** Why a test file's report can stay unfinished: vitest skips the setup file's `afterAll` (which finishes it) once one of the file's own throws or times out. */
function unfinishedCauses(runner: string): string {
  return runner === "vitest" ? "an afterAll hook of the file failed or timed out, or a worker was killed or crashed" : "a worker was killed or crashed";
}

/**
 * The main process: its tests are starting (vitest's `onTestRunStart`, jest's `onRunStart`,
 * node's test runner once it is loaded), not merely its config being read (`vitest list`
 * runs the plugin's config hook and no test). The run is on record from here, without an
 * exit code: a main process killed before `finishRun` makes `prune` refuse ("did not
 * finish") instead of trusting the run before it, which never saw what this one recorded.
 * `finishRun` rewrites the same file. The shard is in it, so a retried shard's later attempt
 * supersedes the killed one instead of leaving the run unfinished for good. In watch mode the
 * record of each rerun is partial whichever write comes last.
 */
export function recordRunStart(share: RunShare, shard?: Shard): void {
  // the test processes this rerun starts inherit it: what they recorded before it is an earlier run's (runner/runStart.ts)
  share.testsStartedAt = new Date().toISOString();
  forgetRunDigests(); // a rerun's ledger holds its test files as this rerun reads them
  if (parseShare(process.env[SHARE_ENV])?.runId === share.runId) process.env[SHARE_ENV] = JSON.stringify(share);
  writeRunLedger(share, runRecord(share, { shard, partial: [], used: [], usedBy: {}, specFiles: [] }));
}

/** The main process's ledger of the run: without `exitCode` until the run finishes. */
function runRecord(
  share: RunShare,
  fields: Pick<LedgerRecord, "exitCode" | "shard" | "partial" | "used" | "usedBy" | "specFiles" | "specDigests" | "specSiblings" | "checkout">,
): LedgerRecord {
  return {
    ledgerVersion: LEDGER_VERSION,
    runner: share.runner,
    runId: share.runId,
    mainId: share.mainId,
    role: "main",
    pid: share.mainPid,
    startedAt: share.startedAt,
    writtenAt: new Date().toISOString(),
    exitCode: fields.exitCode,
    shard: fields.shard,
    partial: fields.partial,
    specFiles: fields.specFiles,
    ...(fields.specDigests ? { specDigests: fields.specDigests } : {}),
    ...(fields.specSiblings ? { specSiblings: fields.specSiblings } : {}),
    ...(fields.checkout ? { checkout: fields.checkout } : {}),
    ...rootInRepo(share.root),
    used: fields.used,
    usedBy: fields.usedBy,
  };
}

/** The main process's working directory (a share written by an older copy has none: its root was that directory). */
function cwdOf(share: RunShare): string {
  return share.cwd ?? share.root;
}

function writeRunLedger(share: RunShare, record: LedgerRecord, opts: { removeOld?: boolean } = {}): void {
  const ledgerDir = defaultLedgerDir(share.root);
  try {
    if (opts.removeOld) removeOldRuns(ledgerDir);
    writeLedger(ledgerDir, record);
  } catch (e) {
    warnUnwritableLedger(ledgerDir, e);
  }
}

/** What the units used langchain-vcr without the runner's plugin (`UnitReport.unplugged`) are, after their count. */
export function withoutPlugin(runner: string): string {
  return `test file(s) used langchain-vcr without loading langchain-vcr/${runner}, so their fixture use was not counted`;
}

/**
 * The finished report of one unit (a test file), for a main process that acts on it before the run
 * ends (jest's reporter, after each file). A finished report read once is not parsed again: asked
 * after every test file, the run would parse every report once per file.
 */
export function unitReport(share: RunShare, unit: string): UnitReport | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(share.dir).filter((n) => n.endsWith(".json"));
  } catch {
    return undefined;
  }
  for (const name of names) {
    const file = path.join(share.dir, name);
    let report = finishedReports.get(file);
    if (!report) {
      try {
        report = JSON.parse(fs.readFileSync(file, "utf8")) as UnitReport;
      } catch {
        continue; // being written, or damaged: finishRun says so
      }
      if (report.done) finishedReports.set(file, report);
    }
    if (report.unit === unit && report.done) return report;
  }
  return undefined;
}
/** Finished reports `unitReport` has parsed, by file (what it reads of them, `extra` and `failed`, no longer changes). */
const finishedReports = new Map<string, UnitReport>();

/** Every unit's report of the run so far, finished or not, and why any could not be read (each makes the run partial). */
export interface RunReports {
  reports: UnitReport[];
  problems: string[];
}

/** The reports the run's test files (or processes) have written so far (`finishRun` reads them unless given). */
export function readRunReports(share: RunShare): RunReports {
  const out: RunReports = { reports: [], problems: [] };
  let names: string[];
  try {
    names = fs.readdirSync(share.dir).filter((n) => n.endsWith(".json"));
  } catch {
    return out;
  }
  for (const name of names) {
    try {
      out.reports.push(JSON.parse(fs.readFileSync(path.join(share.dir, name), "utf8")) as UnitReport);
    } catch (e) {
      out.problems.push(`a test process's usage report ${name} is unreadable (${(e as Error).message})`);
    }
  }
  return out;
}
