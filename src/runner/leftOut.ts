/**
 * Tests a suite's run before the last used fixtures in, and the last run used none in, though
 * their test file is the same bytes in both runs: the tests a run defines can depend on the
 * environment (`describe.each(process.env.PROVIDERS.split(","))`), and a run with a narrower
 * list is complete by every sign a runner gives (a user trial: `PROVIDERS=bedrock` made `prune`
 * ready to remove the other providers' fixtures). `prune` keeps what they used, once: a second
 * complete run without them (tests that no longer call a model) lets it go.
 */
import type { RunVerdict } from "./ledgerFiles";

export interface LeftOut {
  /** The tests, by test file and title, in the order the run before's ledger holds them. */
  tests: { spec: string; title: string }[];
  /** The fixtures (absolute) they used in the run before and the last run did not use. */
  fixtures: Set<string>;
}

export function leftOutTests(last: RunVerdict, previous: RunVerdict | undefined): LeftOut {
  const out: LeftOut = { tests: [], fixtures: new Set() };
  if (!previous) return out;
  const ranLast = new Map<string, Set<string>>(); // test file → the titles of its tests that used a fixture in the last run
  for (const bySpec of last.usedBy.values())
    for (const [spec, titles] of bySpec) for (const t of titles) (ranLast.get(spec) ?? ranLast.set(spec, new Set()).get(spec)!).add(t);
  const seen = new Set<string>();
  for (const [fixture, bySpec] of previous.usedBy) {
    for (const [spec, titles] of bySpec) {
      const digest = previous.specDigests.get(spec);
      if (spec === "" || digest === undefined || last.specDigests.get(spec) !== digest) continue; // changed, gone, or unknown: the tests may be others
      for (const title of titles) {
        if (ranLast.get(spec)?.has(title)) continue;
        if (!last.used.has(fixture)) out.fixtures.add(fixture);
        const key = `${spec}\0${title}`;
        if (!seen.has(key)) {
          seen.add(key);
          out.tests.push({ spec, title });
        }
      }
    }
  }
  return out;
}
