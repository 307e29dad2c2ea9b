/**
 * `langchain-vcr/vitest`: `plugins: [langchainVcr()]` in vitest.config.*. The plugin checks
 * the mode before vitest starts (a bad LANGCHAIN_VCR_MODE ends the run with the message, no
 * stack), starts the run its test processes report to, and adds its setup file (per-test
 * scope, failed-test cleanup, the live call in flight) and its reporter (one summary line,
 * the ledger) to the config, keeping vitest's default reporter when the config names none.
 */
import { VITEST_PLUGIN_ENV } from "../internalEnv";
import * as path from "node:path";
import { VcrConfigError } from "../errors";
import { exitOnConfigError } from "../runner/configCheck";
import { log } from "../log";
import { startRun } from "../runner/share";
import { LangchainVcrVitestReporter, type VitestLike } from "./reporter";
import { VITEST_VERSION_ENV } from "./names";
import { noteInlined, type ProjectConfigLike } from "./inlined";

/** No options yet; the object is there so later ones do not change the call. */
export type LangchainVcrVitestOptions = Record<string, never>;

const KNOWN_OPTIONS: readonly string[] = [];

/** Where the built setup file is (dist/esm/vitest-setup.mjs, next to this file's dist/cjs/vitest/). */
export const VITEST_SETUP_FILE = path.join(__dirname, "../../esm/vitest-setup.mjs");
/** The setup file added after the project's own: it waits for what their `vcr.install()` loads with `import()` (./setup.ts, `installSettled`). */
export const VITEST_SETTLE_FILE = path.join(__dirname, "../../esm/vitest-settle.mjs");

interface UserConfig {
  test?: { reporters?: unknown; setupFiles?: string | string[] };
}
/** What `configureVitest` (vitest 3.1+) is given: vitest, its config resolved, before its reporters are made. */
interface ConfigureVitestContext {
  vitest?: { version?: unknown; config?: { reporters?: unknown; mergeReports?: unknown } };
  /** The project whose plugins name this one (one call per project). */
  project?: { config?: ProjectConfigLike };
}

/** One reporter per process: vitest may resolve the config (and call this plugin's hook) more than once. */
let reporter: LangchainVcrVitestReporter | undefined;

export function langchainVcr(options: LangchainVcrVitestOptions = {}) {
  exitOnConfigError(() => checkOptions(options));
  return {
    name: "langchain-vcr",
    config(user: UserConfig) {
      exitOnConfigError();
      process.env[VITEST_PLUGIN_ENV] = "1"; // its workers' install() knows the plugin is in the run (install.ts)
      reporter ??= new LangchainVcrVitestReporter(startRun("vitest"), inspectProjects);
      // vite merges arrays by concatenation: with no reporters configured, keep vitest's default one
      const reporters = user.test?.reporters === undefined ? ["default", reporter] : [reporter];
      // first, before the project's own setup files (a merge would append it): a test file begins
      // there (`noteTestFileBegins`) before a setup file of the project calls vcr.install(); and
      // last, after them: what their install() loads with import() settles before the test file's imports
      const test = (user.test ??= {});
      const theirs = test.setupFiles === undefined ? [] : Array.isArray(test.setupFiles) ? test.setupFiles : [test.setupFiles];
      if (!theirs.includes(VITEST_SETUP_FILE)) test.setupFiles = [VITEST_SETUP_FILE, ...theirs, VITEST_SETTLE_FILE];
      return { test: { reporters } };
    },
    configureVitest({ vitest, project }: ConfigureVitestContext) {
      // before any test process starts: they name tests as this vitest's -t matches them (./setup.ts)
      if (typeof vitest?.version === "string") process.env[VITEST_VERSION_ENV] = vitest.version;
      // LangChain packages this project's vitest inlines or bundles are copies install() cannot reach: its test processes say so (./inlined.ts)
      noteInlined(project?.config);
      const config = vitest?.config;
      const resolved = config?.reporters;
      // a merge of blob reports and a listing run no test: no ledger of theirs would count
      if (warnedDropped || !reporter || !Array.isArray(resolved) || resolved.includes(reporter) || config?.mergeReports || process.argv[2] === "list") return;
      warnedDropped = true; // once, however many projects name the plugin
      log.warn(
        droppedReporterMessage(
          resolved,
          process.argv.some((a) => a === "--reporter" || a.startsWith("--reporter=")),
        ),
      );
    },
  };
}

let warnedDropped = false;

/**
 * Every project of the run (a project in test.projects that does not extend the root config has no
 * hook of this plugin's): what vitest inlines or bundles, and whether the plugin's setup file runs
 * there. Returns the names of the projects where it does not (their fixture use goes uncounted).
 */
function inspectProjects(vitest: VitestLike): string[] {
  const without: string[] = [];
  for (const project of vitest.projects ?? []) {
    noteInlined(project.config);
    const files = project.config?.setupFiles ?? [];
    if (files.some((f) => path.relative(f, VITEST_SETUP_FILE) === "")) continue; // relative: a drive letter's case may differ
    log.warn(setupFileMissing(project.config?.name));
    without.push(project.config?.name || "(unnamed)");
  }
  return without;
}

/** A project whose test files run without the plugin's setup file. */
export function setupFileMissing(name: string | undefined): string {
  return (
    `vitest project ${JSON.stringify(name ?? "(unnamed)")} runs without langchain-vcr's setup file: its tests are not scoped, a failed test's recordings are kept, and its fixture use is missing from the summary and the ledger (so the run is partial: prune refuses after it).\n` +
    `  The plugin adds its setup file to the config it is named in; a project in test.projects that does not extend that config gets none.\n` +
    `  Fix it: give the project extends: true, or name langchainVcr() in its own plugins.`
  );
}

/**
 * Why the plugin's reporter is missing from vitest's: `--reporter` on the command line replaces
 * the configured reporters, or (without it) the plugin is named where reporters are not set (a
 * project's config in a workspace: the root config sets them).
 */
export function droppedReporterMessage(reporters: readonly unknown[], fromCommandLine: boolean): string {
  const names = reporters.map((r) => (Array.isArray(r) ? String(r[0]) : ((r as object)?.constructor?.name ?? "a reporter"))).join(", ") || "none";
  const cause = fromCommandLine
    ? `vitest's command line set the reporters (${names}), which replaces the ones in the config, langchain-vcr's among them.`
    : `vitest's reporters (${names}) do not include langchain-vcr's: the plugin is named in a config that does not set them (in a workspace, the root config does).`;
  const fix = fromCommandLine
    ? `  Fix: name the reporters in vitest.config instead of with --reporter, e.g. for CI shards:\n` +
      `    test: { reporters: process.argv.some((a) => a.startsWith("--shard")) ? ["default", "blob"] : ["default"] }\n`
    : `  Fix: add langchainVcr() to the plugins of the root vitest.config too.\n`;
  return `${cause}\n  So this run prints no langchain-vcr summary and writes no usage ledger: \`langchain-vcr prune\` will not count what it used.\n${fix}`;
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
