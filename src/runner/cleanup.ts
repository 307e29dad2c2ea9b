/** After a failed test: delete the fixtures it created and put back the ones it overwrote. */
import type { Scope } from "../scope";
import { restoreFixture } from "../store/atomic";
import { log } from "../log";
import { pathFrom } from "../pathFrom";

/** `undone`: the recordings taken back (a file the test wrote twice counts twice), for the run's summary. */
export function restoreFailedTest(scope: Scope): { removed: string[]; restored: string[]; undone: number } {
  const removed: string[] = [];
  const restored: string[] = [];
  for (const file of scope.created) {
    restoreFixture(file, undefined);
    removed.push(file);
  }
  for (const [file, bytes] of scope.overwritten) {
    restoreFixture(file, bytes);
    restored.push(file);
  }
  if (removed.length || restored.length) {
    log.warn(
      `test "${scope.title}"${scope.specFile ? ` (${pathFrom(process.cwd(), scope.specFile)})` : ""} ${scope.retried ? "failed an attempt, which its runner's retry runs again" : "failed"}: ` +
        `removed ${removed.length} fixture(s) it recorded` +
        (restored.length ? ` and restored ${restored.length} it overwrote` : "") +
        `: nothing a failed ${scope.retried ? "attempt" : "test"} records is kept.\n`,
    );
  }
  return { removed, restored, undone: Math.max(scope.tally.recorded, removed.length + restored.length) };
}
