/**
 * `langchain-vcr migrate [dir]`: rewrites every fixture of an older schema version to the
 * current form and name, offline (no model call). Per file: the upgraded fixture is written
 * atomically under its new name (a temp file in `dir`, then a link), then the old file is
 * removed; an interrupted run leaves both, and the next run finishes the job. Each step is
 * printed when done; one that fails stops the run with a message naming its file
 * (migrateApply.ts). A damaged fixture, a newer-than-known one, one that cannot be renamed offline (redacted), or one that
 * upgrades to the same name as another, or as a file already there, with a different response
 * (src/cli/migratePlan.ts) is left byte for byte and listed; the exit code is then 1. Running it twice changes nothing.
 * Writes nothing outside `dir`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { TEMP_PREFIX } from "../store/atomic";
import { SCHEMA_VERSION } from "../store/fixture";
import { FixtureStore } from "../store/store";
import type { ParsedArgs } from "./args";
import { dirArgOf, resolveDir } from "./fixtureDir";
import { applyStep } from "./migrateApply";
import { planMigration, type MigrateStep } from "./migratePlan";
import { display, type Io } from "./io";
import { suiteRerecordCommand } from "../diagnose/suiteCommand";

export const migrateSpec = { booleans: ["dry-run"] } as const;

export interface MigrateReport {
  renamed: MigrateStep[];
  current: number;
  left: { file: string; problem: string }[];
}

/** Migrates `dir` (or, with `dryRun`, only plans it); `onStep` hears of each step as soon as it is done. */
export function migrateDir(dir: string, dryRun = false, onStep: (step: MigrateStep) => void = () => {}): MigrateReport {
  const plan = planMigration(dir);
  const store = new FixtureStore(dir);
  plan.steps.forEach((step, done) => {
    if (!dryRun) applyStep(store, step, done);
    onStep(step);
  });
  return { renamed: plan.steps, current: plan.current, left: plan.left };
}

export async function migrateCommand(args: ParsedArgs, io: Io): Promise<number> {
  const dir = resolveDir(io, dirArgOf(args, "migrate"));
  const dry = args.flags["dry-run"] === true;
  const name = (f: string) => path.basename(f);
  const r = migrateDir(dir, dry, (m) => {
    const note = m.existed
      ? " (already there in the current form with the same response; the older copy removed)"
      : m.mergedInto !== undefined
        ? ` (the same response as ${name(m.mergedInto)}: merged into one)`
        : "";
    io.out(`  ${name(m.from)} → ${name(m.to)}${note}\n`);
  });
  io.out(
    `langchain-vcr migrate: ${display(io, dir)}: ${dry ? "would upgrade" : "upgraded"} ${r.renamed.length} fixture(s) to schemaVersion ${SCHEMA_VERSION}, ` +
      `${r.current} already current` +
      (r.left.length ? `, ${r.left.length} left as they were` : "") +
      `.\n`,
  );
  const temps = leftoverTemps(dir);
  if (temps.length) {
    io.err(
      `langchain-vcr migrate: ${temps.length} temporary file(s) of an interrupted write are in ${display(io, dir)} (${temps.slice(0, 3).join(", ")}${temps.length > 3 ? ", …" : ""}): ` +
        `no fixture is read from them. Delete them once no test run or command is writing there (validate lists them until then).\n`,
    );
  }
  if (r.left.length === 0) return 0;
  io.err(
    `langchain-vcr migrate: ${r.left.length} fixture(s) in ${display(io, dir)} could not be upgraded and were left byte for byte:\n` +
      r.left.map((l) => `  ${display(io, l.file)}: ${l.problem}\n`).join("") +
      // a name taken by another fixture says what to delete; a file that cannot be read needs the validator's detail
      (r.left.some((l) => !l.problem.startsWith("upgrades to "))
        ? `  Fix the ones that cannot be read (npx langchain-vcr validate ${display(io, dir)} says more), or delete them and re-record: ${suiteRerecordCommand(io.cwd)}\n`
        : `  Each line above says which file to delete; then run npx langchain-vcr migrate ${display(io, dir)} again.\n`),
  );
  return 1;
}

/** The `.vcr-tmp-*` files in `dir`: a write (a fixture's, a migration's) that was interrupted before its rename. */
function leftoverTemps(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir)
      .filter((n) => n.startsWith(TEMP_PREFIX))
      .sort();
  } catch {
    return [];
  }
}
