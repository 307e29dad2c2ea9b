/**
 * The ESM copy of @langchain/core loaded with `import()`, where `require()` could not load it
 * (jest's ESM registry under --experimental-vm-modules, a Node before 20.19), and patched:
 * `import()` goes through the loader a provider package's own `import()` goes through, so it
 * gets the very classes the provider's models extend.
 */
import { pathToFileURL } from "node:url";
import { patchCoreCopy, type PatchableCore } from "../patches";
import { claimCopy, FILES } from "./esmCore";
import { underJest } from "./jestWhen";
import { exportedFile } from "./packageJson";
import { trackInstallWork } from "./pending";
import { ownImports } from "./jestEsmWatch";
import { patchedLater } from "./jestEsmState";

/**
 * Loads and patches the ESM copy of core in `coreDir`, once per process. Rejects when it cannot
 * be loaded, or lacks a relied-on internal (the VcrConfigError naming it).
 */
export function patchEsmCoreLater(coreDir: string): Promise<void> {
  let done = patchedLater.get(coreDir);
  if (!done) {
    patchedLater.set(coreDir, (done = loadAndPatch(coreDir)));
    trackInstallWork(done, `the ESM copy of @langchain/core in ${coreDir}`);
  }
  return done;
}

/**
 * Settles (never rejects) once every copy of core being loaded and patched with `import()` has
 * settled: a scan for Embeddings classes (`integrations.ts`) waits for it, since it knows a class
 * by the copy of core's `Embeddings` it extends, which that patch registers.
 */
export function esmCoresSettled(): Promise<unknown> {
  return Promise.all([...patchedLater.values()].map((p) => p.catch(() => undefined)));
}

/** Under jest, after a module registry reset: the ESM copy in `coreDir` is loaded and patched again (a fresh one) when next needed. */
export function forgetEsmCoreLater(coreDir: string): void {
  patchedLater.delete(coreDir);
}

async function loadAndPatch(coreDir: string): Promise<void> {
  const entries: [string, unknown][] = [];
  // one after another: jest links modules that concurrent imports share badly ("… is not in cache")
  await ownImports(async () => {
    for (const [name, subpath] of FILES) {
      const file = exportedFile(coreDir, subpath, "import");
      if (!file) throw new Error(`@langchain/core exports no ESM file for ${subpath}`);
      // jest's resolver takes a path; Node's import() takes a URL (a bare Windows path is none)
      const specifier = underJest() ? file : pathToFileURL(file).href;
      entries.push([name, ((await import(specifier)) as Record<string, unknown>)[name]]);
    }
  });
  claimCopy(coreDir, "import"); // patching is idempotent: after a jest registry reset these are fresh classes, patched again
  const broken = patchCoreCopy(Object.fromEntries(entries) as unknown as PatchableCore);
  if (broken) throw broken; // a copy that lacks an internal is not patched: its models would go live
}
