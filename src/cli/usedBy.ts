/** Which tests used a fixture, from the usage ledger of the last run (`show`'s "used by:", `stats --by-test`). */
import type { RunVerdict } from "../runner/ledgerFiles";

/** What `stats` and `show` say when no run left a ledger. */
export const NO_LEDGER = "no usage ledger; run the whole suite with your test runner's langchain-vcr plugin (mocha, vitest, jest or node:test)";

/** The `used by:` line for one fixture file (absolute path). */
export function usedByLine(file: string, run: RunVerdict | undefined): string {
  const label = "  used by:  ";
  if (!run) return `${label}unknown (${NO_LEDGER})`;
  const titles = [...(run.usedBy.get(file) ?? [])].sort();
  if (titles.length) return label + titles.map((t) => JSON.stringify(t)).join(", ") + `  (run ${run.runId})`;
  if (run.used.has(file)) return `${label}the last run (${run.runId}); its ledger does not name tests`;
  return `${label}no test in the last run (${run.runId}${run.complete ? "" : ", partial"})`;
}

/** Test title → the fixture files it used (absolute), sorted. */
export function fixturesByTest(run: RunVerdict): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [file, titles] of run.usedBy) for (const t of titles) out.set(t, [...(out.get(t) ?? []), file]);
  for (const files of out.values()) files.sort();
  return new Map([...out].sort((a, b) => (a[0] < b[0] ? -1 : 1)));
}
