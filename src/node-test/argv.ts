/** What node's own command line says about a `node --test` run: filters, named files, shards. */
import { parseShard, type Shard } from "../runner/ledgerFiles";

const VALUE_FLAGS = new Set([
  "--test-name-pattern",
  "--test-skip-pattern",
  "--test-reporter",
  "--test-reporter-destination",
  "--test-shard",
  "--require",
  "-r",
  "--import",
  "--loader",
  "--experimental-loader",
  "--test-concurrency",
  "--test-timeout",
  "--conditions",
  "-C",
]);

function flagValue(execArgv: readonly string[], name: string): string | undefined {
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i];
    if (a === name) return execArgv[i + 1] ?? "";
    if (a.startsWith(name + "=")) return a.slice(name.length + 1);
  }
  return undefined;
}

export function nodeTestShard(execArgv: readonly string[]): Shard | undefined {
  return parseShard(flagValue(execArgv, "--test-shard"));
}

export function* nodeTestArgvReasons(execArgv: readonly string[], argv: readonly string[], isShard: boolean): Generator<string> {
  const name = flagValue(execArgv, "--test-name-pattern");
  if (name !== undefined) yield `--test-name-pattern ${JSON.stringify(name)} selected only some tests`;
  const skip = flagValue(execArgv, "--test-skip-pattern");
  if (skip !== undefined) yield `--test-skip-pattern ${JSON.stringify(skip)} skipped some tests`;
  if (execArgv.includes("--test-only")) yield "--test-only ran only the tests marked .only";
  if (execArgv.some((a) => a === "--watch" || a.startsWith("--watch="))) yield "--watch runs are never complete";
  // node puts the test files it was given after the flags it consumed
  const named = argv.slice(1).filter((a, i, all) => !a.startsWith("-") && !VALUE_FLAGS.has(all[i - 1] ?? ""));
  if (named.length && !isShard) {
    yield `test files were named on the command line (${named.join(" ")}), so this may be a subset of the suite (prune trusts a plain \`node --test\` run)`;
  }
}
