/**
 * A run's exchange directories in the OS temp dir (`langchain-vcr-run-*` for vitest, jest and
 * node:test, `langchain-vcr-summary-*` for mocha --parallel) are removed when the run ends (and
 * `langchain-vcr-noplugin-*`, the notes that a run without a runner plugin was warned, never: oncePerRun.ts). A run
 * killed first leaves its directory behind; the next run's main process removes those a day old
 * or older (a run in progress rewrites its own at least as each test file ends), best effort.
 * The sweep runs at most once an hour per temp dir (a stamp file says when it last ran): a run's
 * start pays one `stat`, not a scan of the temp dir.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

const PREFIXES = ["langchain-vcr-run-", "langchain-vcr-summary-", "langchain-vcr-noplugin-"];
export const STALE_AFTER_MS = 24 * 60 * 60 * 1000;
export const SWEEP_EVERY_MS = 60 * 60 * 1000;
const STAMP = "langchain-vcr-sweep.stamp";

export function removeStaleRunDirs(now: number = Date.now(), tmp: string = os.tmpdir()): string[] {
  const removed: string[] = [];
  // a temp dir we cannot write to has nothing of ours to remove
  if (stampUnlessFresh(path.join(tmp, STAMP), SWEEP_EVERY_MS, now) !== true) return removed;
  let names: string[];
  try {
    names = fs.readdirSync(tmp);
  } catch {
    return removed;
  }
  for (const name of names) {
    if (!PREFIXES.some((p) => name.startsWith(p))) continue;
    const dir = path.join(tmp, name);
    try {
      if (now - fs.statSync(dir).mtimeMs < STALE_AFTER_MS) continue;
      fs.rmSync(dir, { recursive: true, force: true });
      removed.push(dir);
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

/**
 * Something done at most once per `periodMs`, noted by a stamp file: false when `stamp` was written
 * less than `periodMs` before `now`, else it is written (dated `now`) and true; undefined when it
 * cannot be written.
 */
export function stampUnlessFresh(stamp: string, periodMs: number, now: number = Date.now()): boolean | undefined {
  try {
    if (now - fs.statSync(stamp).mtimeMs < periodMs) return false;
  } catch {
    // not stamped yet
  }
  try {
    fs.writeFileSync(stamp, "");
    const t = now / 1000;
    fs.utimesSync(stamp, t, t);
    return true;
  } catch {
    return undefined;
  }
}
