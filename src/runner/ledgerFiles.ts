/**
 * The usage ledger on disk: where ledgers live, what one holds, and how the ledgers of the
 * last run are merged into one verdict ("complete, and these fixtures were used" or "partial,
 * because ..."). Shared by the runner plugins (which write) and the CLI (which reads); this
 * module has no side effects.
 *
 * Layout: `<ledger dir>/<run id>/<main id>-<role>-<pid>.json`, one file per process. A run is
 * one runner invocation (mocha: its main process and its `--parallel` workers, each with a
 * ledger; vitest, jest, node:test: one ledger from the main process), or several CI
 * shards that share `LANGCHAIN_VCR_RUN_ID`. The default ledger dir is
 * `<root>/node_modules/.cache/langchain-vcr/ledgers`, the root being the package the run is in
 * (`ledgerRoot`): outside the fixture directory, ignored by git wherever node_modules is, and the
 * usual home of tool caches.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { addedSpecFiles, changedSpecFiles } from "./specDigests";
import { movedCheckout, type Checkout } from "./checkout";
import { runRootOf } from "./runRoot";
import { replaceFile } from "../replaceFile";
import { fromRecord, type UsedBy, type UsedByRecord } from "./usedBy";
import { log } from "../log";

/** Ledger directories this process could not write to, already said (once each, not at every write). */
const unwritableLedgerDirs = new Set<string>();

/** Says, once per directory and process, that a usage ledger could not be written there, and how to put it elsewhere. */
export function warnUnwritableLedger(ledgerDir: string, error: unknown): void {
  if (unwritableLedgerDirs.has(ledgerDir)) return;
  unwritableLedgerDirs.add(ledgerDir);
  log.warn(
    `could not write the usage ledger in ${ledgerDir}: ${(error as Error).message}; prune will not count this run.\n` +
      `  Fix: set ${LEDGER_DIR_ENV} to a writable directory (and give prune the same --ledger-dir).\n`,
  );
}

/** How the reason a run is partial because a shard's ledger is missing starts (prune then gives that fix alone). */
export const MISSING_SHARD = "no ledger from shard";

export const LEDGER_VERSION = 1;
/** Overrides where ledgers are written and read. */
export const LEDGER_DIR_ENV = "LANGCHAIN_VCR_LEDGER_DIR";
/** Shared by the CI shards of one run, so `prune` can merge them. */
export const RUN_ID_ENV = "LANGCHAIN_VCR_RUN_ID";
/** `<index>/<total>` (e.g. `2/3`): this run is one of `total` shards that together run the whole suite. */
export const SHARD_ENV = "LANGCHAIN_VCR_SHARD";
/** Ledger run directories kept; older ones are removed when a new run starts. */
export const KEEP_RUNS = 20;

export interface Shard {
  index: number;
  total: number;
}

/** One process's ledger file. Paths are relative to the run's root (`ledgerRoot`: the package it ran in), with `/`. */
export interface LedgerRecord {
  ledgerVersion: number;
  /** The runner that wrote it ("mocha" when absent: the first ledgers were mocha's). */
  runner?: string;
  runId: string;
  /** The main process of this group (mocha workers carry their main's id). */
  mainId: string;
  role: "main" | "worker";
  pid: number;
  /** When the main process started. */
  startedAt: string;
  writtenAt: string;
  /** Main process only: its exit code, once it exited. */
  exitCode?: number;
  shard?: Shard;
  /** Why this process's share of the run cannot be trusted by `prune`; empty when complete. */
  partial: string[];
  /** Spec files whose tests ran in this process. */
  specFiles: string[];
  /** Spec file → a digest of its bytes when the run ended (absent in ledgers of older versions): prune refuses once one differs. */
  specDigests?: Record<string, string>;
  /** The files named like the spec files beside them, when the run ended (absent in ledgers of older versions): one added since makes prune refuse. */
  specSiblings?: string[];
  /** Fixture files read or written in this process. */
  used: string[];
  /**
   * Fixture file → test file → the full titles of its tests that used the fixture (absent in
   * ledgers of older versions; in the first ones, fixture file → titles: `runner/usedBy.ts`).
   */
  usedBy?: UsedByRecord;
  /** Main process only: the git checkout the run ran on (absent outside git, and in ledgers of older versions). */
  checkout?: Checkout;
  /** Where the run's root (which the paths above are relative to) is in its git work tree, "" at its top (absent outside git, and in ledgers of older versions): `runRoot.ts`. */
  rootInRepo?: string;
}

/**
 * The ledger dir of a run rooted at `root`; `LANGCHAIN_VCR_LEDGER_DIR` (from `env`) instead, resolved against `root`, as the
 * CLI resolves it against the package it runs in (review 61 L3).
 */
export function defaultLedgerDir(root: string = process.cwd(), env: NodeJS.ProcessEnv = process.env): string {
  const fromEnv = env[LEDGER_DIR_ENV];
  if (fromEnv) return path.resolve(root, fromEnv);
  return path.join(root, "node_modules", ".cache", "langchain-vcr", "ledgers");
}

/**
 * Where a runner started in `cwd` roots its run: the ledger goes under it and the ledger's paths
 * are relative to it. The nearest directory at or above `cwd` that holds a package.json (the
 * package whose tests run, where the CLI looks from any directory below it: `projectRoot`), not
 * above the top of a git work tree; else `cwd`. A run started in `test/` once wrote
 * `test/node_modules/.cache`, and the CLI run there then looked for `test/cassettes` (user trial 50).
 */
export function ledgerRoot(cwd: string = process.cwd()): string {
  return packageRoot(cwd) ?? path.resolve(cwd);
}

/** The nearest directory at or above `cwd` that holds a package.json, not above the top of a git work tree; undefined when none. */
export function packageRoot(cwd: string): string | undefined {
  for (let d = path.resolve(cwd); ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, "package.json"))) return d;
    if (fs.existsSync(path.join(d, ".git")) || path.dirname(d) === d) return undefined;
  }
}

/** A run id usable as a directory name. */
export function safeRunId(runId: string): string {
  return runId.replace(/[^A-Za-z0-9._-]/g, "_").slice(0, 100) || "run";
}

export function parseShard(value: string | undefined): Shard | undefined {
  if (!value) return undefined;
  const m = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(value);
  if (!m) return undefined;
  const index = Number(m[1]);
  const total = Number(m[2]);
  return index >= 1 && index <= total ? { index, total } : undefined;
}

/** A path relative to `root`, with forward slashes (ledgers travel between machines). */
export function relativeToRoot(root: string, file: string): string {
  return path.relative(root, path.resolve(root, file)).split(path.sep).join("/");
}

/**
 * `relativeToRoot` for the many fixture files of a run, which sit in a few directories: each
 * directory is made relative once, and a file in it is that plus its name (a ledger of 1,000
 * fixtures otherwise pays 2,000 `path.relative`s). The same answer as `relativeToRoot` for
 * every path: the shortcut is taken only for an absolute file whose name is a plain segment in
 * a directory at or under the root; anything else is computed in full.
 */
export class RootRelative {
  private readonly dirs = new Map<string, string | undefined>();
  constructor(readonly root: string) {}

  of(file: string): string {
    const cut = file.lastIndexOf(path.sep);
    const name = file.slice(cut + 1);
    if (cut < 0 || name === "" || name === "." || name === ".." || name.includes("/")) return relativeToRoot(this.root, file);
    const dir = file.slice(0, cut);
    let rel = this.dirs.get(dir);
    if (rel === undefined && !this.dirs.has(dir)) {
      rel = this.dirShortcut(file, cut, dir);
      this.dirs.set(dir, rel);
    }
    if (rel === undefined) return relativeToRoot(this.root, file);
    return rel === "" ? name : `${rel}/${name}`;
  }

  /**
   * `dir` made relative once for all its files, or undefined where no shortcut holds. Read
   * from its first file: the root and absoluteness of a path are its prefix's, `dir` and the
   * separator at `cut`, the same for every file in `dir`.
   */
  private dirShortcut(file: string, cut: number, dir: string): string | undefined {
    // a file at a filesystem root ("/x.json", "C:\\x.json") or a relative one: no directory to make relative once
    if (cut < path.parse(file).root.length || !path.isAbsolute(file)) return undefined;
    const r = relativeToRoot(this.root, dir);
    // outside the root (or above it), `..` steps could cancel against the name: no shortcut
    return r === ".." || r.startsWith("../") || path.isAbsolute(r) ? undefined : r;
  }
}

/** Writes one ledger atomically (temp file, then rename). Returns its path. */
export function writeLedger(ledgerDir: string, record: LedgerRecord): string {
  const file = path.join(ledgerDir, safeRunId(record.runId), `${record.mainId}-${record.role}-${record.pid}.json`);
  replaceFile(file, JSON.stringify(record, null, 2) + "\n");
  return file;
}

/** Removes all but the `keep` most recently written run directories. */
export function removeOldRuns(ledgerDir: string, keep: number = KEEP_RUNS): void {
  let names: string[];
  try {
    names = fs.readdirSync(ledgerDir);
  } catch {
    return;
  }
  const runs = names
    .map((name) => {
      try {
        const st = fs.statSync(path.join(ledgerDir, name));
        return st.isDirectory() ? { name, mtime: st.mtimeMs } : undefined;
      } catch {
        return undefined;
      }
    })
    .filter((r): r is { name: string; mtime: number } => r !== undefined)
    .sort((a, b) => b.mtime - a.mtime);
  for (const old of runs.slice(keep)) fs.rmSync(path.join(ledgerDir, old.name), { recursive: true, force: true });
}

export interface LoadedLedger extends LedgerRecord {
  file: string;
}

/** Every ledger under `ledgerDir` (any depth: shards may be copied in as subfolders), and the files that are not ledgers. */
export function readLedgers(ledgerDir: string): { ledgers: LoadedLedger[]; unreadable: { file: string; problem: string }[] } {
  const ledgers: LoadedLedger[] = [];
  const unreadable: { file: string; problem: string }[] = [];
  const visit = (dir: string, depth: number): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      const file = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (depth < 4) visit(file, depth + 1);
      } else if (e.name.endsWith(".json")) {
        try {
          const value = JSON.parse(fs.readFileSync(file, "utf8")) as LedgerRecord;
          const problem = recordProblem(value);
          if (problem) unreadable.push({ file, problem });
          else ledgers.push({ ...value, file });
        } catch (err) {
          unreadable.push({ file, problem: `is not valid JSON (${(err as Error).message})` });
        }
      }
    }
  };
  visit(ledgerDir, 0);
  return { ledgers, unreadable };
}

function recordProblem(v: LedgerRecord): string | undefined {
  if (v === null || typeof v !== "object") return "is not a JSON object";
  if (v.ledgerVersion !== LEDGER_VERSION) return `has ledgerVersion ${JSON.stringify(v.ledgerVersion)} (expected ${LEDGER_VERSION})`;
  if (typeof v.runId !== "string" || typeof v.mainId !== "string" || (v.role !== "main" && v.role !== "worker")) return "is not a langchain-vcr ledger";
  if (typeof v.startedAt !== "string" || !Array.isArray(v.partial) || !Array.isArray(v.used) || !Array.isArray(v.specFiles)) {
    return "is missing fields";
  }
  return undefined;
}

/** The last run, merged: whether `prune` may trust it, and every fixture it used. */
export interface RunVerdict {
  runId: string;
  /** The runner that wrote the run's main ledger ("mocha", "vitest", "jest", "node --test"). */
  runner: string;
  /** The test files the run ran, relative to the root. */
  specFiles: string[];
  startedAt: string;
  complete: boolean;
  /** Why the run is partial (empty when complete). */
  reasons: string[];
  /** The only reasons are test files changed or added since the run: it was complete, and the tests on disk are others. */
  outdated: boolean;
  /** Fixture files used, absolute (resolved against `root`). */
  used: Set<string>;
  /** Absolute fixture file → test file (relative to the root, as in the ledger) → the full titles of its tests that used it. */
  usedBy: UsedBy;
  /** Test file (as `specFiles` names it) → a digest of its bytes when the run ended (ledgers of older versions: none). */
  specDigests: Map<string, string>;
  /** Ledger files the verdict was made from. */
  files: string[];
  processes: number;
  shards?: number;
}

/**
 * Merges the ledgers of the most recent run. Within one run id, each shard (or the single
 * unsharded invocation) counts once: when a shard ran twice (a CI retry), its latest attempt wins.
 */
export function lastRunVerdict(ledgerDir: string, root: string = process.cwd()): RunVerdict | undefined {
  const { ledgers, unreadable } = readLedgers(ledgerDir);
  const runs = runsNewestFirst(ledgers);
  return runs.length ? runVerdict(runs[0], unreadable, ledgerDir, root) : undefined;
}

/** The ledgers grouped by run, the most recent run first. */
export function runsNewestFirst(ledgers: LoadedLedger[]): LoadedLedger[][] {
  return [...groupBy(ledgers, (l) => l.runId).values()].sort((a, b) => compareTime(maxStart(b), maxStart(a)));
}

/** The verdict on one run (`latest`: all the ledgers of its run id). */
export function runVerdict(latest: LoadedLedger[], unreadable: { file: string; problem: string }[], ledgerDir: string, root: string): RunVerdict {
  const runId = latest[0].runId;

  // One group per main process; per shard key the latest group wins.
  const groups = [...groupBy(latest, (l) => l.mainId).values()];
  const chosen = new Map<string, LoadedLedger[]>();
  for (const g of groups) {
    const shard = g.find((l) => l.shard)?.shard;
    const key = shard ? `${shard.index}/${shard.total}` : "unsharded";
    const prev = chosen.get(key);
    if (!prev || compareTime(maxStart(g), maxStart(prev)) > 0) chosen.set(key, g);
  }

  const reasons: string[] = [];
  const add = (r: string) => {
    if (!reasons.includes(r)) reasons.push(r);
  };
  for (const bad of unreadable) {
    if (path.resolve(bad.file).startsWith(path.resolve(ledgerDir, safeRunId(runId)) + path.sep)) add(`the ledger ${bad.file} ${bad.problem}`);
  }
  const records = [...chosen.values()].flat();
  for (const [key, g] of chosen) {
    const main = g.find((l) => l.role === "main");
    const label = key === "unsharded" ? "the run" : `shard ${key}`;
    const runner = main?.runner ?? g.find((l) => l.runner)?.runner ?? "mocha";
    if (!main) add(`${label} left no record from its main ${runner} process: it was interrupted, is still running, or its ledger files were not all copied`);
    else if (main.exitCode === undefined) add(`${label} did not finish (${runner} is still running, or was killed)`);
    else if (main.exitCode !== 0) add(`${label} failed: ${runner} exited with code ${main.exitCode}`);
    for (const l of g) for (const r of l.partial) add(key === "unsharded" ? r : `${r} (shard ${key})`);
  }
  // the run's paths are relative to where it ran: a shared ledger directory may hold a run made in another package
  const base = runRootOf(records, root);
  const changed = changedSpecFiles(records, base);
  const added = addedSpecFiles(records, base);
  const list = (files: string[]) => `${files.slice(0, 3).join(", ")}${files.length > 3 ? ", …" : ""}`;
  const stale: string[] = []; // the reasons that say the tests on disk changed, not that the run was partial
  if (changed.length)
    stale.push(
      `${changed.length} test file(s) changed since the run (${list(changed)}): another branch, an edit or a pull; what the run used is no longer what the tests use`,
    );
  if (added.length)
    stale.push(`${added.length} test file(s) added since the run, beside its own (${list(added)}): another branch, a stash popped; the run never ran them`);
  const moved = movedCheckout(records, root);
  if (moved) stale.push(moved);
  stale.forEach(add);
  const shardTotals = new Set([...chosen.keys()].filter((k) => k !== "unsharded").map((k) => Number(k.split("/")[1])));
  let shards: number | undefined;
  if (shardTotals.size > 0) {
    if (chosen.has("unsharded")) add(`some processes of run ${runId} declared ${SHARD_ENV} and some did not`);
    if (shardTotals.size > 1) add(`the shards of run ${runId} disagree on the shard count (${[...shardTotals].join(" vs ")})`);
    shards = Math.max(...shardTotals);
    const present = new Set([...chosen.keys()].filter((k) => k !== "unsharded").map((k) => Number(k.split("/")[0])));
    const missing: string[] = [];
    for (let i = 1; i <= shards; i++) if (!present.has(i)) missing.push(`${i}/${shards}`);
    if (missing.length) {
      add(
        `${MISSING_SHARD} ${missing.join(", ")} of run ${runId}: give every shard of a run the same ${RUN_ID_ENV}, and copy every shard's ledger files into ${ledgerDir} before pruning`,
      );
    }
  }

  const used = new Set<string>();
  for (const l of records) for (const u of l.used) used.add(path.resolve(base, u));
  const usedBy: UsedBy = new Map();
  const spec = (f: string) => (base === root ? f : relativeToRoot(root, path.resolve(base, f))); // as the reader's root sees it
  for (const l of records) fromRecord(l.usedBy, (u) => path.resolve(base, u), spec, usedBy);
  const main = records.find((l) => l.role === "main") ?? records[0];
  return {
    runId,
    runner: main?.runner ?? "mocha",
    specFiles: [...new Set(records.flatMap((l) => l.specFiles).map(spec))].sort(),
    specDigests: new Map(records.flatMap((l) => Object.entries(l.specDigests ?? {})).map(([f, digest]) => [spec(f), digest] as const)),
    startedAt: records.map((l) => l.startedAt).sort()[0] ?? latest[0].startedAt,
    complete: reasons.length === 0,
    reasons,
    outdated: stale.length > 0 && reasons.every((r) => stale.includes(r)),
    used,
    usedBy,
    files: records.map((l) => l.file).sort(),
    processes: records.length,
    shards,
  };
}

function groupBy<T>(items: T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const i of items) {
    const k = key(i);
    const list = out.get(k);
    if (list) list.push(i);
    else out.set(k, [i]);
  }
  return out;
}

function maxStart(ls: LedgerRecord[]): string {
  return ls.reduce((m, l) => (compareTime(l.startedAt, m) > 0 ? l.startedAt : m), ls[0].startedAt);
}

function compareTime(a: string, b: string): number {
  return Date.parse(a) - Date.parse(b) || (a < b ? -1 : a > b ? 1 : 0);
}
