/**
 * The commands a message prints to record tests again, in the running test runner's own words: one
 * test (`rerecordCommand`), the tests a run missed, in one run (`rerecordTestsCommand`), the whole
 * suite (`wholeSuiteCommand`), each with the run's options (its config, setup files, NODE_OPTIONS),
 * from the package the run was in.
 */
import * as path from "node:path";
import { currentRunner, currentTest, type RunnerName } from "../scope";
import { suiteRerecordCommand } from "./suiteCommand";
import { rerecordEnv, shellQuote, shellWord, VALUE_FLAGS } from "./commandEnv";
import { packageManager } from "./packageManager";
import { filterTitleOf } from "./runIdTitle";
import { mochaCommandArgs } from "../mocha/contextEnv";
import { argsNaming } from "../mocha/runContext";
import { sharedCommandArgs } from "../runner/shareEnv";
import { pathFrom } from "../pathFrom";

/**
 * The command that records just this test again, in the running test runner's own words, with its
 * title filled in, and for vitest and jest its file (`specFile`): a test of the same title in another
 * file is left alone, as `record_always` must leave it. Without a runner plugin nothing names the
 * test: the suite's own command.
 */
export function rerecordCommand(runner: RunnerName | undefined, title: string | undefined, specFile?: string): string {
  if (title === undefined) return inPackage(suiteRerecordCommand());
  const { env, exec, yarn } = commandParts(runner);
  return inPackage(commandFor(runner, env, shellQuote(titlePattern(runner, title)), exec, yarn, commandFiles(runner, specFile)));
}

/** A test a run missed, and whose miss a recording fixes: what the command that records such tests in one run names of it. */
export interface MissedTest {
  runner?: RunnerName;
  /** The name the runner's filter matches (`Scope.filterTitle ?? Scope.title`). */
  title: string;
  /** The test file the command names (absolute), if one (`commandFiles`). */
  file?: string;
}

/** The running test, as `rerecordTestsCommand` names it; undefined outside a test. */
export function missedTest(): MissedTest | undefined {
  const scope = currentTest();
  const title = scope?.filterTitle ?? scope?.title;
  if (title === undefined) return undefined;
  const runner = currentRunner();
  const file = commandFiles(runner, scope?.specFile)[0];
  return { runner, title, file: file === undefined ? undefined : path.resolve(file) };
}

/** More titles than this, and the command names the tests' files alone (a recording run replays what is recorded already). */
const TITLES_AT_MOST = 10;

/**
 * One command that records every test of `tests` (at least one; all of one runner) again: their files, and a name filter
 * that matches each of them (trial 56 L3: two misses printed two commands, and running the first left the second red).
 */
export function rerecordTestsCommand(tests: readonly MissedTest[]): string {
  const runner = tests[0].runner;
  const titles = [...new Set(tests.map((t) => titlePattern(runner, t.title)))];
  // a test whose file is unknown is run only if no file narrows the command
  const files = tests.every((t) => t.file !== undefined) ? [...new Set(tests.map((t) => t.file as string))].sort() : [];
  const quoted = titles.length <= TITLES_AT_MOST ? shellQuote(titles.join("|")) : undefined;
  if (quoted === undefined && files.length === 0) return wholeSuiteCommand(runner);
  const { env, exec, yarn } = commandParts(runner);
  return inPackage(commandFor(runner, env, quoted, exec, yarn, files));
}

/**
 * A test's title as its runner's name filter matches it alone: every runner takes the filter as a regular expression.
 * node:test's TAP output (its reporter off a terminal: CI logs) doubles each backslash of a line it prints, so there a
 * character class escapes what it can.
 */
function titlePattern(runner: RunnerName | undefined, title: string): string {
  const pattern = filterTitleOf(title);
  return runner === "node-test"
    ? pattern.replace(/[.*+?^${}()|[\]\\]/g, (c) => ("^]\\".includes(c) ? `\\${c}` : `[${c}]`))
    : pattern.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * The test files a command that records a test of `specFile` names: node:test's own file of this process (its entry
 * file, which may import the file the test is declared in), else the test's file (mocha's swapped in for the suite's
 * spec files, vitest's and jest's as a file filter).
 */
function commandFiles(runner: RunnerName | undefined, specFile: string | undefined): string[] {
  const file = runner === "node-test" ? ownTestFile() : specFile;
  return file === undefined ? [] : [file];
}

/** What a printed command of `runner` starts with: the environment (the run's NODE_OPTIONS, jest's --experimental-vm-modules, the mode) and how it runs a package's binary. */
function commandParts(runner: RunnerName | undefined): { env: string; exec: string; yarn: boolean } {
  const env = rerecordEnv(runner === "jest");
  const yarn = packageManager() === "yarn";
  return { env, exec: yarn ? "yarn" : "npx", yarn };
}

/** `command`, run from the package when the package manager was invoked above it (`packageDirFromInvocation`). */
export function inPackage(command: string): string {
  const cd = packageDirFromInvocation();
  return cd ? `cd ${shellWord(cd)} && ${command}` : command;
}

/**
 * The test process's directory from where the package manager was invoked (`INIT_CWD`, which npm,
 * pnpm and yarn set), when it is below it: `pnpm -r test` or `npm test -w packages/api` run each
 * package's tests in the package, and a command printed there runs only there. Undefined otherwise.
 */
function packageDirFromInvocation(): string | undefined {
  const from = process.env.INIT_CWD;
  if (!from) return undefined;
  const rel = path.relative(from, process.cwd());
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel : undefined;
}

/** The runner's command with its run's options; `quoted`, the titles its name filter selects (none: every test of `files`); `files`, the test files it runs (none: the suite's). */
function commandFor(runner: RunnerName | undefined, env: string, quoted: string | undefined, exec: string, yarn: boolean, files: readonly string[]): string {
  const filter = (flag: string) => (quoted === undefined ? "" : ` ${flag} ${quoted}`);
  switch (runner) {
    case "vitest":
      return `${env} ${exec} vitest run${words(sharedCommandArgs("vitest"))}${testFileArgs(files)}${filter("-t")}`;
    case "jest":
      return `${env} ${exec} jest${words(sharedCommandArgs("jest"))}${testFileArgs(files, true)}${filter("-t")}`;
    case "node-test":
      return `${env} ${yarn ? "yarn node" : "node"} --require langchain-vcr/node-test${preloadArgs(process.execArgv)} --test${filter("--test-name-pattern")}${testFileArgs(files)}`;
    default:
      // the suite's own mocha arguments (its -r setup files, --config, spec files), when the mocha plugin recorded them
      return `${env} ${exec} mocha${words(mochaArgsFor(files.length === 1 ? files[0] : undefined))}${filter("--grep")}`;
  }
}

/** `testFileArg` of each file. */
function testFileArgs(files: readonly string[], pattern = false): string {
  return files.map((f) => testFileArg(f, pattern)).join("");
}

/** The suite's mocha arguments, its spec files swapped for the test's own when none of them is it (`argsNaming`). */
function mochaArgsFor(specFile: string | undefined): readonly string[] | undefined {
  const args = mochaCommandArgs();
  return args && specFile ? argsNaming(args, specFile) : args;
}

/** The test file of this process when node:test runs each file in a process of its own (NODE_TEST_CONTEXT says so), else none. */
function ownTestFile(): string | undefined {
  return process.env.NODE_TEST_CONTEXT?.startsWith("child") ? process.argv[1] : undefined;
}

/**
 * A test file for a re-record command, from the working directory, after a space: node:test's
 * own file (`node --test` with no file finds no `.ts` test file on Node 20, and would record
 * nothing), and vitest's and jest's file filter (`pattern`: jest's), so a test of the same title
 * in another file is left alone.
 */
export function testFileArg(file: string | undefined, pattern = false): string {
  if (!file) return "";
  const rel = pathFrom(process.cwd(), file);
  // jest reads it as a regular expression: what would change its match is escaped (a "." matching itself and any other is left as it reads)
  return " " + shellWord(pattern ? rel.replace(/[*+?^${}()|[\]\\]/g, "\\$&") : rel);
}

/** The command that records the running test again (the suite's own outside a test). */
export function currentTestCommand(): string {
  const scope = currentTest();
  return rerecordCommand(currentRunner(), scope?.filterTitle ?? scope?.title, scope?.specFile);
}

/** Arguments the runner's main process recorded, each after a space, quoted where the shell needs it. */
function words(args: readonly string[] | undefined): string {
  return (args ?? []).map((a) => " " + shellWord(a)).join("");
}

/** `-r` and `-C`, short for two of `VALUE_FLAGS`. */
const SHORT: Record<string, string> = { r: "require", C: "conditions" };
/** ...and these take none (TypeScript test files on Node 22+). */
const BARE_FLAGS = new Set(["--experimental-strip-types", "--experimental-transform-types"]);

/**
 * What a node:test process runs with that the command needs again: its preloads (`--import tsx`,
 * `--require ./vcr-setup.cjs`: without a setup file that calls `vcr.install()` the command would
 * call the provider and record nothing), `--env-file` (the provider's key), `--conditions`, and
 * TypeScript's flags. langchain-vcr/node-test itself leads the command already. Each once: from
 * Node 24 a test process's execArgv holds the run's flags twice, every option's value as
 * `--require=./vcr-setup.cjs` and then the command line's own `--require ./vcr-setup.cjs`.
 */
export function preloadArgs(execArgv: readonly string[]): string {
  const out = new Set<string>();
  for (let i = 0; i < execArgv.length; i++) {
    if (BARE_FLAGS.has(execArgv[i])) {
      out.add(` ${execArgv[i]}`);
      continue;
    }
    const m = VALUE_FLAGS.exec(execArgv[i]);
    if (!m) continue;
    const flag = m[3] ? SHORT[m[3]] : m[1];
    const value = m[2] ?? execArgv[++i];
    if (value !== undefined && value !== "langchain-vcr/node-test") out.add(` --${flag} ${shellWord(value)}`);
  }
  return [...out].join("");
}

/** The command that records the whole suite again: the project's test script, else the running runner's own command with its config options. */
export function wholeSuiteCommand(runner: RunnerName | undefined): string {
  const suite = suiteRerecordCommand();
  if (!suite.includes("<your test command>")) return inPackage(suite);
  if (runner !== "vitest" && runner !== "jest" && runner !== "mocha") return suite;
  const { env, exec, yarn } = commandParts(runner);
  return inPackage(commandFor(runner, env, undefined, exec, yarn, []));
}
