/**
 * `langchain-vcr/vitest`: `plugins: [langchainVcr()]` in vitest.config.*. The plugin checks
 * the mode before vitest starts (a bad LANGCHAIN_VCR_MODE ends the run with the message, no
 * stack), starts the run its test processes report to, and adds its setup file (per-test
 * scope, failed-test cleanup, the live call in flight) and its reporter (one summary line,
 * the ledger) to the config, keeping vitest's default reporter when the config names none.
 */
import * as path from "node:path";
import { VcrConfigError } from "../errors";
import { exitOnConfigError } from "../runner/configCheck";
import { log } from "../log";
import { startRun } from "../runner/share";
import { LangchainVcrVitestReporter } from "./reporter";

/** No options yet; the object is there so later ones do not change the call. */
export type LangchainVcrVitestOptions = Record<string, never>;

const KNOWN_OPTIONS: readonly string[] = [];

/** Where the built setup file is (dist/esm/vitest-setup.mjs, next to this file's dist/cjs/vitest/). */
export const VITEST_SETUP_FILE = path.join(__dirname, "../../esm/vitest-setup.mjs");

interface UserConfig {
  test?: { reporters?: unknown };
}
/** What `configureVitest` (vitest 3.1+) is given: the resolved config, before its reporters are made. */
interface ConfigureVitestContext {
  vitest?: { config?: { reporters?: unknown } };
}

/** One reporter per process: vitest may resolve the config (and call this plugin's hook) more than once. */
let reporter: LangchainVcrVitestReporter | undefined;

export function langchainVcr(options: LangchainVcrVitestOptions = {}) {
  exitOnConfigError(() => checkOptions(options));
  return {
    name: "langchain-vcr",
    config(user: UserConfig) {
      exitOnConfigError();
      reporter ??= new LangchainVcrVitestReporter(startRun("vitest"));
      // vite merges arrays by concatenation: with no reporters configured, keep vitest's default one
      const reporters = user.test?.reporters === undefined ? ["default", reporter] : [reporter];
      return { test: { setupFiles: [VITEST_SETUP_FILE], reporters } };
    },
    configureVitest({ vitest }: ConfigureVitestContext) {
      const resolved = vitest?.config?.reporters;
      if (reporter && Array.isArray(resolved) && !resolved.includes(reporter)) log.warn(droppedReporterMessage(resolved));
    },
  };
}

/** `--reporter` on vitest's command line replaces the configured reporters, this plugin's among them. */
export function droppedReporterMessage(reporters: readonly unknown[]): string {
  const names = reporters.map((r) => (Array.isArray(r) ? String(r[0]) : ((r as object)?.constructor?.name ?? "a reporter")));
  return (
    `vitest's command line set the reporters (${names.join(", ") || "none"}), which replaces the ones in the config, langchain-vcr's among them.\n` +
    `  So this run prints no langchain-vcr summary and writes no usage ledger: \`langchain-vcr prune\` will not count what it used.\n` +
    `  Fix: name the reporters in vitest.config instead of with --reporter, e.g. for CI shards:\n` +
    `    test: { reporters: process.argv.some((a) => a.startsWith("--shard")) ? ["default", "blob"] : ["default"] }\n`
  );
}

function checkOptions(options: unknown): void {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new VcrConfigError(`langchainVcr() takes an options object; it got ${JSON.stringify(options)}. Call it as langchainVcr().`);
  }
  const unknown = Object.keys(options).filter((k) => !KNOWN_OPTIONS.includes(k));
  if (unknown.length) {
    throw new VcrConfigError(
      `langchainVcr() has no option ${unknown.map((k) => JSON.stringify(k)).join(", ")}. ` +
        `It takes no options yet (valid: ${KNOWN_OPTIONS.length ? KNOWN_OPTIONS.join(", ") : "none"}). Call it as langchainVcr().`,
    );
  }
}

export default langchainVcr;
