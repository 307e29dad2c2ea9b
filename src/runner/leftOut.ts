/**
 * Tests a suite's run before the last used fixtures in, and the last run used none in, though
 * their test file is the same bytes in both runs: the tests a run defines can depend on the
 * environment (`describe.each(process.env.PROVIDERS.split(","))`), and a run with a narrower
 * list is complete by every sign a runner gives (a user trial: `PROVIDERS=bedrock` made `prune`
 * ready to remove the other providers' fixtures). `prune` keeps what they used, once: a second
 * complete run without them (tests that no longer call a model) lets it go.
 */
import type { RunVerdict } from "./ledgerFiles";
import { testsByFile } from "./usedBy";

export interface LeftOut {
  /** The tests, by test file and title, in the order the run before's ledger holds them, each with the fixtures it used then that the last run did not. */
  tests: { spec: string; title: string; fixtures: Set<string> }[];
  /** All their fixtures (absolute). */
  fixtures: Set<string>;
}

export function leftOutTests(last: RunVerdict, previous: RunVerdict | undefined): LeftOut {
  const out: LeftOut = { tests: [], fixtures: new Set() };
  if (!previous) return out;
  const ranLast = testsByFile(last.usedBy); // test file → the titles of its tests that used a fixture in the last run
  const tests = new Map<string, LeftOut["tests"][number]>();
  for (const [fixture, bySpec] of previous.usedBy) {
    if (last.used.has(fixture)) continue;
    for (const [spec, titles] of bySpec) {
      const digest = previous.specDigests.get(spec);
      if (spec === "" || digest === undefined || last.specDigests.get(spec) !== digest) continue; // changed, gone, or unknown: the tests may be others
      for (const title of titles) {
        if (ranLast.get(spec)?.has(title)) continue;
        const key = `${spec}\0${title}`;
        const test = tests.get(key) ?? tests.set(key, { spec, title, fixtures: new Set() }).get(key)!;
        test.fixtures.add(fixture);
        out.fixtures.add(fixture);
      }
    }
  }
  out.tests = [...tests.values()];
  return out;
}
