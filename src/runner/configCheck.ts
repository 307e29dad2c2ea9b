/**
 * The check every adapter makes before any test runs: the mode and tool mode from the
 * environment are valid. A config error is a message, not a stack trace, and it fails the run.
 */
import { VcrConfigError } from "../errors";
import { resolveMode, resolveToolMode } from "../modes";
import { log } from "../log";

/** Throws the VcrConfigError of a bad LANGCHAIN_VCR_MODE / LANGCHAIN_VCR_TOOL_MODE. */
export function checkEnvironment(): void {
  resolveMode();
  resolveToolMode();
}

/**
 * Runs `check`; on a VcrConfigError writes its message (no stack) and ends the process with
 * code 1, before the runner starts any test. Other errors are thrown as they are.
 */
export function exitOnConfigError(check: () => void = checkEnvironment): void {
  try {
    check();
  } catch (e) {
    if (!(e instanceof VcrConfigError)) throw e;
    log.warn(`${e.message}\n  The test run was stopped before any test ran.`); // prefixed once: the sink never doubles it
    process.exit(1);
  }
}
