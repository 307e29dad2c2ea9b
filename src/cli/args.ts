/**
 * A tiny argv parser for the CLI: positionals, `--flag`, `--name value`, `--name=value`,
 * `-h`, and `--` (everything after it is positional). Unknown options are usage errors.
 */
import { shellWord } from "../diagnose/messages";

export interface ArgSpec {
  /** Options that take no value. */
  booleans?: readonly string[];
  /** Options that take one value. */
  strings?: readonly string[];
}

export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | boolean | undefined>;
}

/** A command line the CLI cannot understand (exit code 2, with the usage unless `showUsage` is false: a ref git cannot find, where the fix is not the command line's shape). */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly showUsage = true,
  ) {
    super(message);
  }
}

export function parseArgs(argv: readonly string[], spec: ArgSpec): ParsedArgs {
  const booleans = new Set([...(spec.booleans ?? []), "help"]);
  const strings = new Set(spec.strings ?? []);
  const out: ParsedArgs = { positionals: [], flags: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      out.positionals.push(...argv.slice(i + 1));
      break;
    }
    if (a === "-h") {
      out.flags.help = true;
      continue;
    }
    if (!a.startsWith("--") || a === "--") {
      if (a.startsWith("-") && a !== "-") throw new UsageError(`unknown option ${a}`);
      out.positionals.push(a);
      continue;
    }
    const eq = a.indexOf("=");
    const name = a.slice(2, eq >= 0 ? eq : undefined);
    if (booleans.has(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      out.flags[name] = true;
    } else if (strings.has(name)) {
      const value = eq >= 0 ? a.slice(eq + 1) : argv[++i];
      if (value === undefined || value === "") throw new UsageError(`--${name} needs a value`);
      out.flags[name] = value;
    } else {
      throw new UsageError(`unknown option --${name}`);
    }
  }
  return out;
}

/**
 * The flags of `args` as they were given, each after a space (` --check --ledger-dir x`), but
 * those named in `except`: a command printed for the user to run again keeps them.
 */
export function flagWords(args: ParsedArgs, except: readonly string[] = []): string {
  let out = "";
  for (const [name, value] of Object.entries(args.flags)) {
    if (value === undefined || value === false || name === "help" || except.includes(name)) continue;
    out += value === true ? ` --${name}` : ` --${name} ${shellWord(value)}`;
  }
  return out;
}
