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
    command: /mocha/i.test(p.argv[1] ?? "") && !respawned(p.argv.slice(2)) ? commandArgs(p.argv.slice(2)) : undefined,
  };
}

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
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      out.push(...args.slice(i));
      break;
    }
    const body = a.startsWith("-") && a !== "-" ? a.replace(/^--?/, "") : undefined;
    const eq = body?.indexOf("=") ?? -1;
    const name = body === undefined ? undefined : eq >= 0 ? body.slice(0, eq) : body;
    const takesNext = name !== undefined && eq < 0 && VALUE_OPTIONS.has(name);
    if (name !== undefined && LEFT_OUT.has(name)) {
      if (takesNext) i++;
      continue;
    }
    out.push(a);
    if (takesNext && i + 1 < args.length) out.push(args[++i]);
  }
  return out;
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

/**
 * What the command line says makes this run partial. Not a mocha command line (a programmatic
 * run) → partial: nothing tells which spec files ran. Spec files named on the command line
 * (positional or `--spec`) → partial unless the run is a declared shard: the whole suite is
 * the one configured in `.mocharc.*` / package.json. Files left out with `--ignore`/`--exclude`
 * → partial, shard or not. The config's own spec and ignored files do not count: mocha puts them
 * on argv when it re-spawns itself for `"node-option"`.
 */
export function* mochaArgvReasons(argv: readonly string[], isShard: boolean, config: ProcessFacts["config"] = { spec: [], ignore: [] }): Generator<string> {
  const script = argv[1] ?? "";
  if (!/mocha/i.test(script)) {
    yield `not started by the mocha command line (${script || "unknown script"}), so which spec files ran is unknown`;
    return;
  }
  let named: string[] = [];
  /** `--ignore` / `--exclude` and the file each leaves out */
  const ignored: [string, string][] = [];
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--") {
      named.push(...args.slice(i + 1));
      break;
    }
    if (!a.startsWith("-") || a === "-") {
      named.push(a);
      continue;
    }
    const body = a.replace(/^--?/, "");
    const eq = body.indexOf("=");
    const name = eq >= 0 ? body.slice(0, eq) : body;
    let value: string | undefined = eq >= 0 ? body.slice(eq + 1) : undefined;
    if (value === undefined && VALUE_OPTIONS.has(name)) value = args[++i];
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
