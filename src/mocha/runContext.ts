/**
 * Which run this process belongs to, and what its command line says about completeness.
 *
 * The main mocha process (serial, or the parent of `--parallel` workers) starts a run: a run
 * id, a start time, and the facts read from its own command line (`--grep`, `--fgrep`,
 * `--watch`, `--dry-run`, spec files named on the command line). It hands them to its workers
 * through an environment variable, which mocha's worker pool copies into every worker it
 * forks (mocha also sets `MOCHA_WORKER_ID` there). Pure functions: the caller passes env,
 * argv and pids.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { parseShard, SHARD_ENV, type Shard } from "../runner/ledgerFiles";
import { newRunIds, parseEnvJson } from "../runner/runIds";
import { NARROWING_OPTIONS, narrowingReason } from "../runner/narrowingArgs";
import type { ConfiguredFiles } from "./configSpec";
import { CONTEXT_ENV } from "./contextEnv";

export { CONTEXT_ENV };
/** Why a dry run (`--dry-run`, or `dry-run` in the mocha config) is partial: it reports the tests without running them. */
export const DRY_RUN_REASON = "--dry-run ran no tests";

export interface RunContext {
  role: "main" | "worker";
  runId: string;
  mainId: string;
  mainPid: number;
  startedAt: string;
  shard?: Shard;
  /** Reasons from the main process's command line that make the run partial. */
  argvReasons: string[];
  /** The main process's mocha arguments without its name filters and watch options: a miss's command to record a test again (`contextEnv.ts`). */
  command?: string[];
}

export interface ProcessFacts {
  env: NodeJS.ProcessEnv;
  argv: readonly string[];
  pid: number;
  ppid: number;
  now: Date;
  /**
   * The spec globs and ignored files the mocha config (.mocharc, package.json) names: on argv
   * they are the whole suite, not a subset. A function is called only when argv names spec files
   * or ignores some (reading the config with mocha's option loader takes ~3 ms).
   */
  config?: ConfiguredFiles | (() => ConfiguredFiles);
}

/** This process's run: inherited from the main mocha process when this is one of its workers, else a new one. */
export function resolveRunContext(p: ProcessFacts): RunContext {
  const inherited = p.env.MOCHA_WORKER_ID !== undefined ? parseContext(p.env[CONTEXT_ENV]) : undefined;
  if (inherited && inherited.mainPid === p.ppid) return { ...inherited, role: "worker" };
  const { mainId, runId } = newRunIds(p.pid, p.now, p.env);
  const shardText = p.env[SHARD_ENV];
  const shard = parseShard(shardText);
  const argvReasons = [...mochaArgvReasons(p.argv, shard !== undefined, p.config)];
  if (shardText && !shard) argvReasons.push(`${SHARD_ENV}=${JSON.stringify(shardText)} is not <index>/<total> (e.g. 2/3)`);
  return {
    role: "main",
    runId,
    mainId,
    mainPid: p.pid,
    startedAt: p.now.toISOString(),
    shard,
    argvReasons,
    command: startedByMocha(p.argv) && !respawned(p.argv.slice(2)) ? commandArgs(p.argv.slice(2)) : undefined,
  };
}

/** Whether this process is the mocha command line (not a script that runs mocha programmatically). */
const startedByMocha = (argv: readonly string[]) => /mocha/i.test(argv[1] ?? "");

/**
 * mocha re-spawns itself for a config's `node-option` with every option it resolved spelled out,
 * ending in `--no-package` and `--no-config`: not the user's words, and the plain `npx mocha`
 * reads the same config.
 */
function respawned(args: readonly string[]): boolean {
  return args.includes("--no-config") && args.includes("--no-package");
}

/** Options a command that records one test again leaves out: it names the test itself (`--grep`), and runs once. */
const LEFT_OUT = new Set(["grep", "g", "fgrep", "f", "invert", "i", "watch", "w", "watch-files", "watch-ignore", "dry-run"]);

/** `args` (mocha's, after node and the script) without the options in LEFT_OUT and their values. */
export function commandArgs(args: readonly string[]): string[] {
  return [...mochaArgs(args)].flatMap((arg) => ("option" in arg && LEFT_OUT.has(arg.option) ? [] : arg.tokens));
}

/**
 * `args` with the one spec file named on it swapped for `specFile` when it is another: mocha adds
 * its config's `spec` to the files a command line names, so a test of another file ran too (a
 * user trial: a miss in test/app.spec.ts printed `mocha test/notools.spec.ts --grep …`). Left as
 * they are when it is a glob or a directory (it may hold the file) or follows `--`, and when
 * several are named (one may be a setup file the run needs).
 */
export function argsNaming(args: readonly string[], specFile: string, cwd: string = process.cwd()): string[] {
  const items = [...mochaArgs(args)];
  const named = items.flatMap((a) => ("positional" in a ? [a] : []));
  const target = path.resolve(cwd, specFile);
  const isFile = (f: string) => fs.statSync(path.resolve(cwd, f), { throwIfNoEntry: false })?.isFile() === true;
  // one file, and not it: with several, one may be a setup file the run needs (mocha test/setup.ts test/b.spec.ts)
  if (named.length !== 1 || named[0].tokens[0] === "--" || !isFile(named[0].positional[0]) || path.resolve(cwd, named[0].positional[0]) === target)
    return [...args];
  return items.flatMap((a) => (a === named[0] ? [path.relative(cwd, target).split(path.sep).join("/")] : a.tokens));
}

export function serializeContext(c: RunContext): string {
  return JSON.stringify(c);
}

function parseContext(text: string | undefined): RunContext | undefined {
  return parseEnvJson<RunContext>(text, (c) => typeof c.runId === "string" && typeof c.mainPid === "number" && typeof c.mainId === "string");
}

/** mocha's options that take a value (from mocha's run-option metadata), long and short. */
const VALUE_OPTIONS = new Set([
  "config",
  "fgrep",
  "f",
  "grep",
  "g",
  "package",
  "reporter",
  "R",
  "ui",
  "u",
  "slow",
  "s",
  "timeout",
  "t",
  "timeouts",
  "retries",
  "jobs",
  "j",
  "extension",
  "file",
  "global",
  "globals",
  "ignore",
  "exclude",
  "node-option",
  "n",
  "reporter-option",
  "reporter-options",
  "O",
  "require",
  "r",
  "spec",
  "watch-files",
  "watch-ignore",
]);

/** One item of mocha's command line: an option with its value (the tokens it took), or positional arguments (one, or all after `--`). */
type MochaArg = { tokens: string[]; option: string; value: string | undefined } | { tokens: string[]; positional: string[] };

/** mocha's command line (after node and the script), item by item. */
function* mochaArgs(args: readonly string[]): Generator<MochaArg> {
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      yield { tokens: args.slice(i), positional: args.slice(i + 1) };
      return;
    }
    if (!a.startsWith("-") || a === "-") {
      yield { tokens: [a], positional: [a] };
      continue;
    }
    const body = a.replace(/^--?/, "");
    const eq = body.indexOf("=");
    if (eq >= 0) yield { tokens: [a], option: body.slice(0, eq), value: body.slice(eq + 1) };
    else if (VALUE_OPTIONS.has(body) && i + 1 < args.length) yield { tokens: [a, args[i + 1]], option: body, value: args[++i] };
    else yield { tokens: [a], option: body, value: undefined };
  }
}

/**
 * What the command line says makes this run partial. Not a mocha command line (a programmatic
 * run) → partial: nothing tells which spec files ran. Spec files named on the command line
 * (positional or `--spec`) → partial unless the run is a declared shard: the whole suite is
 * the one configured in `.mocharc.*` / package.json. Files left out with `--ignore`/`--exclude`
 * → partial, shard or not. The config's own spec and ignored files do not count: mocha puts them
 * on argv when it re-spawns itself for `"node-option"`.
 */
export function* mochaArgvReasons(argv: readonly string[], isShard: boolean, config: ProcessFacts["config"] = { spec: [], ignore: [] }): Generator<string> {
  if (!startedByMocha(argv)) {
    yield `not started by the mocha command line (${argv[1] || "unknown script"}), so which spec files ran is unknown`;
    return;
  }
  let named: string[] = [];
  /** `--ignore` / `--exclude` and the file each leaves out */
  const ignored: [string, string][] = [];
  for (const arg of mochaArgs(argv.slice(2))) {
    if ("positional" in arg) {
      named.push(...arg.positional);
      continue;
    }
    const { option: name, value } = arg;
    if (name === "grep" || name === "g") yield `--grep ${JSON.stringify(value ?? "")} selected only some tests`;
    else if (name === "fgrep" || name === "f") yield `--fgrep ${JSON.stringify(value ?? "")} selected only some tests`;
    else if (name === "watch" || name === "w") yield "--watch runs are never complete";
    else if (name === "dry-run") yield DRY_RUN_REASON;
    else if (name === "spec" && value !== undefined) named.push(value);
    else if (`--${name}` in NARROWING_OPTIONS.mocha && value !== undefined) ignored.push([`--${name}`, value]);
  }
  if (named.length === 0 && ignored.length === 0) return;
  const configured = typeof config === "function" ? config() : config;
  const ignoredByConfig = new Set(configured.ignore);
  const narrowed = narrowingReason([...new Set(ignored.filter(([, v]) => !ignoredByConfig.has(v)).map(([o]) => o))], NARROWING_OPTIONS.mocha);
  if (narrowed) yield narrowed;
  const configuredSpec = new Set(configured.spec);
  named = named.filter((n) => !configuredSpec.has(n));
  if (named.length && !isShard) {
    yield (
      `spec files were named on the command line (${named.join(" ")}), so this may be a subset of the suite ` +
      `(prune trusts a run of the spec configured in .mocharc or package.json: plain \`npx mocha\`)`
    );
  }
}
