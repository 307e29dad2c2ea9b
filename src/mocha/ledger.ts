/**
 * The usage ledger of a mocha run: which fixture files each process used (replayed or
 * recorded), which spec files ran, and whether anything makes the run partial (`--grep`,
 * `.only`, spec files named on the command line, tests that did not run, a failed test, a
 * non-zero exit). `langchain-vcr prune` trusts only a complete run. Format and location:
 * ./ledgerFiles.ts.
 *
 * `startMochaRun()` (the plugin calls it when mocha loads it) starts the run in the main mocha
 * process: it exports the run context to the environment (so `--parallel` workers, forked
 * later, join the same run), removes old run directories, and writes the main process's
 * ledger twice: at once, without an exit code (a run killed before it exits stays on record
 * as unfinished), and on exit, with everything. Each worker writes its own ledger after every
 * spec file it runs. Importing this module does nothing.
 */
import {
  LEDGER_VERSION,
  RootRelative,
  defaultLedgerDir,
  ledgerRoot,
  removeOldRuns,
  warnUnwritableLedger,
  writeLedger,
  type LedgerRecord,
} from "../runner/ledgerFiles";
import { configuredFiles } from "./configSpec";
import { specFacts } from "../runner/specDigests";
import { checkoutOf, type Checkout } from "../runner/checkout";
import { rootInRepo } from "../runner/runRoot";
import { CONTEXT_ENV, resolveRunContext, serializeContext, type RunContext } from "./runContext";
import { addUse, addUses, toRecord, type UsedBy } from "../runner/usedBy";
import { processWide } from "../processWide";

/** The parts of mocha's Suite and Test the ledger reads (public fields of mocha 10–12). */
interface TestLike {
  state?: string;
  file?: string;
  pending?: boolean;
  isPending?(): boolean;
  fullTitle?(): string;
}
interface SuiteLike {
  file?: string;
  suites?: SuiteLike[];
  tests?: TestLike[];
  hasOnly?(): boolean;
}
/** `this` in a root hook: `this.test` is the hook, whose parent is the root suite. */
export interface HookContextLike {
  test?: { parent?: unknown };
  /** mocha's: this hook's timeout, or (with `ms`) sets it. */
  timeout?(ms?: number): unknown;
}

interface ProcessState {
  run: RunContext;
  root: string;
  ledgerDir: string;
  current?: RunLedger;
}

/** Why a run mocha never finished is partial (`RunLedger.runFollowed`). */
export const INTERRUPTED_REASON =
  "the run was stopped before mocha finished it (Ctrl-C or a signal; mocha --parallel exits 0 then): tests that were running or queued never finished";

/** Starts (once per process) this process's share of the mocha run. */
export function startMochaRun(): void {
  processState();
}

function processState(): ProcessState {
  // one run per process, shared by every copy of this module (ESM and CommonJS builds)
  return processWide("ledger.v1", startProcess);
}

function startProcess(): ProcessState {
  const facts = { env: process.env, argv: process.argv, pid: process.pid, ppid: process.ppid, now: new Date() };
  const run = resolveRunContext({ ...facts, config: () => configuredFiles(process.argv) });
  const root = ledgerRoot();
  const s: ProcessState = { run, root, ledgerDir: defaultLedgerDir(root) };
  if (run.role === "main") {
    process.env[CONTEXT_ENV] = serializeContext(run);
    try {
      removeOldRuns(s.ledgerDir);
    } catch {
      // best effort: an old run directory we cannot remove does no harm
    }
    // on record from the start, without an exit code: a run killed before it exits makes prune
    // refuse ("did not finish") instead of trusting the run before it, which never saw what
    // this one recorded. The exit rewrites it with everything (the only other write here).
    const ledger = (s.current = new RunLedger(s));
    ledger.write();
    recordExitCode((code) => ledger.finish(code));
  }
  return s;
}

/**
 * Calls `write` once, at exit, with the process's real exit code. mocha (without `--exit`)
 * sets `process.exitCode` in an "exit" listener it adds when the run ends — after ours, added
 * at load. So once the event loop drains ("beforeExit", after mocha's listener exists) a
 * second listener is added behind mocha's; the first one only writes when the process exits
 * without draining (`process.exit()`, as `mocha --exit` does, passing the code directly).
 */
function recordExitCode(write: (code: number) => void): void {
  let deferred = false;
  const codeNow = (code: number) => {
    const set = Number(process.exitCode ?? 0);
    return Number.isFinite(set) && set !== 0 ? set : code;
  };
  process.once("beforeExit", () => {
    deferred = true;
    process.on("exit", (code) => write(codeNow(code)));
  });
  process.on("exit", (code) => {
    if (!deferred) write(codeNow(code));
  });
}

/** Whether this process is mocha's main process or a `--parallel` worker, and the run's main id. */
export function runRole(): { role: "main" | "worker"; mainId: string } {
  const state = processState();
  return { role: state.run.role, mainId: state.run.mainId };
}

/** The sorted lists a ledger holds, as of the last change. */
type Lists = Pick<LedgerRecord, "specFiles" | "used" | "usedBy">;

export class RunLedger {
  private readonly used = new Set<string>();
  private readonly usedBy: UsedBy = new Map();
  private readonly specFiles = new Set<string>();
  private readonly reasons: string[] = [];
  private failures: string[] = [];
  private exitCode: number | undefined;
  private awaitingEnd = false;
  private readonly rel: RootRelative;
  /** The lists sorted for the last write, until `used`, `usedBy` or `specFiles` change (the exit rewrite reuses them). */
  private lists: Lists | undefined;

  constructor(private readonly s: ProcessState) {
    this.rel = new RootRelative(s.root);
  }

  /** The ledger of this process (one per process, however often the plugin's hooks run). */
  static start(): RunLedger {
    const state = processState();
    return (state.current ??= new RunLedger(state));
  }

  /** A fixture file this process replayed or recorded, and the test that did, in its test file (for `show`'s "used by"). */
  use(file: string, test?: string, specFile = ""): void {
    const usedBy: UsedBy = new Map();
    if (test !== undefined) addUse(usedBy, file, specFile, test);
    this.useAll([file], usedBy);
  }

  /** `use` for many: the files used, and (for `show`'s "used by") the tests that used each. */
  useAll(files: Iterable<string>, usedBy?: UsedBy): void {
    for (const file of files) if (!usedBy?.has(file)) this.used.add(this.rel.of(file)); // a file in usedBy is added below
    const rel = (f: string) => this.rel.of(f);
    for (const file of usedBy?.keys() ?? []) this.used.add(rel(file));
    if (usedBy) addUses(this.usedBy, usedBy, rel, rel);
    this.lists = undefined;
  }

  /** Something this process learns while it runs makes the run partial. */
  partialBecause(reason: string): void {
    this.reason(reason);
  }

  /** A test failed: the run is partial (`title` names it in the reason). */
  markFailed(title?: string): void {
    this.failures.push(title ?? "");
  }

  /**
   * The tests are over (`flush(this)` in a root `afterAll`): reads the root suite (which spec
   * files ran, tests that never ran: `--grep`, `--bail`, a failing hook; `.only`), and writes a
   * worker's ledger. The main process's is written at its start and at its exit, which comes
   * next: a write here would be overwritten unread.
   */
  flush(context?: HookContextLike): void {
    const rootSuite = context?.test?.parent as SuiteLike | undefined;
    if (rootSuite && typeof rootSuite === "object") this.inspect(rootSuite);
    if (this.s.run.role !== "main") this.write();
  }

  /**
   * The run's start and end as mocha's runner reports them to the main process (`mochaGlobalSetup`
   * follows its "end" event). A run stopped by Ctrl-C or a signal never ends, and under
   * `--parallel` mocha then exits 0 (it drops the run once its workers are terminated), so an exit
   * after the start and without the end is an interrupted run.
   */
  runFollowed(stage: "begun" | "ended"): void {
    this.awaitingEnd = stage === "begun";
  }

  /** The main process exits: record its exit code. */
  finish(code: number): void {
    this.exitCode = code;
    if (this.awaitingEnd) this.reason(INTERRUPTED_REASON);
    this.write();
  }

  /** What this process's ledger says now. */
  record(): LedgerRecord {
    const { run } = this.s;
    const partial = run.role === "main" ? [...run.argvReasons] : [];
    for (const r of this.reasons) if (!partial.includes(r)) partial.push(r); // --dry-run is read from argv and from mocha's runner
    if (this.failures.length) {
      const named = this.failures.find((t) => t !== "");
      partial.push(`${this.failures.length} test(s) failed${named ? ` (first: ${JSON.stringify(named)})` : ""}`);
    }
    return {
      ledgerVersion: LEDGER_VERSION,
      runId: run.runId,
      mainId: run.mainId,
      role: run.role,
      pid: process.pid,
      startedAt: run.startedAt,
      writtenAt: new Date().toISOString(),
      exitCode: run.role === "main" ? this.exitCode : undefined,
      shard: run.shard,
      partial,
      ...copyLists((this.lists ??= this.sortedLists())),
      ...specFacts(this.s.root, this.lists.specFiles),
      ...(run.role === "main" ? checkoutFacts(this.s.root) : {}), // a few small files of git's, read at each write: a watch run may be on another branch by now
      ...rootInRepo(this.s.root),
    };
  }

  private sortedLists(): Lists {
    return { specFiles: [...this.specFiles].sort(), used: [...this.used].sort(), usedBy: toRecord(this.usedBy) };
  }

  /** Writes this process's ledger as it stands. */
  write(): void {
    try {
      writeLedger(this.s.ledgerDir, this.record());
    } catch (e) {
      warnUnwritableLedger(this.s.ledgerDir, e);
    }
  }

  private inspect(rootSuite: SuiteLike): void {
    let total = 0;
    const notRun: string[] = [];
    const visit = (suite: SuiteLike): void => {
      for (const t of suite.tests ?? []) {
        if (t.file) this.specFiles.add(this.rel.of(t.file));
        if (t.state === "pending" || t.pending || t.isPending?.()) continue;
        total++;
        if (t.state !== "passed" && t.state !== "failed") notRun.push(t.fullTitle?.() ?? "(untitled)");
      }
      for (const child of suite.suites ?? []) visit(child);
    };
    visit(rootSuite);
    this.lists = undefined;
    if (notRun.length) {
      this.reason(
        `${notRun.length} of ${total} test(s) did not run (filtered by --grep/--fgrep, skipped after --bail, or blocked by a failing hook), ` +
          `e.g. ${JSON.stringify(notRun[0])}`,
      );
    }
    if (typeof rootSuite.hasOnly === "function" && rootSuite.hasOnly()) {
      const files = (rootSuite.suites ?? []).filter((s) => s.hasOnly?.()).map((s) => (s.file ? this.rel.of(s.file) : undefined));
      const where = files.filter((f): f is string => !!f);
      this.reason(`.only selected exclusive tests${where.length ? ` in ${[...new Set(where)].join(", ")}` : ""}`);
    }
  }

  private reason(r: string): void {
    if (!this.reasons.includes(r)) this.reasons.push(r);
  }
}

/** The kept lists, copied: what `record()` hands out must not change what a later write holds. */
function copyLists(lists: Lists): Lists {
  return { specFiles: [...lists.specFiles], used: [...lists.used], usedBy: structuredClone(lists.usedBy) };
}

/** The main process's checkout, when it is in a git work tree. */
function checkoutFacts(root: string): { checkout?: Checkout } {
  const checkout = checkoutOf(root);
  return checkout ? { checkout } : {};
}
