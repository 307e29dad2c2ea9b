/**
 * Where a CLI command reads the runners' usage ledgers (`--ledger-dir`, env LANGCHAIN_VCR_LEDGER_DIR, else
 * the project root's, or the workspace root's: `cliRoot`), with the ledgers of the other suites of a
 * workspace, and what their last runs say about one fixture directory (`runner/otherSuites.ts`). Read
 * after `resolveDir`, which decides the root for a command run from a workspace package.
 */
import * as path from "node:path";
import { defaultLedgerDir, LEDGER_DIR_ENV, type RunVerdict } from "../runner/ledgerFiles";
import { ledgerVerdicts, type LedgerSource, type LedgerVerdicts, type OtherSuite } from "../runner/otherSuites";
import { workspaceDirs, workspaceRootDir } from "../install/workspaces";
import { isDirectory } from "../fsProbe";
import type { ParsedArgs } from "./args";
import { cliRoot } from "./fixtureDir";
import type { Io } from "./io";

/** The command's ledger directory, the directory its runs ran in, and the other suites' ledgers. */
export function cliLedgers(args: ParsedArgs, io: Io): { ledgerDir: string; root: string; others: LedgerSource[] } {
  const ledgerDir = ledgerDirOf(args, io);
  return { ledgerDir, root: ledgerRootOf(ledgerDir, io), others: otherLedgerSources(args, io) };
}

/** `cliLedgers`, and what their last runs say about fixture directory `dir`. */
export function cliVerdicts(args: ParsedArgs, io: Io, dir: string): ReturnType<typeof cliLedgers> & { verdicts: LedgerVerdicts | undefined } {
  const l = cliLedgers(args, io);
  return { ...l, verdicts: ledgerVerdicts(l.ledgerDir, l.root, l.others, dir) };
}

export function ledgerDirOf(args: ParsedArgs, io: Io): string {
  const flag = args.flags["ledger-dir"];
  return typeof flag === "string" ? path.resolve(io.cwd, flag) : defaultLedgerDir(cliRoot(io), io.env);
}

/**
 * The ledgers of the workspace's other packages and of its root, where each writes its own by
 * default (a package's runner run in it, or through `npm test --workspaces`): the suites that may
 * share a fixture directory with this one (one `cassettes/` at the root for every package). None
 * when a ledger directory is given (`--ledger-dir`, env LANGCHAIN_VCR_LEDGER_DIR): it holds them all.
 */
export function otherLedgerSources(args: ParsedArgs, io: Io): LedgerSource[] {
  if (typeof args.flags["ledger-dir"] === "string" || io.env[LEDGER_DIR_ENV]) return [];
  const here = cliRoot(io);
  const root = workspaceRootDir(here);
  if (!root) return [];
  const dirs = new Set([root, ...workspaceDirs(here)].map((pkg) => path.resolve(pkg))); // a workspace pattern "." lists the root again
  dirs.delete(path.resolve(here));
  return [...dirs].map((pkg) => ({ dir: defaultLedgerDir(pkg, {}), root: pkg })).filter((s) => isDirectory(s.dir));
}

/** The parts of the path of a ledger directory where a runner keeps it by default, below the directory it ran in. */
const DEFAULT_LEDGER_TAIL = path.join("node_modules", ".cache", "langchain-vcr", "ledgers");

/**
 * The directory the runs in `ledgerDir` ran in, which their ledgers' paths are relative to: the one
 * above its `node_modules` when it is a runner's default ledger directory (`--ledger-dir
 * packages/api/node_modules/.cache/langchain-vcr/ledgers` from a workspace's root: the package's),
 * else the project root of the working directory (ledgers copied from CI shards).
 */
export function ledgerRootOf(ledgerDir: string, io: Io): string {
  const resolved = path.resolve(ledgerDir);
  return resolved.endsWith(path.sep + DEFAULT_LEDGER_TAIL) ? resolved.slice(0, -DEFAULT_LEDGER_TAIL.length - 1) : cliRoot(io);
}

/** Another suite's run, as prune and diff name it: `node --test run <id> (started …; test files a, b, …)`. */
export function suiteName(v: RunVerdict): string {
  const files = v.specFiles.slice(0, 3).join(", ") + (v.specFiles.length > 3 ? `, … (${v.specFiles.length})` : "");
  return `${v.runner} run ${v.runId} (started ${v.startedAt}; test files ${files})`;
}

/** The ledger files of other suites, each suite's sorted: what a refusal or a note tells to delete when those suites are gone. */
export function suiteLedgers(suites: readonly OtherSuite[]): string[] {
  return suites.flatMap((s) => [...s.ledgers].sort());
}
