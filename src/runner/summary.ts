/**
 * The one summary line a run prints. Under mocha `--parallel` the tests run in worker
 * processes: each worker leaves its counts in a directory named after the run, and the main
 * process adds them up in `mochaGlobalTeardown`, so the run still prints one line (the other
 * runners exchange theirs through ./share.ts).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_SOURCES, modeSource, resolveMode } from "../modes";
import { log } from "../log";
import { noVcrNote } from "./noVcr";
import { causesRecord, missCausesNote, type MissCauses, type MissCausesRecord } from "./missCauses";
import { missedTestsNote, type MissedTests } from "./missedTests";
import { uncommittedNote } from "./uncommitted";

export interface Totals {
  replayed: number;
  recorded: number;
  bypassed: number;
  /** Of `bypassed`, calls of a model with a cache of its own (chat/ownCache.ts): replay_only stops them, so they fail under CI. */
  bypassedOwnCache: number;
  /** Of `bypassed`, tool bodies run for real (`toolMode: "execute"`, mode `bypass`): no model call, so a sealed run's count is no live call. */
  bypassedTools: number;
  missed: number;
  /** Recordings a failed test's clean-up took back: counted in `recorded` when made, subtracted in the summary. */
  undone: number;
  /** Of `undone`, those of failed attempts that their runner ran again (vitest's `retry`, `jest.retryTimes`): said apart. */
  undoneRetried: number;
  /** `record_or_replay` misses whose live call failed: nothing recorded, and not a `replay_only` miss either. */
  failedLive: number;
  /** Requests refused because their fixture would have held a secret (a VcrSecretError each): nothing written. */
  refused: number;
  /** Lookups that met a damaged fixture file (each threw a `VcrFixtureError`). */
  damaged: number;
  /** Whether the test processes built a Vcr: above 0 when one did (a process's count is added once per test file it reports); 0: the summary's no-Vcr note. */
  vcrs: number;
}

export function emptyTotals(): Totals {
  return {
    replayed: 0,
    recorded: 0,
    bypassed: 0,
    bypassedOwnCache: 0,
    bypassedTools: 0,
    missed: 0,
    undone: 0,
    undoneRetried: 0,
    failedLive: 0,
    refused: 0,
    damaged: 0,
    vcrs: 0,
  };
}

function workerDir(mainId: string): string {
  return path.join(os.tmpdir(), `langchain-vcr-summary-${mainId.replace(/[^\w.-]/g, "_")}`);
}

/** A worker's running counts (rewritten after every spec file it runs); `used`: every fixture file it used in the run (the summary's note on those git does not track). */
export function saveWorkerTotals(
  mainId: string,
  u: { totals: Totals; dirs: ReadonlySet<string>; modes: ReadonlySet<string>; missCauses: MissCauses; missedTests: MissedTests },
  used: ReadonlySet<string> = new Set(),
): void {
  const dir = workerDir(mainId);
  try {
    fs.mkdirSync(dir, { recursive: true });
    const counts = {
      totals: u.totals,
      dirs: [...u.dirs],
      modes: [...u.modes],
      missCauses: causesRecord(u.missCauses),
      missedTests: [...u.missedTests.values()],
      used: [...used],
    };
    fs.writeFileSync(path.join(dir, `${process.pid}.json`), JSON.stringify(counts));
  } catch (e) {
    // the counts are for the summary line only (the usage ledger is written elsewhere): never a failed hook
    if (warnedUnsaved.size === 0)
      log.warn(
        `could not write this test process's counts for the run's summary in ${dir}: ${(e as Error).message}; the summary line leaves them out.\n` +
          `  Fix: set TMPDIR to a writable directory.\n`,
      );
    warnedUnsaved.add(dir);
  }
}
const warnedUnsaved = new Set<string>();

/** Adds every worker's counts, directories and modes to `into`, then removes them. */
export function collectWorkerTotals(
  mainId: string,
  into: { add(w: { totals: Totals; dirs: string[]; modes?: string[]; missCauses?: MissCausesRecord; missedTests?: unknown[]; used?: string[] }): void },
): void {
  const dir = workerDir(mainId);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    try {
      into.add(JSON.parse(fs.readFileSync(path.join(dir, name), "utf8")) as Parameters<typeof into.add>[0]);
    } catch {
      // a worker killed while writing: its counts are lost, the run's result is not
    }
  }
  fs.rmSync(dir, { recursive: true, force: true });
}

export function summaryLine(totals: Totals, dirs: ReadonlySet<string>, mode: string, source: string): string {
  const list = [...dirs];
  const where = list.length === 0 ? "(no fixtures used)" : list.slice(0, 3).join(", ") + (list.length > 3 ? ` and ${list.length - 3} more` : "");
  const notes: string[] = [];
  if (totals.failedLive > 0) notes.push(`${totals.failedLive} request(s) without a fixture failed live`);
  if (totals.refused > 0) notes.push(`${totals.refused} refused: the fixture would have held a secret, nothing written`);
  const retried = Math.min(totals.undone, totals.undoneRetried);
  if (totals.undone > retried) notes.push(`${totals.undone - retried} more undone: their tests failed`);
  if (retried > 0) notes.push(`${retried} more undone: ${retried === 1 ? "a failed attempt" : "failed attempts"} the runner retried`);
  const recorded = `${Math.max(0, totals.recorded - totals.undone)} recorded${notes.length ? ` (${notes.join("; ")})` : ""}`;
  const ownCache = Math.min(totals.bypassed, totals.bypassedOwnCache);
  const tools = Math.min(totals.bypassed - ownCache, totals.bypassedTools);
  const why = [
    ...(tools > 0 ? [`tool bodies run for real, not model calls: ${tools}`] : []), // user trial 56: "1 bypassed" in a sealed run read as a live call
    ...(ownCache > 0 ? [`${ownCache} by a model with a cache of its own: unrecorded, stopped under replay_only, as in CI`] : []),
  ];
  const bypassed = `${totals.bypassed} bypassed${why.length ? ` (${why.join("; ")})` : ""}`;
  return (
    `langchain-vcr: ${totals.replayed} replayed, ${recorded}, ${bypassed}, ` +
    `${totals.missed} missed${totals.damaged > 0 ? ` (+${totals.damaged} lookup(s) met a damaged fixture: npx langchain-vcr validate)` : ""}` +
    ` — mode ${mode} (${source}), fixtures: ${where}`
  );
}

/**
 * The summary line for what one run counted: `summaryLine` with the mode its requests ran under, and the misses' shared
 * causes. `runner` (the run's, `RunShare.runner`): given when the run's test processes all reported, so that none of them
 * having built a Vcr is known, and said (`noVcrNote`).
 */
export function usageSummaryLine(
  u: {
    totals: Totals;
    dirs: ReadonlySet<string>;
    modes: ReadonlySet<string>;
    missCauses?: MissCauses;
    missedTests?: MissedTests;
    /** The fixture files the run replayed or recorded (the note on those git does not track). */
    used?: ReadonlySet<string>;
  },
  runner?: string,
): string {
  const mode = modeInForce(u.modes);
  // a roll-up of misses that share a cause gives the suite's command already
  const causes = (u.missCauses && missCausesNote(u.missCauses, u.totals.missed)) || (u.missedTests && missedTestsNote(u.missedTests));
  const t = u.totals;
  // anything counted came from a Vcr (a process that counted one it did not build, or a report older than the count): no note
  const counted = t.replayed + t.recorded + t.bypassed + t.missed > 0;
  const noVcr = runner !== undefined && !(t.vcrs > 0) && !counted ? noVcrNote(runner) : "";
  // a note, as the near-miss one is: LANGCHAIN_VCR_QUIET silences it
  const uncommitted = u.used && !process.env.LANGCHAIN_VCR_QUIET ? uncommittedNote(u.used) : undefined;
  return [summaryLine(u.totals, u.dirs, mode.mode, mode.source), causes, noVcr, uncommitted].filter(Boolean).join("\n");
}

/** The mode the summary names: the one the requests ran under (a Vcr's `mode:` option wins over the environment). */
export function modeInForce(seen: ReadonlySet<string>): { mode: string; source: string } {
  const configured = resolveMode();
  if (seen.size === 0 || (seen.size === 1 && seen.has(configured))) return { mode: configured, source: modeSource() };
  return { mode: [...seen].sort().join(" + "), source: `set in code; ${runModePhrase(modeSource(), configured)}` };
}

/** "env LANGCHAIN_VCR_MODE says replay_only", "the default is record_or_replay", "the default (CI is set) is replay_only". */
function runModePhrase(source: string, mode: string): string {
  if (source === DEFAULT_SOURCES.plain) return `the default is ${mode}`;
  if (source === DEFAULT_SOURCES.ci) return `the default (CI is set) is ${mode}`;
  return `${source} says ${mode}`;
}
