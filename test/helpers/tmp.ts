/** A fresh temporary fixture directory per test, removed afterwards. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const made: string[] = [];

export function tmpDir(prefix = "vcr-test-"): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeTmpDirs(): void {
  for (const d of made.splice(0)) fs.rmSync(d, { recursive: true, force: true });
}

/** The fixture files (`<hash>.json`) in a directory, sorted. */
export function fixtureFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => /^[0-9a-f]{64}\.json$/.test(f))
    .sort();
}

export function readFixtures(dir: string): any[] {
  return fixtureFiles(dir).map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")));
}

/** Every byte of every file in the directory, as one string (for "never on disk" checks). */
export function allBytes(dir: string): string {
  if (!fs.existsSync(dir)) return "";
  return fs
    .readdirSync(dir)
    .map((f) => fs.readFileSync(path.join(dir, f), "utf8"))
    .join("\n");
}

/**
 * Dates `files` of `dir` (all of them by default) an hour back, as a suite's committed fixtures
 * are: a fixture written within the last second is never kept, and is re-read on every replay; one
 * written since the run started is this run's, never the old form of an edited request (the near-miss note).
 */
export function datedBack(dir: string, files: readonly string[] = fs.readdirSync(dir)): void {
  const past = Date.now() / 1000 - 3600;
  for (const f of files) fs.utimesSync(path.join(dir, f), past, past);
}

/**
 * Fixtures as an earlier run left them: recorded an hour ago (`recordedAt`, which `record_always` reads: a fixture another
 * test of this run recorded is replayed, not recorded again), their files dated back too.
 */
export function fromAnEarlierRun(dir: string, files: readonly string[] = fixtureFiles(dir)): void {
  const past = new Date(Date.now() - 3600_000).toISOString();
  for (const f of files) {
    const file = path.join(dir, f);
    fs.writeFileSync(file, fs.readFileSync(file, "utf8").replace(/"recordedAt": "[^"]*"/, `"recordedAt": "${past}"`));
  }
  datedBack(dir, files);
}
