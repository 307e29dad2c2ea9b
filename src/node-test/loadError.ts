/**
 * A VcrConfigError that escapes while a node:test test process loads (a setup file given with
 * `--import` that calls `new Vcr({ mode: "bogus" })` or `install()` with a bad option, or the
 * same at a test file's top level) is printed as its message, not a stack: node:test's harness
 * rethrows an uncaught error, so Node would print the stack of every test file with exit code 7.
 * `uncaughtExceptionMonitor` sees the error before any handler and before Node prints it; the
 * process ends there with code 1, which node:test reports as the file's failure, with the
 * message. Other errors, and any error once the file's first test has started (node:test then
 * reports it against that test), go on as they are.
 */
import { isVcrError } from "../errors";
import { log } from "../log";

export function exitOnLoadConfigError(testFile: string): () => void {
  const monitor = (e: unknown): void => {
    if (!isVcrError(e) || e.code !== "VCR_CONFIG") return;
    log.warn(`${e.message}\n  ${testFile} was stopped before its tests ran.`);
    process.exit(1);
  };
  process.on("uncaughtExceptionMonitor", monitor);
  return () => process.off("uncaughtExceptionMonitor", monitor);
}
