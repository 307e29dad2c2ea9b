/**
 * Options on a runner's command line that leave test files of the configured suite out: files to
 * ignore, another test-file pattern, a subset of the projects. A run given one is partial, as
 * one given named test files is: `prune` must not judge the suite by it.
 */

/** The options of each runner that narrow the suite, as its documentation spells them. */
export const NARROWING_OPTIONS = {
  jest: ["--testPathIgnorePatterns", "--testRegex", "--testMatch", "--roots", "--selectProjects", "--ignoreProjects"],
  vitest: ["--exclude", "--project", "--dir"],
  mocha: ["--ignore", "--exclude"],
} as const;

/** `--test-path-ignore-patterns=x`, `--testPathIgnorePatterns`: one key ("testpathignorepatterns"). */
function key(arg: string): string {
  const eq = arg.indexOf("=");
  return (eq >= 0 ? arg.slice(0, eq) : arg).replace(/^--/, "").replace(/-/g, "").toLowerCase();
}

/** Which of `options` `argv` (after node and the script) gives, in `options`' spelling. Stops at `--`. */
export function narrowingOptionsIn(argv: readonly string[], options: readonly string[]): string[] {
  const wanted = new Map(options.map((o) => [key(o), o] as const));
  const found = new Set<string>();
  for (const a of argv) {
    if (a === "--") break;
    if (!a.startsWith("--")) continue;
    const o = wanted.get(key(a));
    if (o) found.add(o);
  }
  return [...found];
}

/** The ledger's reason for a run given `found`, or undefined when there are none. */
export function narrowingReason(found: readonly string[]): string | undefined {
  if (!found.length) return undefined;
  return `${found.join(", ")} on the command line left test files out, so this may be a subset of the suite (set ${found.length > 1 ? "them" : "it"} in the config to make it the suite's)`;
}
