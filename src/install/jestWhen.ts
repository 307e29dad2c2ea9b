/**
 * Whether jest is running this process, and whether a test file may load ES modules under its
 * `--experimental-vm-modules` (`jestEsm.ts`): no LangChain loaded, so the jest setup file can ask
 * before it loads anything (a runner entry brings only its own code).
 */
import * as fs from "node:fs";
import { isEsmFile } from "./esmFiles";
import { currentRuntime, type RuntimeLike } from "./jestRuntime";

/** Whether this process is a jest test process (jest's module registry, not Node's loader). */
export function underJest(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.JEST_WORKER_ID !== undefined;
}

/** Under jest without `--experimental-vm-modules`, where no `import()` works (a provider package's included). */
export function jestCannotImport(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): boolean {
  return underJest(env) && !`${execArgv.join(" ")} ${env.NODE_OPTIONS ?? ""}`.includes("--experimental-vm-modules");
}

/** A jest test process under `--experimental-vm-modules`, where ES modules load into jest's own registry. */
export function jestVmModules(): boolean {
  return underJest() && !jestCannotImport();
}

/**
 * Under jest's VM modules: a test file jest loads as an ES module (jest's own answer, which
 * follows `extensionsToTreatAsEsm`; without it, `.mjs`/`.mts`, a `"type": "module"` package, or
 * any extension but `.js`/`.cjs`), or one that calls `import()` itself. An unknown test file may.
 */
export function jestMayLoadEsm(testPath: string | undefined, runtime: RuntimeLike | undefined = currentRuntime()): boolean {
  if (!jestVmModules()) return false;
  if (testPath === undefined || loadsAsEsm(testPath, runtime)) return true;
  try {
    return /\bimport\s*\(/.test(fs.readFileSync(testPath, "utf8"));
  } catch {
    return true;
  }
}

function loadsAsEsm(testPath: string, runtime: RuntimeLike | undefined): boolean {
  if (typeof runtime?.unstable_shouldLoadAsEsm === "function") {
    try {
      return runtime.unstable_shouldLoadAsEsm(testPath);
    } catch {
      // jest's resolver refused the path: the file's own signs below
    }
  }
  return isEsmFile(testPath) || !/\.c?js$/.test(testPath);
}
