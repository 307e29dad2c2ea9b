/**
 * What the jest ES-module reach (`jestEsm.ts`) and the ESM copies of core loaded with `import()`
 * (`esmCoreLater.ts`) keep per test file, in a module that loads no LangChain: the setup file
 * forgets it when jest's registry is cleared or swapped, without loading the code that fills it.
 */
import { processWide } from "../processWide";

/** Per test file under jest (its globals are its own, as its registry is): the reach under way or done, and the copies of core it patched. */
export const reached = processWide("jestEsm.v3", () => ({ work: undefined as Promise<void> | undefined, cores: [] as string[] }));

/** The ESM copy of core in a directory, loaded with `import()` and patched (or failing to be), once per process (under jest: per test file and registry). */
export const patchedLater = processWide("esmCoreLater.v1", () => new Map<string, Promise<void>>());

/** jest's registry was cleared or swapped (`resetModules`, `isolateModules`): what is imported next is fresh, and is reached again. */
export function forgetJestEsm(): void {
  for (const core of reached.cores) patchedLater.delete(core);
  reached.work = undefined;
  reached.cores = [];
}
