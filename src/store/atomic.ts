/**
 * The fixture directory's temp files and the one write the runner plugins make: putting back
 * what a failed test changed, atomically (a temp file in the same directory, then a rename; the
 * store's own writes, in store.ts, link or rename a temp file named here). Temp names share one prefix (`validate` and the crash tests find leftovers by it)
 * and one sequence per process (both builds of langchain-vcr write here). Kept apart from the
 * store, so a runner plugin undoes a failed test's recordings without loading the store, its
 * fixture kinds and @langchain/core.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { processWide } from "../processWide";

export const TEMP_PREFIX = ".vcr-tmp-";
/** Temp file numbers, one sequence per process. */
const temp = processWide("store.temp.v1", () => ({ counter: 0 }));

/** A temp file name in `dir`, unique in this process; `label` says what it is for. */
export function tempFile(dir: string, label: string): string {
  return path.join(dir, `${TEMP_PREFIX}${label}-${process.pid}-${++temp.counter}`);
}

/** Deletes a fixture, or puts back the bytes it had — atomically, like every write. */
export function restoreFixture(file: string, previous: Buffer | undefined): void {
  if (previous === undefined) {
    fs.rmSync(file, { force: true });
    return;
  }
  const tmp = tempFile(path.dirname(file), "restore");
  try {
    fs.writeFileSync(tmp, previous, { flag: "wx" });
    fs.renameSync(tmp, file);
  } finally {
    fs.rmSync(tmp, { force: true });
  }
}
