/**
 * What one test process did with fixtures: the summary counts, the fixture directories, the
 * fixture files used and the tests that used each (for the ledger: prune, `show`'s "used by"), and
 * the modes in force. Listening starts with `start()`,
 * never on import.
 */
import * as path from "node:path";
import { stableTitle } from "../diagnose/runIdTitle";
import { currentTest, onScopeEvent, vcrsCreated } from "../scope";
import { emptyTotals, type Totals } from "./summary";
import { addCauseCounts, addCauses, addMiss, requestKey, type MissCauses, type MissCausesRecord } from "./missCauses";
import { addMissedTests, type MissedTests } from "./missedTests";
import { addUse, addUses, fromRecord, toRecord, type UsedBy, type UsedByRecord } from "./usedBy";

export class Usage {
  totals: Totals = emptyTotals();
  readonly dirs = new Set<string>();
  readonly used = new Set<string>();
  /** Fixture file → test file → the titles of its tests that used the fixture. */
  readonly usedBy: UsedBy = new Map();
  readonly modes = new Set<string>();
  /** Each miss's first difference from its nearest fixture → the misses and distinct requests that had it (the summary rolls up those shared). */
  readonly missCauses: MissCauses = new Map();
  /** The tests whose misses a recording fixes (the summary's one command that records them all). */
  readonly missedTests: MissedTests = new Map();
  private off: (() => void) | undefined;
  /** Misses counted whose event named no request hash. */
  private unhashed = 0;

  /** `specFile`: the test file of a test whose scope names none (a test process that runs one file at a time: `Unit`). */
  constructor(private readonly specFile = "") {}

  /** `changed`: called after each event it counts. */
  start(changed?: () => void): this {
    this.off ??= onScopeEvent((e) => {
      if (e.type === "used") {
        this.dirs.add(path.dirname(e.file));
        this.used.add(e.file);
        const test = currentTest();
        // LangSmith's ls.test ids are new every run
        if (test?.title !== undefined) addUse(this.usedBy, e.file, test.specFile ?? this.specFile, stableTitle(test.title));
      } else if (e.type === "undone") {
        this.totals.undone += e.count;
        if (e.retried) this.totals.undoneRetried += e.count;
      } else if (e.type === "damaged") {
        this.totals.damaged++;
        if (e.replayed) this.totals.replayed = Math.max(0, this.totals.replayed - 1);
      } else {
        this.totals[e.type]++;
        if (e.type === "bypassed" && e.ownCache) this.totals.bypassedOwnCache++;
        if (e.type === "bypassed" && e.kind === "tool") this.totals.bypassedTools++;
        if (e.mode) this.modes.add(e.mode);
        if (e.type === "missed" && e.cause !== undefined) addMiss(this.missCauses, e.cause, this.missedRequest(e.hash));
        if (e.type === "missed" && e.dir !== undefined) this.dirs.add(e.dir); // looked in, though nothing there was used
        if (e.type === "missed" && e.test !== undefined) addMissedTests(this.missedTests, [e.test]);
      }
      changed?.();
    });
    return this;
  }

  /**
   * Before a report of this process's use is written: whether the process has built a Vcr (by then, or in a setup file
   * loaded before or after the plugin's), for the summary's note when no test process did (runner/noVcr.ts).
   */
  noteVcrs(): void {
    this.totals.vcrs = Math.max(this.totals.vcrs, vcrsCreated());
  }

  /** The request a miss was, as the roll-up counts it: its hash in the test that made it (a retry's attempts are one). */
  private missedRequest(hash: string | undefined): string {
    if (hash === undefined) return `${process.pid}:${++this.unhashed}`; // an emitter that names no request: each miss its own
    const test = currentTest();
    return requestKey(test?.specFile ?? this.specFile, test?.title ?? "", hash);
  }

  stop(): void {
    this.off?.();
    this.off = undefined;
  }

  /** Adds another process's usage to this one. */
  add(other: {
    totals: Totals;
    dirs: Iterable<string>;
    used?: Iterable<string>;
    usedBy?: UsedByRecord | UsedBy;
    modes?: Iterable<string>;
    missCauses?: MissCauses | MissCausesRecord;
    missedTests?: Iterable<unknown>;
  }): void {
    for (const k of Object.keys(this.totals) as (keyof Totals)[]) this.totals[k] += Number(other.totals[k]) || 0;
    const causes = other.missCauses; // another process's JSON: anything
    if (causes instanceof Map) addCauseCounts(this.missCauses, causes);
    else if (typeof causes === "object" && causes !== null) addCauses(this.missCauses, Object.entries(causes));
    if (other.missedTests instanceof Map) addMissedTests(this.missedTests, other.missedTests.values());
    else if (Array.isArray(other.missedTests)) addMissedTests(this.missedTests, other.missedTests); // another process's JSON: anything
    for (const d of other.dirs) this.dirs.add(d);
    for (const u of other.used ?? []) this.used.add(u);
    for (const m of other.modes ?? []) this.modes.add(m);
    if (other.usedBy instanceof Map) addUses(this.usedBy, other.usedBy);
    else fromRecord(other.usedBy, undefined, undefined, this.usedBy);
  }

  /** `usedBy` as JSON, sorted; `path` maps the fixture and test file paths (relative to the root). */
  usedByRecord(path?: (file: string) => string): UsedByRecord {
    return toRecord(this.usedBy, path, path);
  }
}
