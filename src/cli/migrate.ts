/**
 * `langchain-vcr migrate [dir]`: rewrites every fixture of an older schema version to the
 * current form and name, offline (no model call). Per file: the upgraded fixture is written
 * atomically under its new name (a temp file in `dir`, then a link), then the old file is
 * removed; an interrupted run leaves both, and the next run finishes the job. A damaged
 * fixture, a newer-than-known one, one that cannot be renamed offline (redacted), or one that
 * upgrades to the same name as another with a different response (src/cli/migratePlan.ts) is
 * left byte for byte and listed; the exit code is then 1. Running it twice changes nothing.
 * Writes nothing outside `dir`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SCHEMA_VERSION } from "../store/fixture";
import { FixtureStore } from "../store/store";
import type { ParsedArgs } from "./args";
import { dirArgOf, resolveDir } from "./fixtureDir";
import { planMigration, type MigrateStep } from "./migratePlan";
import { display, type Io } from "./io";
import { suiteRerecordCommand } from "../diagnose/suiteCommand";

export const migrateSpec = { booleans: ["dry-run"] } as const;

export interface MigrateReport {
  renamed: MigrateStep[];
  current: number;
  left: { file: string; problem: string }[];
}

export function migrateDir(dir: string, dryRun = false): MigrateReport {
  const plan = planMigration(dir);
  if (!dryRun) {
    const store = new FixtureStore(dir);
    for (const step of plan.steps) {
      if (!fs.existsSync(step.to)) store.write(step.fixture, false); // a current fixture already there is kept as it is
      fs.rmSync(step.from, { force: true });
    }
  }
  return { renamed: plan.steps, current: plan.current, left: plan.left };
}

export async function migrateCommand(args: ParsedArgs, io: Io): Promise<number> {
  const dir = resolveDir(io, dirArgOf(args, "migrate"));
  const dry = args.flags["dry-run"] === true;
  const r = migrateDir(dir, dry);
  const name = (f: string) => path.basename(f);
  for (const m of r.renamed) {
    const note = m.existed
      ? " (already recorded in the current form; the older copy removed)"
      : m.mergedInto !== undefined
        ? ` (the same response as ${name(m.mergedInto)}: merged into one)`
        : "";
    io.out(`  ${name(m.from)} → ${name(m.to)}${note}\n`);
  }
  io.out(
    `langchain-vcr migrate: ${display(io, dir)}: ${dry ? "would upgrade" : "upgraded"} ${r.renamed.length} fixture(s) to schemaVersion ${SCHEMA_VERSION}, ` +
      `${r.current} already current` +
      (r.left.length ? `, ${r.left.length} left as they were` : "") +
      `.\n`,
  );
  if (r.left.length === 0) return 0;
  io.err(
    `langchain-vcr migrate: ${r.left.length} fixture(s) in ${display(io, dir)} could not be upgraded and were left byte for byte:\n` +
      r.left.map((l) => `  ${display(io, l.file)}: ${l.problem}\n`).join("") +
      `  Fix them (npx langchain-vcr validate ${display(io, dir)} says more), or delete them and re-record: ${suiteRerecordCommand(io.cwd)}\n`,
  );
  return 1;
}
