/**
 * Options on a runner's command line that leave test files of the configured suite out: files to
 * ignore, another test-file pattern or root, a subset of the projects. A run given one is partial,
 * as one given named test files is: `prune` must not judge the suite by it. That holds even when
 * the option only restates the config (`"test": "vitest --dir src"`): the config is the suite.
 */

/** Each runner's options that narrow the suite, as its documentation spells them, and where the config says the same. */
export const NARROWING_OPTIONS = {
  jest: {
    "--testPathIgnorePatterns": "testPathIgnorePatterns in jest.config",
    "--testRegex": "testRegex in jest.config",
    "--testMatch": "testMatch in jest.config",
    "--roots": "roots in jest.config",
    "--rootDir": "rootDir in jest.config",
    "--projects": "only the projects to run in jest.config's projects",
    "--selectProjects": "only the projects to run in jest.config's projects",
    "--ignoreProjects": "only the projects to run in jest.config's projects",
  },
  vitest: {
    "--exclude": "test.exclude in vitest.config",
    "--dir": "test.dir in vitest.config",
    "--root": "root in vitest.config",
    "-r": "root in vitest.config", // --root's short form
    "--project": "only the projects to run in vitest.config's test.projects",
  },
  mocha: {
    "--ignore": "ignore in .mocharc",
    "--exclude": "ignore in .mocharc",
  },
} as const satisfies Record<string, Record<string, string>>;

export type NarrowingOptions = Readonly<Record<string, string>>;

/** Options whose value is a test-name pattern: the token after one is never an option of its own. */
const NAME_PATTERN_KEYS = new Set(["t", "testnamepattern"]);

/** `--test-path-ignore-patterns=x`, `--testPathIgnorePatterns`: one key ("testpathignorepatterns"). */
export function optionKey(arg: string): string {
  const eq = arg.indexOf("=");
  return (eq >= 0 ? arg.slice(0, eq) : arg).replace(/^--?/, "").replace(/-/g, "").toLowerCase();
}

/** Whether `arg` is `-t` / `--testNamePattern` with its value in the next token. */
export function isNamePattern(arg: string): boolean {
  return arg.startsWith("-") && !arg.includes("=") && NAME_PATTERN_KEYS.has(optionKey(arg));
}

/** Which of `options` `argv` (after node and the script) gives, in `options`' spelling. Stops at `--`. */
export function narrowingOptionsIn(argv: readonly string[], options: NarrowingOptions): string[] {
  const wanted = new Map(Object.keys(options).map((o) => [optionKey(o), o] as const));
  const found = new Set<string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") break;
    if (!a.startsWith("-")) continue;
    if (isNamePattern(a)) {
      i++; // `-t --exclude`: a test name, not the option
      continue;
    }
    const o = wanted.get(optionKey(a));
    if (o && a.startsWith("--") === o.startsWith("--")) found.add(o); // -r is vitest's --root; --r is nothing
  }
  return [...found];
}

/** The ledger's reason for a run given `found` (options of `options`), or undefined when there are none. */
export function narrowingReason(found: readonly string[], options: NarrowingOptions): string | undefined {
  if (!found.length) return undefined;
  const where = [...new Set(found.map((o) => options[o]))].join("; ");
  return `${found.join(", ")} on the command line left test files out, so this may be a subset of the suite (to make it the suite, set ${where})`;
}

/** The ledger's reason for this process's command line (after node and the script), if it narrows the suite. */
export function argvNarrowingReason(options: NarrowingOptions, argv: readonly string[] = process.argv.slice(2)): string | undefined {
  return narrowingReason(narrowingOptionsIn(argv, options), options);
}
