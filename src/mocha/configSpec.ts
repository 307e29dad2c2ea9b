/**
 * The spec files and the ignored files the mocha config names, read with mocha's own option
 * loader (the copy of mocha that is running). When mocha re-spawns itself for `"node-option"`,
 * it puts these on the child's command line (`--ignore` too); they are the configured suite, not
 * files a user picked or left out. (A config
 * named with `--config` is not passed on to the re-spawned process, so there only the default
 * .mocharc / package.json is read: a run under another config stays partial, the safe side.)
 */
import * as fs from "node:fs";
import * as path from "node:path";

export interface ConfiguredFiles {
  spec: readonly string[];
  ignore: readonly string[];
}

const NONE: ConfiguredFiles = { spec: [], ignore: [] };

export function configuredFiles(argv: readonly string[]): ConfiguredFiles {
  const script = argv[1];
  if (!script || !/mocha/i.test(script)) return NONE;
  // bin/mocha.js (the main process) or lib/cli/cli.js (the re-spawned one)
  const candidates = [path.join(path.dirname(script), "options.cjs"), path.join(path.dirname(script), "../lib/cli/options.cjs")];
  const file = candidates.find((f) => fs.existsSync(f));
  if (!file) return NONE;
  try {
    const { loadOptions } = require(file) as { loadOptions(argv: string[]): { _?: unknown[]; spec?: unknown; ignore?: unknown } };
    // the re-spawned process gets the merged options with --no-config: read the config the parent found by default
    const respawned = path.basename(script) === "cli.js" && path.basename(path.dirname(script)) === "cli";
    const opts = loadOptions(respawned ? [] : configArgs(argv));
    return { spec: [...(opts._ ?? []), ...list(opts.spec)].map(String), ignore: list(opts.ignore).map(String) };
  } catch {
    return NONE;
  }
}

function list(value: unknown): unknown[] {
  return Array.isArray(value) ? value : value !== undefined ? [value] : [];
}

/** Only the options that pick the config file (`--config`, `--package`, `--no-config`), so the loader reads just the config's files. */
function configArgs(argv: readonly string[]): string[] {
  const out: string[] = [];
  const args = argv.slice(2);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === "--no-config" || a === "--no-package") out.push(a);
    else if (a === "--config" || a === "--package") out.push(a, args[++i] ?? "");
    else if (a.startsWith("--config=") || a.startsWith("--package=")) out.push(a);
  }
  return out;
}
