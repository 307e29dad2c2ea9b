/**
 * The other suites that write ledgers beside the last run's: a vitest suite and a node:test
 * suite of one project (two mocha or vitest configs) sharing one fixture directory. Each
 * complete run knows only its own tests, so what the last run did not use may be what another
 * suite uses: `prune` keeps what another suite's last run used, and refuses when that run
 * cannot be trusted.
 *
 * An earlier run is another suite when none of its test files is one of a later run's (runs of
 * one suite share test files, whatever the branch or the file added or renamed) and one of its
 * test files is still on disk (a suite whose files are all gone uses nothing).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { readLedgers, runVerdict, runsNewestFirst, type RunVerdict } from "./ledgerFiles";

export interface LedgerVerdicts {
  /** The last run. */
  last: RunVerdict;
  /** The last run of each other suite, most recent first. */
  otherSuites: RunVerdict[];
}

export function ledgerVerdicts(ledgerDir: string, root: string): LedgerVerdicts | undefined {
  const { ledgers, unreadable } = readLedgers(ledgerDir);
  const runs = runsNewestFirst(ledgers);
  if (runs.length === 0) return undefined;
  const last = runVerdict(runs[0], unreadable, ledgerDir, root);
  const suites: Set<string>[] = [new Set(last.specFiles)];
  const otherSuites: RunVerdict[] = [];
  for (const run of runs.slice(1)) {
    const files = new Set(run.flatMap((l) => l.specFiles));
    if (files.size === 0) continue;
    const suite = suites.find((s) => [...files].some((f) => s.has(f)));
    if (suite) {
      for (const f of files) suite.add(f); // an older run of a known suite: its files are that suite's too
      continue;
    }
    suites.push(files);
    if ([...files].some((f) => fs.existsSync(path.resolve(root, f)))) otherSuites.push(runVerdict(run, unreadable, ledgerDir, root));
  }
  return { last, otherSuites };
}
