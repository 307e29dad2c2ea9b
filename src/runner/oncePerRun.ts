/**
 * A warning a test process gives once per run, not once per test file: vitest and jest run each
 * test file in a sandbox of its own (and vitest, jest's workers, in processes of their own), so
 * nothing in memory is shared between the files of a run. A file in the temp dir named by the
 * run's process (a worker's parent; the process itself for a worker thread or a run in band) says
 * the run was warned, for `WARNED_FOR_MS` (a later run that reuses the pid is warned again).
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { isMainThread } from "node:worker_threads";
import { stampUnlessFresh } from "./staleTmp";

/** How long the note that a run was warned counts: its test files run one after another. */
const WARNED_FOR_MS = 10 * 60_000;

/**
 * Whether this run has not been given warning `what` yet; if so, it is noted as given now. Two test
 * processes asking at once: one creates the note (`wx`), the other finds it. No temp dir to write
 * in: true (warned each time rather than never).
 */
export function firstWarningOfRun(what: string, now: number = Date.now()): boolean {
  // a forked worker's run is its parent; a worker thread's, or a run in band (jest -i), the process itself
  const run = isMainThread && typeof process.send === "function" ? process.ppid : process.pid;
  // the prefix the temp-dir sweep removes a day later (staleTmp.ts)
  const note = path.join(os.tmpdir(), `langchain-vcr-noplugin-${what}-${run}`);
  try {
    fs.closeSync(fs.openSync(note, "wx"));
    return true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") return true;
  }
  // a note of an earlier run whose pid this one reuses: dated back past WARNED_FOR_MS, it is renewed
  return stampUnlessFresh(note, WARNED_FOR_MS, now) !== false;
}
