/**
 * A call that no Vcr answers because this test file's `install()` was already undone. A setup
 * file written to earlier docs ends with `afterAll(() => uninstall())`. jest, and vitest under
 * `sequence.hooks: "list"` or `"parallel"`, run that hook before the test file's own `afterAll`,
 * whose model calls then reach the provider, under replay_only too (measured under vitest: 1 live
 * call, `vcr.stats()` all zero). Nothing else tells the user, so the first such call is a warning
 * naming the fix. "This test file": under jest, this module's state is the test file's own (jest
 * gives every file a global of its own); under the vitest plugin, which counts the test files a
 * worker begins, the same count. Elsewhere (mocha, node:test) there is no test file to tell.
 */
import { log } from "../log";
import { processWide } from "../processWide";
import { testFilesBegun } from "../internals/state";

/** `file`: the test file the uninstall ran in, `warned`: the one warned about (0: none; -1: jest's, whose every file has its own state). */
const seen = processWide("afterUninstall.v2", () => ({ file: 0, warned: 0 }));

/** install()'s uninstall ran, under jest or in the test file a runner plugin counts. */
export function noteUninstalled(underJest: boolean): void {
  seen.file = underJest ? -1 : testFilesBegun();
}

/**
 * A call of `kind` on an instance of `className`, with nothing of its own, found no Vcr installed:
 * warns, once per test file, if this test file's install() was undone before it.
 */
export function warnIfUninstalledInThisFile(kind: "model" | "embeddings" | "tool", className: string): void {
  if (seen.file === 0 || seen.warned === seen.file || (seen.file !== -1 && seen.file !== testFilesBegun())) return;
  seen.warned = seen.file;
  log.warn(
    `${kind === "embeddings" ? "an embeddings" : `a ${kind}`} call (${className}) was made after this test file's vcr.install() was undone, so no Vcr recorded or replayed it, whatever the mode: it ran as if langchain-vcr were not there (a provider's model makes a live call).\n` +
      `  A setup file's afterAll(() => uninstall()) does this under jest, and under vitest's sequence.hooks "list" or "parallel": it runs before the test file's own afterAll hooks.\n` +
      `  No uninstall is needed there: jest loads the setup file afresh for every test file, and with the vitest plugin (plugins: [langchainVcr()]) each file's install() replaces an earlier file's.\n` +
      `  Fix it: remove the afterAll(() => uninstall()) from the setup file (docs/upgrading.md, "Upgrading langchain-vcr's setup"); if the call comes after an uninstall() of your own on purpose, ignore this.`,
  );
}
