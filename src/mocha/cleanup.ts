/** After a failed test: delete the fixtures it created and put back the ones it overwrote. */
import * as fs from "node:fs";
import type { Scope } from "../scope";

export function restoreFailedTest(scope: Scope): { removed: string[]; restored: string[] } {
  const removed: string[] = [];
  const restored: string[] = [];
  for (const file of scope.created) {
    fs.rmSync(file, { force: true });
    removed.push(file);
  }
  for (const [file, bytes] of scope.overwritten) {
    fs.writeFileSync(file, bytes);
    restored.push(file);
  }
  if (removed.length || restored.length) {
    process.stderr.write(
      `langchain-vcr: test "${scope.title}" failed: removed ${removed.length} fixture(s) it recorded` +
        (restored.length ? ` and restored ${restored.length} it overwrote` : "") +
        `, so the next run records it again.\n`,
    );
  }
  return { removed, restored };
}
