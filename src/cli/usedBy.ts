/** Which tests used a fixture, from the usage ledgers of the last run and of other suites (`show`'s "used by:", `stats --by-test`). */
import type { RunVerdict } from "../runner/ledgerFiles";

/** What `stats` and `show` say when no run left a ledger. */
export const NO_LEDGER = "no usage ledger; run the whole suite with your test runner's langchain-vcr plugin (mocha, vitest, jest or node:test)";

/**
 * The `used by:` line for one fixture file (absolute path): the last run's tests; else, after a
 * partial run (a name filter), those of the suite's last complete run; else those of the last run
 * of another suite sharing the directory (`runner/otherSuites.ts`) that used it.
 */
export function usedByLine(file: string, run: RunVerdict | undefined, otherSuites: readonly RunVerdict[] = [], lastComplete?: RunVerdict): string {
  const label = "  used by:  ";
  if (!run) return `${label}unknown (${NO_LEDGER})`;
  if (run.used.has(file)) return label + usersIn(file, run, "the last run");
  const none = `no test in the last run (${run.runId}${run.complete ? "" : ", partial"})`;
  if (lastComplete?.used.has(file)) return `${label}${none}; the last complete run: ${usersIn(file, lastComplete, "that run")}`;
  const other = otherSuites.find((o) => o.used.has(file));
  return label + none + (other ? `; another suite sharing this directory: ${usersIn(file, other, `its last ${other.runner} run`)}` : "");
}

/** The tests of `run` that used `file`, with the run; `what` names the run when its ledger names no test. */
function usersIn(file: string, run: RunVerdict, what: string): string {
  const titles = [...(run.usedBy.get(file) ?? [])].sort();
  if (titles.length) return titles.map((t) => JSON.stringify(t)).join(", ") + `  (run ${run.runId})`;
  return `${what} (${run.runId}); its ledger does not name tests`;
}

/** Test title → the fixture files it used (absolute), sorted. */
export function fixturesByTest(run: RunVerdict): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [file, titles] of run.usedBy) for (const t of titles) out.set(t, [...(out.get(t) ?? []), file]);
  for (const files of out.values()) files.sort();
  return new Map([...out].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
}
