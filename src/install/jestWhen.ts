/**
 * Whether jest is running this process, and whether a test file may load ES modules under its
 * `--experimental-vm-modules` (`jestEsm.ts`): no LangChain loaded, so the jest setup file can ask
 * before it loads anything (a runner entry brings only its own code).
 */
import * as fs from "node:fs";
import { isEsmFile } from "./esmFiles";

/** Whether this process is a jest test process (jest's module registry, not Node's loader). */
export function underJest(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.JEST_WORKER_ID !== undefined;
}

/** Under jest without `--experimental-vm-modules`, where no `import()` works (a provider package's included). */
export function jestCannotImport(env: NodeJS.ProcessEnv = process.env, execArgv: readonly string[] = process.execArgv): boolean {
  return underJest(env) && !`${execArgv.join(" ")} ${env.NODE_OPTIONS ?? ""}`.includes("--experimental-vm-modules");
}

/** Under jest's VM modules: an ES-module test file, or one that calls `import()` itself. */
export function jestMayLoadEsm(testPath: string | undefined): boolean {
  if (!underJest() || jestCannotImport()) return false;
  if (testPath === undefined || isEsmFile(testPath)) return true;
  try {
    return /\bimport\s*\(/.test(fs.readFileSync(testPath, "utf8"));
  } catch {
    return true;
  }
}
