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

/** `file`: the test file the uninstall ran in (0: none known; -1: jest's, whose every file has its own). */
const seen = processWide("afterUninstall.v1", () => ({ file: 0, warned: false }));

/** install()'s uninstall ran, under jest or in the test file a runner plugin counts. */
export function noteUninstalled(underJest: boolean): void {
  seen.file = underJest ? -1 : testFilesBegun();
}

/** A model (chat or LLM), embeddings or model-initiated tool call, with nothing of its own, found no Vcr installed: warns once if it was uninstalled in this very test file. */
export function warnIfUninstalledInThisFile(what: "model" | "embeddings" | "tool"): void {
  if (seen.warned || seen.file === 0 || (seen.file !== -1 && seen.file !== testFilesBegun())) return;
  seen.warned = true;
  log.warn(
    `a ${what} call was made after vcr.install()'s uninstall ran in this test file, so no Vcr recorded or replayed it: it went to the provider, whatever the mode.\n` +
      `  A setup file's afterAll(() => uninstall()) does this under jest, and under vitest's sequence.hooks "list" or "parallel": it runs before the test file's own afterAll hooks.\n` +
      `  No uninstall is needed: jest loads the setup file afresh for every test file, and with the vitest plugin (plugins: [langchainVcr()]) each file's install() replaces an earlier file's.\n` +
      `  Fix it: remove the afterAll(() => uninstall()) from the setup file (docs/upgrading.md, "Upgrading langchain-vcr's setup").`,
  );
}
