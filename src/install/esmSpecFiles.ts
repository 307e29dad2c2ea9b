/**
 * The seam between a runner plugin that knows its test files (mocha's, once its spec files are
 * loaded) and `install()`, which reaches the known integrations' ESM entries when one of them is
 * an ES module (`esmFiles.ts`). The plugin must not load install() itself (a plugin brings no
 * LangChain package): an installed Vcr puts the function here, in a slot shared by both builds.
 */
import { processWide } from "../processWide";

const slot = processWide("esmSpecFiles.v1", () => ({ reach: undefined as ((files: readonly unknown[]) => void) | undefined }));

/** install(): what to do with the test files a plugin hands over. */
export function onSpecFiles(reach: (files: readonly unknown[]) => void): void {
  slot.reach = reach;
}

/** A runner plugin: its test files are loaded. */
export function specFilesLoaded(files: readonly unknown[]): void {
  slot.reach?.(files);
}
