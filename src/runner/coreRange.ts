/**
 * A runner plugin's early word on the installed @langchain/core, read from its package.json
 * (core itself is not loaded: the runner entries load no LangChain). `new Vcr()` decides, by the
 * internals it finds (`internals/check.ts`); this only says it before a test file loads, where a
 * runner can hide that error: mocha with tsx reports a `.ts` helper that threw while loading as
 * ERR_UNKNOWN_FILE_EXTENSION, so a Vcr built in one never shows its VcrConfigError.
 */
import { log } from "../log";
import { installedCoreVersion, supportedCoreRange } from "../internals/version";

/** The warning for `version` outside `range` (only a `>=X.Y.Z <N` range is read; anything else says nothing). */
export function coreRangeWarning(version: string | undefined, range: string): string | undefined {
  const bounds = /^>=\s*(\d+)\.(\d+)\.(\d+)\s+<\s*(\d+)$/.exec(range.trim());
  const v = version === undefined ? null : /^(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (!bounds || !v) return undefined;
  const [major, minor, patch] = [v[1], v[2], v[3]].map(Number);
  const [fMajor, fMinor, fPatch, below] = [bounds[1], bounds[2], bounds[3], bounds[4]].map(Number);
  const atLeast = major !== fMajor ? major > fMajor : minor !== fMinor ? minor > fMinor : patch >= fPatch;
  if (atLeast && major < below) return undefined;
  return (
    `@langchain/core ${version} is installed, and langchain-vcr supports @langchain/core ${range}.\n` +
    `  Every new Vcr() will refuse it with a VcrConfigError naming what it lacks, so no call can reach the provider unrecorded; ` +
    `a runner may show that error as another one (mocha with tsx: ERR_UNKNOWN_FILE_EXTENSION for the .ts file that builds the Vcr).\n` +
    `  Fix it: \`npm ls @langchain/core\`, then npm install @langchain/core@"${range}" (with LangChain packages built on it).\n`
  );
}

/** Warns once, before any test file loads, when the @langchain/core the project resolves is outside the supported range. */
export function warnUnsupportedCore(): void {
  // "unknown" (not installed, a package.json that cannot be read) says nothing: new Vcr() says what is wrong
  const warning = coreRangeWarning(installedCoreVersion(), supportedCoreRange());
  if (warning) log.warn(warning);
}
