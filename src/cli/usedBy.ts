/** Which tests used a fixture, from the usage ledgers of the last run and of other suites (`show`'s "used by:", `stats --by-test`). */
import type { RunVerdict } from "../runner/ledgerFiles";
import { testsUsing } from "../runner/usedBy";

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

/**
 * The tests of `run` that used `file`, by test file, with the run (`test/a.spec.ts: "t1", "t2";
 * test/b.spec.ts: "t1"`); `what` names the run when its ledger names no test.
 */
function usersIn(file: string, run: RunVerdict, what: string): string {
  const bySpec = new Map<string, string[]>();
  for (const t of testsUsing(run.usedBy, file)) bySpec.set(t.specFile, [...(bySpec.get(t.specFile) ?? []), JSON.stringify(t.title)]);
  if (bySpec.size === 0)
    // a ledger that names other fixtures' tests: this one was used outside any test (a test file's top level, a hook), trial 42 L1
    return run.usedBy.size > 0
      ? `${what} (${run.runId}), outside any test (a test file's top level, or a hook)`
      : `${what} (${run.runId}); its ledger does not name tests`;
  const parts = [...bySpec].map(([spec, titles]) => (spec ? `${spec}: ` : "") + titles.join(", ")); // "": a test whose runner named no file
  return parts.join("; ") + `  (run ${run.runId}${run.complete ? "" : ", partial"})`; // a partial run's tests are some of those that use it
}

/**
 * Test file (relative to the root; "" for none named) → test title → the fixture files it used
 * (absolute), each level sorted; over several runs (the last runs of the suites sharing a
 * directory), each file once.
 */
export function fixturesByTest(...runs: RunVerdict[]): Map<string, Map<string, string[]>> {
  const out = new Map<string, Map<string, string[]>>();
  for (const run of runs)
    for (const [fixture, bySpec] of run.usedBy) {
      for (const [spec, titles] of bySpec) {
        let tests = out.get(spec);
        if (!tests) out.set(spec, (tests = new Map()));
        for (const t of titles) if (!tests.get(t)?.includes(fixture)) tests.set(t, [...(tests.get(t) ?? []), fixture]);
      }
    }
  const sorted = <V>(m: Map<string, V>) => new Map([...m].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
  for (const [spec, tests] of out) {
    for (const files of tests.values()) files.sort();
    out.set(spec, sorted(tests));
  }
  return sorted(out);
}
