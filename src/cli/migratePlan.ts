/**
 * What `langchain-vcr migrate` will do to a directory, decided before any file is touched (so
 * `--dry-run` reports the same): each older fixture's upgrade and new name, and the ones to
 * leave byte for byte. Older fixtures that upgrade to the same new name (a difference the
 * older form kept and the current one drops) merge when their responses are the same; with
 * different responses neither is upgraded, since only one answer can stay. An older fixture whose
 * new name is taken already (a fixture recorded since in the current form) is removed only when
 * its response is that file's (an interrupted run, finished); with another response it is left
 * and listed: removing it would lose its answer.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { canonicalJson } from "../canonical/json";
import { SCHEMA_VERSION, type Fixture } from "../store/fixture";
import { readFixtureFile } from "../store/reader";
import { FixtureStore } from "../store/store";
import { upgradeFixture } from "../store/upgrade";
import { listFixtures } from "./fixtureDir";

export interface MigrateStep {
  from: string;
  to: string;
  /** The upgraded fixture, written to `to` unless a file is already there. */
  fixture: Fixture;
  /** `to` was there before this run, with the same response: it is kept as it is, and `from` removed. */
  existed: boolean;
  /** Another older fixture of this run with the same response, upgraded to `to` before this one. */
  mergedInto?: string;
}

export interface MigratePlan {
  steps: MigrateStep[];
  current: number;
  left: { file: string; problem: string }[];
}

interface Candidate {
  file: string;
  fixture: Fixture;
}

export function planMigration(dir: string): MigratePlan {
  const store = new FixtureStore(dir);
  const plan: MigratePlan = { steps: [], current: 0, left: [] };
  const byTarget = new Map<string, Candidate[]>();
  for (const file of listFixtures(dir, "migrate")) {
    const read = readFixtureFile(file);
    if (read.problem !== undefined) {
      plan.left.push({ file, problem: read.problem });
      continue;
    }
    if (read.fixture.schemaVersion === SCHEMA_VERSION) {
      plan.current++;
      continue;
    }
    const up = upgradeFixture(read.fixture);
    if (up.problem !== undefined) {
      plan.left.push({ file, problem: up.problem });
      continue;
    }
    const to = store.fileFor(up.fixture.hash);
    byTarget.set(to, [...(byTarget.get(to) ?? []), { file, fixture: up.fixture }]);
  }
  for (const [to, group] of byTarget) planTarget(plan, to, group, `npx langchain-vcr migrate ${JSON.stringify(dir)} again`);
  return plan;
}

/** The steps for the older fixtures `group` that all upgrade to `to`; `again`: the command that finishes the job once a problem is fixed. */
function planTarget(plan: MigratePlan, to: string, group: Candidate[], again: string): void {
  const existed = fs.existsSync(to);
  const there = existed ? readFixtureFile(to) : undefined;
  if (there?.problem !== undefined) {
    for (const c of group) {
      plan.left.push({
        file: c.file,
        problem: `upgrades to ${path.basename(to)}, which exists and is damaged (${there.problem}); fix or delete that file first`,
      });
    }
    return;
  }
  const response = (c: Candidate) => canonicalJson(c.fixture.response);
  const collide = new Set(group.map(response)).size > 1;
  const thereResponse = there?.fixture ? canonicalJson(there.fixture.response) : undefined;
  let first: string | undefined;
  for (const c of group) {
    if (thereResponse !== undefined && response(c) !== thereResponse) {
      plan.left.push({
        file: c.file,
        problem:
          `upgrades to ${path.basename(to)}, which is already there in the current form with a different response (recorded since; replay uses that one). ` +
          `To keep that answer, delete ${path.basename(c.file)}; to keep this one, delete ${path.basename(to)}, then run ${again}`,
      });
      continue;
    }
    if (collide && thereResponse === undefined) {
      const others = group.filter((o) => o !== c && response(o) !== response(c)).map((o) => path.basename(o.file));
      plan.left.push({
        file: c.file,
        problem:
          `upgrades to ${path.basename(to)}, as does ${others.join(", ")}, with a different response: ` +
          `the current form no longer tells their requests apart, so only one answer can stay. Delete the one you do not want, then run ${again}`,
      });
      continue;
    }
    plan.steps.push({ from: c.file, to, fixture: c.fixture, existed, ...(first !== undefined && !existed ? { mergedInto: first } : {}) });
    first ??= c.file;
  }
}
