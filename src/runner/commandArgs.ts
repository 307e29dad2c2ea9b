/**
 * The options of a vitest or jest command line that a miss's command to record one test again
 * carries: those that choose the config, its root and its projects. `vitest -c
 * vitest.llm.config.ts` is how a suite of model tests is often kept apart; the plain
 * `npx vitest run -t …` would read the default config, which may not include the test or the
 * setup file that calls `vcr.install()`, and so run nothing or record nothing.
 *
 * Only these: an option the runner does not list here may or may not take a value, so the
 * tokens after it cannot be told apart from test-file filters. Name filters (`-t`) and the rest
 * (workers, reporters, watch, coverage) are left out: the command names the test itself.
 */
import { isNamePattern, optionKey } from "./narrowingArgs";

/** Per runner: its option, as its documentation spells it, and how many values it takes. */
export const COMMAND_OPTIONS = {
  vitest: { "--config": "one", "-c": "one", "--root": "one", "-r": "one", "--dir": "one", "--project": "one", "--mode": "one" },
  jest: {
    "--config": "one",
    "-c": "one",
    "--rootDir": "one",
    "--selectProjects": "many",
    "--projects": "many",
    "--setupFiles": "many",
    "--setupFilesAfterEnv": "many",
  },
} as const satisfies Record<string, Record<string, "one" | "many">>;

export type CommandRunner = keyof typeof COMMAND_OPTIONS;

/**
 * Whether `argv[1]` is the runner's own command line, not a script that runs it programmatically:
 * its package's directory or its bin (`node_modules/vitest/vitest.mjs`, `.bin/jest`,
 * `jest-cli/bin/jest.js`), not any path that merely holds the word.
 */
export function startedBy(runner: CommandRunner, argv: readonly string[]): boolean {
  return new RegExp(`(^|[\\\\/])${runner}(-cli)?([\\\\/]|\\.[cm]?js$|$)`).test(argv[1] ?? "");
}

/**
 * The tokens of the runner's config options in `argv` (this process's, node and the script
 * first), each with its value(s), in their order; none when the runner was started from a script.
 */
export function commandArgsOf(runner: CommandRunner, argv: readonly string[] = process.argv): string[] {
  if (!startedBy(runner, argv)) return [];
  const options: Readonly<Record<string, "one" | "many">> = COMMAND_OPTIONS[runner];
  const wanted = new Map(Object.keys(options).map((o) => [optionKey(o), o] as const));
  const out: string[] = [];
  for (let i = 2; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") break;
    if (isNamePattern(a)) {
      i++; // `-t --config`: a test name, not the option
      continue;
    }
    const o = a.startsWith("-") ? wanted.get(optionKey(a)) : undefined;
    if (!o || a.startsWith("--") !== o.startsWith("--")) continue; // -r is vitest's --root; --r is nothing
    if (a.includes("=")) {
      out.push(a);
      continue;
    }
    // one value, whatever it looks like; or every value up to the next option
    const values: string[] = [];
    if (options[o] === "one") {
      if (i + 1 < argv.length && argv[i + 1] !== "--") values.push(argv[++i]);
    } else {
      while (i + 1 < argv.length && !argv[i + 1].startsWith("-")) values.push(argv[++i]);
    }
    if (values.length) out.push(a, ...values);
  }
  return out;
}
