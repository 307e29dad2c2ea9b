/**
 * The `langchain-vcr` command: dispatches to validate / prune / stats / show / migrate / diff. Exit codes:
 * 0 success, 1 a problem found or an action refused, 2 a command line it cannot understand.
 */
import { isVcrError } from "../errors";
import { ownPackage } from "../internals/version";
import { parseArgs, UsageError, type ArgSpec, type ParsedArgs } from "./args";
import { COMMAND_USAGE, USAGE } from "./help";
import type { Io } from "./io";
import { diffCommand, diffSpec } from "./diff";
import { migrateCommand, migrateSpec } from "./migrate";
import { pruneCommand, pruneSpec } from "./prune";
import { showCommand, showSpec } from "./show";
import { statsCommand, statsSpec } from "./stats";
import { validateCommand, validateSpec } from "./validate";

interface Command {
  spec: ArgSpec;
  run(args: ParsedArgs, io: Io): Promise<number>;
}

const COMMANDS: Record<string, Command> = {
  validate: { spec: validateSpec, run: validateCommand },
  prune: { spec: pruneSpec, run: pruneCommand },
  stats: { spec: statsSpec, run: statsCommand },
  show: { spec: showSpec, run: showCommand },
  migrate: { spec: migrateSpec, run: migrateCommand },
  diff: { spec: diffSpec, run: diffCommand },
};

/** Names other tools give these commands (trial 43: `list` was the first one typed) → the command that does it. */
const NEAR_COMMANDS: Readonly<Record<string, string>> = {
  list: "stats --by-test (the fixtures each test of the last run used)",
  ls: "stats --by-test (the fixtures each test of the last run used)",
  check: "validate",
  verify: "validate",
  lint: "validate",
  clean: "prune",
  gc: "prune",
  cat: "show <hash>",
  view: "show <hash>",
  inspect: "show <hash>",
  upgrade: "migrate",
  status: "diff",
};

export async function main(argv: readonly string[], io: Io): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.err(USAGE);
    return 2;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    io.out(`${ownPackage().version ?? "unknown"}\n`);
    return 0;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    io.out(rest[0] && COMMAND_USAGE[rest[0]] ? COMMAND_USAGE[rest[0]] : USAGE);
    return 0;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    const near = Object.hasOwn(NEAR_COMMANDS, name.toLowerCase()) ? NEAR_COMMANDS[name.toLowerCase()] : undefined;
    io.err(`langchain-vcr: unknown command ${JSON.stringify(name)}.${near ? ` Did you mean: langchain-vcr ${near}` : ""}\n\n${USAGE}`);
    return 2;
  }
  try {
    const args = parseArgs(rest, command.spec);
    if (args.flags.help) {
      io.out(COMMAND_USAGE[name]);
      return 0;
    }
    return await command.run(args, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`langchain-vcr ${name}: ${e.message}${e.showUsage ? `.\n\n${COMMAND_USAGE[name]}` : "\n"}`);
      return 2;
    }
    if (isVcrError(e)) {
      io.err(e.message + "\n");
      return 1;
    }
    throw e;
  }
}
