/**
 * The other suites that write ledgers beside the last run's: a vitest suite and a node:test
 * suite of one project (two mocha or vitest configs) sharing one fixture directory. Each
 * complete run knows only its own tests, so what the last run did not use may be what another
 * suite uses: `prune` keeps what another suite's last run used, and refuses when that run
 * cannot be trusted.
 *
 * An earlier run is another suite when it ran under another runner (a mocha config beside a
 * vitest suite may run a file of it too: neither run knows the other's tests), or none of its test
 * files is one of a later complete run's (runs of one suite share test files, whatever the branch
 * or the file added or renamed), and one of its test files is still on disk (a suite whose files are all gone uses nothing). A partial
 * run names a subset, or a mix (`mocha other/b.test.js test/a.spec.js`): it never widens a suite,
 * so it cannot join two. An earlier run that names no test file (killed before its first file
 * ended) tells nothing: skipped. When the last run names none (a complete run whose tests have no
 * file, mocha's programmatic API), every earlier suite counts as another: prune keeps more, never less.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { readLedgers, relativeToRoot, runVerdict, runsNewestFirst, type RunVerdict } from "./ledgerFiles";

export interface LedgerVerdicts {
  /** The last run of the ledgers asked about; undefined when only other sources hold runs (`ledgerVerdicts`). */
  last?: RunVerdict;
  /** When the last run was partial (a name filter): its suite's most recent complete run, if a kept ledger holds one. */
  lastComplete?: RunVerdict;
  /** The most recent run of the last run's suite before it that was complete, or is only outdated by test files changed since (`runner/leftOut.ts`). */
  previous?: RunVerdict;
  /** Each other suite, by its last run, most recent first. */
  otherSuites: OtherSuite[];
}

export interface OtherSuite {
  /** The suite's last run. */
  run: RunVerdict;
  /** The directories of the fixtures any of its runs used (absolute): whether it shares a fixture directory at all. */
  dirs: Set<string>;
  /** The ledger directories of all its runs (deleting them forgets the suite). */
  ledgers: Set<string>;
}

/**
 * Where a suite's ledgers are, and the directory their paths are relative to (where it ran). A
 * workspace whose packages share one fixture directory has one per package (`otherLedgerSources`, cli/ledgers.ts).
 */
export interface LedgerSource {
  dir: string;
  root: string;
}

/**
 * The last run of the first source's ledgers and the other suites of them all. Runs of another
 * source (another package's, the workspace root's) are always another suite, with their test files
 * named from the first source's root: a run from the root may name every package's files, and
 * joining it to this package's suite would join the other packages' runs too (their fixtures
 * would then look unused here). Without a run in the first source, there is no last run: only
 * the other suites.
 */
export function ledgerVerdicts(ledgerDir: string, root: string, others: readonly LedgerSource[] = [], dir?: string): LedgerVerdicts | undefined {
  const { ledgers, unreadable } = readLedgers(ledgerDir);
  const runs = runsNewestFirst(ledgers).map((run) => runVerdict(run, unreadable, ledgerDir, root));
  const elsewhere = others.flatMap((o) => verdictsOf(o, root));
  if (runs.length === 0 && elsewhere.length === 0) return undefined;
  // asked about one fixture directory: a suite of these ledgers that never used it (a second config with
  // fixtures of its own, run last) is not its last run; the newest suite here that used it is (user trial 43).
  // Only a last run that names its test files, and is complete or of a suite with a complete run, is known to be
  // such a suite: a run that names none (killed before its first file ended), or a partial one of a suite never
  // run whole, may be any suite's, and stays the last run (prune refuses on it).
  const setAside: RunVerdict[] = [];
  for (;;) {
    const grouped = groupSuites(runs, elsewhere, ledgerDir, root);
    const own = grouped.own;
    const last = grouped.last;
    if (dir === undefined || !own || !last || last.specFiles.length === 0 || (!last.complete && !own.lastComplete) || own.dirs.has(dir))
      return grouped.verdicts(setAside);
    const sharing = grouped.suites.some((s) => s !== own && s.source === ledgerDir && s.run && s.dirs.has(dir));
    if (!sharing) return grouped.verdicts(setAside);
    for (const r of own.members) {
      setAside.push(r);
      const at = runs.indexOf(r);
      if (at >= 0) runs.splice(at, 1);
    }
  }
}

/** The runs, newest first, grouped into suites: the last run's own, and the others. */
function groupSuites(runs: RunVerdict[], elsewhere: { verdict: RunVerdict; source: string }[], ledgerDir: string, root: string) {
  const last = runs.length ? runs[0] : undefined;
  const mine = runs.slice(1).map((verdict) => ({ verdict, source: ledgerDir }));
  const older = [...mine, ...elsewhere].sort((a, b) => Date.parse(b.verdict.startedAt) - Date.parse(a.verdict.startedAt));
  const suites: Suite[] = last
    ? [
        {
          runner: last.runner,
          source: ledgerDir,
          files: new Set(last.specFiles),
          dirs: new Set([...last.used].map((f) => path.dirname(f))),
          ledgers: new Set(last.files.map((f) => path.dirname(f))),
          runs: 0,
          members: [last],
        },
      ]
    : [];
  for (const { verdict, source } of older) {
    const files = verdict.specFiles;
    if (files.length === 0) continue;
    let suite = suites.find((s) => s.runner === verdict.runner && s.source === source && files.some((f) => s.files.has(f)));
    if (suite) {
      // an older run of a known suite: a complete one's files are that suite's too
      if (verdict.complete) for (const f of files) suite.files.add(f);
    } else {
      const gone = !stillOnDisk(files, root);
      suites.push(
        (suite = {
          runner: verdict.runner,
          source,
          files: new Set(files),
          run: gone ? undefined : verdict,
          dirs: new Set(),
          ledgers: new Set(),
          runs: 0,
          members: [],
        }),
      );
    }
    suite.runs++;
    if (source === ledgerDir) suite.members.push(verdict);
    // the run before, judged test file by test file (leftOut.ts): one whose test files changed since on disk counts too
    if (verdict.complete || verdict.outdated) suite.previous ??= verdict;
    if (verdict.complete) suite.lastComplete ??= verdict;
    for (const f of verdict.used) suite.dirs.add(path.dirname(f));
    for (const f of verdict.files) suite.ledgers.add(path.dirname(f));
  }
  const own = last ? (suites[0].runs === 0 ? newFileSuite(suites, last, ledgerDir) : suites[0]) : undefined;
  if (own && own !== suites[0]) {
    // the new test file's run joins that suite: what it used, and its ledgers, are the suite's
    for (const d of suites[0].dirs) own.dirs.add(d);
    for (const l of suites[0].ledgers) own.ledgers.add(l);
    own.members.push(last!);
  }
  return {
    last,
    own,
    suites,
    /** The verdicts; `setAside`: runs of suites that never used the directory asked about, other suites of it (they share none of it). */
    verdicts(setAside: RunVerdict[]): LedgerVerdicts {
      // the newest run of each suite set aside is its last (a suite whose test files are all gone is none, as below)
      const aside = setAside.length
        ? groupSuites(setAside, [], ledgerDir, root).suites.flatMap((s, i) => {
            const run = i === 0 ? (stillOnDisk(s.files, root) ? s.members[0] : undefined) : s.run;
            return run ? [{ ...s, run }] : [];
          })
        : [];
      const newestFirst = (list: Suite[]) => otherSuitesOf(list).sort((a, b) => Date.parse(b.run.startedAt) - Date.parse(a.run.startedAt));
      if (!last || !own) return { otherSuites: newestFirst([...suites, ...aside]) };
      const rest = suites.filter((s) => s !== own && s !== suites[0]);
      return { last, lastComplete: last.complete ? undefined : own.lastComplete, previous: own.previous, otherSuites: newestFirst([...rest, ...aside]) };
    },
  };
}

/** Whether one of a suite's test files is still on disk (a suite whose files are all gone uses nothing). */
function stillOnDisk(files: Iterable<string>, root: string): boolean {
  for (const f of files) if (fs.existsSync(path.resolve(root, f))) return true;
  return false;
}

/** A suite as the runs newest first are grouped: its test files so far, and its runs'. */
type Suite = {
  runner: string;
  source: string;
  files: Set<string>;
  run?: RunVerdict;
  runs: number;
  previous?: RunVerdict;
  lastComplete?: RunVerdict;
  /** Its runs of the first source's ledgers, newest first. */
  members: RunVerdict[];
} & Omit<OtherSuite, "run">;

function otherSuitesOf(suites: Suite[]): OtherSuite[] {
  return suites.flatMap((s) => (s.run ? [{ run: s.run, dirs: s.dirs, ledgers: s.ledgers }] : []));
}

/**
 * The suite of a last run that shares no test file with any earlier one. A partial run of a new
 * test file alone (`vitest run test/new.spec.ts`, recording it) is the suite's own when exactly
 * one earlier suite of its runner wrote ledgers here: `show` then names that suite's last complete
 * run, not "another suite". A complete run, or a choice of two, stays a suite of its own (prune
 * keeps more, never less).
 */
function newFileSuite(suites: Suite[], last: RunVerdict, ledgerDir: string): Suite {
  if (last.complete || last.specFiles.length === 0) return suites[0];
  const same = suites.slice(1).filter((s) => s.run && s.runner === last.runner && s.source === ledgerDir);
  return same.length === 1 ? same[0] : suites[0];
}

/** Every run of another source's ledgers, its test files named from `root` (`source`: its ledger directory, which tells its suites apart). */
function verdictsOf(o: LedgerSource, root: string): { verdict: RunVerdict; source: string }[] {
  const { ledgers, unreadable } = readLedgers(o.dir);
  const fromRoot = (f: string) => relativeToRoot(root, path.resolve(o.root, f));
  return runsNewestFirst(ledgers).map((run) => {
    const v = runVerdict(run, unreadable, o.dir, o.root);
    const usedBy = new Map([...v.usedBy].map(([fixture, tests]) => [fixture, new Map([...tests].map(([spec, titles]) => [fromRoot(spec), titles]))] as const));
    const specDigests = new Map([...v.specDigests].map(([f, digest]) => [fromRoot(f), digest] as const));
    return { verdict: { ...v, specFiles: v.specFiles.map(fromRoot), specDigests, usedBy }, source: o.dir };
  });
}

/** The other suites that share fixture directory `dir` (any of their runs used a fixture there). */
export function suitesSharing(v: LedgerVerdicts, dir: string): OtherSuite[] {
  return v.otherSuites.filter((o) => o.dirs.has(dir));
}
