/**
 * The spec files the mocha config names, read with mocha's own option loader (the copy of
 * mocha that is running). When mocha re-spawns itself for `"node-option"`, it puts these on
 * the child's command line; they are the configured suite, not files a user picked. (A config
 * named with `--config` is not passed on to the re-spawned process, so there only the default
 * .mocharc / package.json is read: a run under another config stays partial, the safe side.)
 */
import * as fs from "node:fs";
import * as path from "node:path";

export function configuredSpec(argv: readonly string[]): string[] {
  const script = argv[1];
  if (!script || !/mocha/i.test(script)) return [];
  // bin/mocha.js (the main process) or lib/cli/cli.js (the re-spawned one)
  const candidates = [path.join(path.dirname(script), "options.cjs"), path.join(path.dirname(script), "../lib/cli/options.cjs")];
  const file = candidates.find((f) => fs.existsSync(f));
  if (!file) return [];
  try {
    const { loadOptions } = require(file) as { loadOptions(argv: string[]): { _?: unknown[]; spec?: unknown } };
    // the re-spawned process gets the merged options with --no-config: read the config the parent found by default
    const respawned = path.basename(script) === "cli.js" && path.basename(path.dirname(script)) === "cli";
    const opts = loadOptions(respawned ? [] : configArgs(argv));
    const spec = [...(opts._ ?? []), ...(Array.isArray(opts.spec) ? opts.spec : opts.spec !== undefined ? [opts.spec] : [])];
    return spec.map(String);
  } catch {
    return [];
  }
}

/** Only the options that pick the config file (`--config`, `--package`, `--no-config`), so the loader reads just the config's spec. */
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
