/**
 * `langchain-vcr migrate [dir]`: rewrites every fixture of an older schema version to the
 * current form and name, offline (no model call). Per file: the upgraded fixture is written
 * atomically under its new name (a temp file in `dir`, then a link), then the old file is
 * removed; an interrupted run leaves both, and the next run finishes the job. A damaged
 * fixture, a newer-than-known one, or one that cannot be renamed offline (redacted) is left
 * byte for byte and listed; the exit code is then 1. Running it twice changes nothing.
 * Writes nothing outside `dir`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { SCHEMA_VERSION } from "../store/fixture";
import { readFixtureFile } from "../store/reader";
import { FixtureStore } from "../store/store";
import { upgradeFixture } from "../store/upgrade";
import type { ParsedArgs } from "./args";
import { listFixtures, dirArgOf, resolveDir } from "./fixtureDir";
import { display, type Io } from "./io";
import { suiteRerecordCommand } from "../diagnose/suiteCommand";

export const migrateSpec = { booleans: ["dry-run"] } as const;

export interface MigrateReport {
  renamed: { from: string; to: string; existed: boolean }[];
  current: number;
  left: { file: string; problem: string }[];
}

export function migrateDir(dir: string, dryRun = false): MigrateReport {
  const store = new FixtureStore(dir);
  const report: MigrateReport = { renamed: [], current: 0, left: [] };
  for (const file of listFixtures(dir, "migrate")) {
    const read = readFixtureFile(file);
    if (read.problem !== undefined) {
      report.left.push({ file, problem: read.problem });
      continue;
    }
    if (read.fixture.schemaVersion === SCHEMA_VERSION) {
      report.current++;
      continue;
    }
    const up = upgradeFixture(read.fixture);
    if (up.problem !== undefined) {
      report.left.push({ file, problem: up.problem });
      continue;
    }
    const to = store.fileFor(up.fixture.hash);
    const existed = fs.existsSync(to);
    const damaged = existed ? readFixtureFile(to).problem : undefined;
    if (damaged !== undefined) {
      report.left.push({ file, problem: `upgrades to ${path.basename(to)}, which exists and is damaged (${damaged}); fix or delete that file first` });
      continue;
    }
    if (!dryRun) {
      if (!existed) store.write(up.fixture, false); // a current fixture already there is kept as it is
      fs.rmSync(file, { force: true });
    }
    report.renamed.push({ from: file, to, existed });
  }
  return report;
}

export async function migrateCommand(args: ParsedArgs, io: Io): Promise<number> {
  const dir = resolveDir(io, dirArgOf(args, "migrate"));
  const dry = args.flags["dry-run"] === true;
  const r = migrateDir(dir, dry);
  const name = (f: string) => path.basename(f);
  for (const m of r.renamed) {
    io.out(`  ${name(m.from)} → ${name(m.to)}${m.existed ? " (already recorded in the current form; the older copy removed)" : ""}\n`);
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
