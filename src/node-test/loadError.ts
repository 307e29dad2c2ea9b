/**
 * An error that escapes while a node:test test process loads (a setup file given with `--import`,
 * a test file's top level: `await` of a model call that misses, `new Vcr({ mode: "bogus" })`)
 * ends the process: node:test's harness rethrows it, and Node exits with code 7 without its
 * `exit` event, so the file's usage report would never be written and the summary would count
 * nothing the file did (trial 42 M1: a top-level miss showed as `0 missed`). So:
 * - any such error first writes the file's report (`finishReport`);
 * - a VcrConfigError is then printed as its message and the file's name, not a stack, and the
 *   process ends with code 1, which node:test reports as the file's failure.
 * `uncaughtExceptionMonitor` sees the error before any handler and before Node prints it. Once
 * the file's first test has started (the returned function), node:test reports an error against
 * that test and goes on: nothing here then. Before that, an error a `before` hook throws
 * asynchronously is seen here too, though node:test reports it against the hook and runs the
 * tests: so the report is written with use still counted (`finishReport`), and only a config
 * error, which no test could get past, ends the file.
 */
import { isVcrError } from "../errors";
import { log } from "../log";

export function watchFileLoad(testFile: string, finishReport: () => void): () => void {
  const monitor = (e: unknown): void => {
    finishReport();
    if (!isVcrError(e) || e.code !== "VCR_CONFIG") return;
    log.warn(`${e.message}\n  ${testFile} was stopped before its tests ran.`);
    process.exit(1);
  };
  process.on("uncaughtExceptionMonitor", monitor);
  return () => process.off("uncaughtExceptionMonitor", monitor);
}
