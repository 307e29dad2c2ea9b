/** Resolving the CLI's fixture directory and listing the fixture files in it. */
import * as fs from "node:fs";
import * as path from "node:path";
import { VcrConfigError } from "../errors";
import { DEFAULTS } from "../options";
import { FIXTURE_FILE_RE } from "../store/fixture";
import { UsageError, type ParsedArgs } from "./args";
import type { Io } from "./io";
import { defaultLedgerDir, lastRunVerdict, packageRoot } from "../runner/ledgerFiles";
import { packagesHolding, workspaceDirs, workspaceRootDir } from "../install/workspaces";
import { pathFrom } from "../pathFrom";
import { shellWord } from "../diagnose/messages";

/**
 * `dir` from the working directory; with none given, the default there, else the project root's (a
 * command run from a subdirectory), else, from a workspace package, the workspace root's (one
 * `cassettes/` at the root for every package: user trial 43).
 */
export function resolveDir(io: Io, dir: string | undefined): string {
  workspaceFallback.delete(io);
  const here = path.resolve(io.cwd, dir ?? DEFAULTS.dir);
  if (dir !== undefined || fs.existsSync(here)) return here;
  const project = projectRoot(io.cwd);
  const atRoot = path.join(project, DEFAULTS.dir);
  if (fs.existsSync(atRoot)) return atRoot;
  const workspace = workspaceRootDir(project);
  if (workspace === undefined || !workspaceDirs(project).some((pkg) => path.resolve(pkg) === path.resolve(project))) return here;
  const atWorkspace = path.join(workspace, DEFAULTS.dir);
  if (!fs.existsSync(atWorkspace)) return here;
  // the suite that uses it runs there (one runner at the root): its ledgers are read there too (`cliRoot`), unless
  // the package's own runs are newer (each package's tests run in the package, with dir "../../cassettes")
  if (lastRunStart(workspace) >= lastRunStart(project)) workspaceFallback.set(io, workspace);
  return atWorkspace;
}

/** A command's `Io` → the workspace root whose `cassettes/` `resolveDir` took, from a package with none of its own. */
const workspaceFallback = new WeakMap<Io, string>();

/**
 * Where a command reads the runners' ledgers by default: the project root, or the workspace root when the
 * command's fixture directory is the workspace root's, found from a package (`resolveDir`), and the runs there are
 * newer than the package's: the suite that uses it ran there (trial 43 recheck: from a package, `stats` said "no
 * usage ledger" after a complete run at the root). Read after `resolveDir`.
 */
export function cliRoot(io: Io): string {
  return workspaceFallback.get(io) ?? projectRoot(io.cwd);
}

/**
 * The directory the test runner ran in, for a command run from below it: the package there
 * (`packageRoot`: a runner roots its run there, `ledgerRoot`; a package inside another project is a
 * project of its own, never judged by the outer one's ledger); outside any package, the nearest
 * directory at or above `cwd` that holds the runners' ledgers; else `cwd`. The package comes first:
 * a ledger an older version wrote in `test/node_modules` (a run started there) is not the package's
 * (recheck 60: the CLI in `test/` then looked for `test/cassettes`).
 */
export function projectRoot(cwd: string): string {
  const pkg = packageRoot(cwd);
  if (pkg !== undefined) return pkg;
  for (let d = path.resolve(cwd); ; d = path.dirname(d)) {
    if (fs.existsSync(defaultLedgerDir(d, {}))) return d;
    if (path.dirname(d) === d) return cwd;
  }
}

/**
 * A command's one optional `[dir]`. More positionals are a usage error: ignored, a forgotten
 * `--` (`prune cassettes dry-run`) would run the command for real.
 */
export function dirArgOf(args: ParsedArgs, command: string): string | undefined {
  if (args.positionals.length > 1) {
    throw new UsageError(
      `${command} takes at most one [dir], not ${args.positionals.length} arguments (${args.positionals.map((p) => JSON.stringify(p)).join(" ")})`,
    );
  }
  return args.positionals[0];
}

/**
 * Absolute paths of the `<sha256>.json` files in `dir`, sorted. A missing directory is an error naming `command`'s own call
 * (`wanted`: what the command looks for, and whether a package's directory holds it: `workspaceHint`).
 */
export function listFixtures(dir: string, command: string, wanted?: Wanted): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const hint = code === "ENOENT" ? workspaceHint(dir, command, wanted) : undefined;
    throw new VcrConfigError(
      missingDirMessage(
        dir,
        code === "ENOENT" ? "does not exist" : code === "ENOTDIR" ? "is not a directory" : `cannot be read (${(e as Error).message})`,
        command,
        hint,
      ),
    );
  }
  return names
    .filter((n) => FIXTURE_FILE_RE.test(n))
    .sort()
    .map((n) => path.join(dir, n));
}

/** What a command looks for in a fixture directory (`show`: a hash prefix), and whether a directory's fixture file names hold it. */
export interface Wanted {
  what: string;
  holds(names: string[]): boolean;
}

/** A fixture directory that cannot be listed (`what`: "does not exist", ...), and its fix: `hint` (a workspace's), else `missingDirFix`. */
export function missingDirMessage(dir: string, what: string, command: string, hint: string | undefined): string {
  return `the fixture directory ${dir} ${what}.\n` + (hint ?? missingDirFix(command));
}

/** What to do about a fixture directory that does not exist, for `command`'s own call (not the same call again: trial 43 L5). */
export function missingDirFix(command: string): string {
  return `  Pass the directory your Vcr uses (new Vcr({ dir })), from here or absolute, e.g. langchain-vcr ${command} path/to/${DEFAULTS.dir}`;
}

/** Workspace packages a hint names at most. */
const MAX_PACKAGES = 5;

/** The commands that judge fixtures by the ledger of the directory they run in (`projectRoot`). */
const LEDGER_COMMANDS = new Set(["prune", "stats", "show"]);

/**
 * For a missing `dir` at a workspace's root whose packages hold directories of its name: those,
 * and how to run `command` on them. A command that reads the ledger runs where the suite last ran
 * (the newest ledger: here, with the package's directory, or else in the package); any other is
 * passed the package's directory from here. Undefined when no package holds one.
 */
export function workspaceHint(dir: string, command: string, wanted?: Wanted): string | undefined {
  const every = inWorkspacePackages(dir);
  if (every.length === 0) return undefined;
  const all = every.slice(0, MAX_PACKAGES);
  const listed = `  Workspace packages hold fixture directories of that name: ${all.map((f) => f.dir).join(", ")}${every.length > all.length ? ", …" : ""}.\n`;
  // `show <hash>`: the packages whose directory holds it (the others' command would fail: trial 52), and none is said
  const found = wanted ? every.filter((f) => wanted.holds(fixtureNames(f.dir))).slice(0, MAX_PACKAGES) : all;
  if (found.length === 0) return listed + `  None of them holds ${wanted!.what} either: check it, or pass a file's path.`;
  const here = process.cwd();
  const commands = (lines: string[]) => (lines.length === 1 ? ` ${lines[0]}` : `\n${lines.map((l) => `    ${l}`).join("\n")}`);
  // a command that reads no ledger, or is told where the ledgers are (--ledger-dir, relative to here), runs here
  if (!LEDGER_COMMANDS.has(command.split(" ")[0]) || command.includes(" --ledger-dir "))
    return listed + `  Pass it:${commands(found.map((f) => `npx langchain-vcr ${command} ${shellWord(f.dir)}`))}`;
  const atRoot = lastRunStart(here);
  const lines = found.map((f) => {
    const inPkg = lastRunStart(path.resolve(here, f.pkg));
    if (atRoot > inPkg) return `npx langchain-vcr ${command} ${shellWord(f.dir)}`; // the suite last ran here
    const arg = f.inPkg === DEFAULTS.dir && !command.endsWith(" --dir") ? "" : ` ${shellWord(f.inPkg)}`; // the default there needs no naming
    return `(cd ${shellWord(f.pkg)} && npx langchain-vcr ${command}${arg})`;
  });
  // each package's runs write their ledger in the package (pnpm -r, npm -w, a runner started there); a run from here, here
  return listed + `  Run it where each package's tests last ran (their ledger is kept there):${commands(lines)}`;
}

/** The fixture file names in `dir` (from the working directory); none when it cannot be read. */
function fixtureNames(dir: string): string[] {
  try {
    return fs.readdirSync(dir).filter((n) => FIXTURE_FILE_RE.test(n));
  } catch {
    return [];
  }
}

/** When the last run whose ledger is kept in `root` started (ms), or -Infinity with none. */
function lastRunStart(root: string): number {
  const verdict = lastRunVerdict(defaultLedgerDir(root, {}), root);
  return verdict ? Date.parse(verdict.startedAt) : -Infinity;
}

/**
 * A missing `dir` at a workspace's root: the directories of its name (the same path below each
 * package, else its last segment there) in the workspace's packages, where a test runner run in a
 * package writes; each with its package, both from the working directory.
 */
function inWorkspacePackages(dir: string): { dir: string; pkg: string; inPkg: string }[] {
  const cwd = process.cwd();
  const below = pathFrom(cwd, dir);
  const exact = below !== dir ? below : undefined; // a path inside the working directory
  const hits = (name: string) =>
    packagesHolding(cwd, name)
      .filter(({ at }) => at !== dir)
      .map(({ pkg, at }) => ({ dir: path.relative(cwd, at), pkg: path.relative(cwd, pkg) || ".", inPkg: path.relative(pkg, at) }));
  const found = exact ? hits(exact) : [];
  return found.length ? found : hits(path.basename(dir));
}
