/**
 * Tests a run skipped on purpose (`it.skip`, `xit`, `this.skip()`, node:test's `{ skip: true }`):
 * a skipped test uses no fixture, so a complete run's ledger takes its fixtures for unused, and
 * `prune` would remove them. Runners report skipped tests apart from their titles' files only
 * (jest: "pending", vitest: mode "skip"), and a test skipped inside (`this.skip()`) is known only
 * at run time, so the test file's source is read instead, as for `.only` (`onlyScan.ts`). A
 * marker in a comment counts too: a note too many costs a line.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { testsByFile, testsUsing } from "./usedBy";
import type { RunVerdict } from "./ledgerFiles";

const SKIP =
  /\b(?:it|test|describe|suite|context)(?:\.(?:concurrent|sequential|each))*\.(?:skip|skipIf|todo)\b|\bx(?:it|describe|test|context)\s*[(.]|\b(?:this|t|ctx|context)\.skip\s*\(|[{,]\s*skip\s*:\s*(?:true|["'`])/;

export function sourceSkips(source: string): boolean {
  return SKIP.test(source);
}

/** Of `specFiles` (relative to `root`), those whose source skips tests (`sourceSkips`); a file gone skips none. */
export function filesSkipping(specFiles: readonly string[], root: string): string[] {
  return specFiles.filter((spec) => {
    try {
      return sourceSkips(fs.readFileSync(path.resolve(root, spec), "utf8"));
    } catch {
      return false;
    }
  });
}

export interface SkippedUsers {
  /** `test/a.spec.ts: "title"`, each once, in the order of the fixtures. */
  tests: string[];
  /** The fixtures among those asked about that they used. */
  fixtures: string[];
}

/**
 * Of `fixtures` (absolute), those the run before used in a test whose test file (relative to
 * `root`) now skips tests, and that used no fixture in the `last` run, with those tests: likely the
 * skipped ones (a test that ran and used fixtures was not skipped: its old fixture is an edit's).
 */
export function skippedUsers(fixtures: readonly string[], before: RunVerdict | undefined, last: RunVerdict, root: string): SkippedUsers {
  const out: SkippedUsers = { tests: [], fixtures: [] };
  if (!before) return out;
  const ran = testsByFile(last.usedBy);
  const skips = new Map<string, boolean>();
  const skipping = (spec: string) => {
    let s = skips.get(spec);
    if (s === undefined) skips.set(spec, (s = filesSkipping([spec], root).length > 0)); // gone: a deleted test's fixtures are unused indeed
    return s;
  };
  for (const f of fixtures) {
    const users = testsUsing(before.usedBy, f).filter((t) => t.specFile !== "" && !ran.get(t.specFile)?.has(t.title) && skipping(t.specFile));
    if (users.length === 0) continue;
    out.fixtures.push(f);
    for (const t of users) {
      const test = `${t.specFile}: ${JSON.stringify(t.title)}`;
      if (!out.tests.includes(test)) out.tests.push(test);
    }
  }
  return out;
}
