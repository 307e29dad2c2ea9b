/**
 * Per-example-file counts for one run of the examples, gathered by the examples' root hook
 * and written as JSON to `EXAMPLES_REPORT` (npm run demo reads them to print its table).
 *
 * Counts are attributed per test: everything that happened since the previous test ended
 * (the file's `before` hooks included) belongs to the test that just ended.
 * - `httpRequests`: requests the stand-in provider received (measured at the server);
 * - `replayed` / `recorded` / `bypassed` / `missed`: langchain-vcr lookups by outcome, from the
 *   library's own events (chat, stream, embedding and tool fixtures alike);
 * - `toolRuns`: tool bodies that ran (the shop's counter, examples/support/shop.ts);
 * - `ms`: wall time of the file's tests (the first file also carries the run's warm-up:
 *   LangChain's lazily loaded modules, the first connection).
 * `blockedConnections` is set when examples/support/noNetwork.cjs is preloaded.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { onScopeEvent } from "../../src/scope";

export interface FileCounts {
  file: string;
  passed: number;
  failed: number;
  pending: number;
  httpRequests: number;
  replayed: number;
  recorded: number;
  bypassed: number;
  missed: number;
  toolRuns: number;
  ms: number;
}

export interface RunReport {
  /** Outgoing connections refused by examples/support/noNetwork.cjs (absent when it is not loaded). */
  blockedConnections?: { count: number; targets: string[] };
  mode: string;
  provider: string;
  cassettes: string;
  standIn: boolean;
  files: FileCounts[];
}

type Outcome = "replayed" | "recorded" | "bypassed" | "missed";

interface Gauges {
  http: () => number;
  toolRuns: () => number;
}

export class ReportCollector {
  private readonly files = new Map<string, FileCounts>();
  private readonly outcomes: Record<Outcome, number> = { replayed: 0, recorded: 0, bypassed: 0, missed: 0 };
  private last: { at: number; http: number; toolRuns: number; outcomes: Record<Outcome, number> };
  private readonly unsubscribe: () => void;

  constructor(
    private readonly root: string,
    private readonly gauges: Gauges,
  ) {
    this.unsubscribe = onScopeEvent((e) => {
      if (e.type === "replayed" || e.type === "recorded" || e.type === "bypassed" || e.type === "missed") this.outcomes[e.type]++;
    });
    this.last = this.snapshot();
  }

  /** The tests are about to start (spec files are loaded): time and counts from here. */
  start(): void {
    this.last = this.snapshot();
  }

  /** Called after each test with its file and final state. */
  testEnded(file: string | undefined, state: string | undefined): void {
    const now = this.snapshot();
    const key = file ? path.relative(this.root, file).split(path.sep).join("/") : "(unknown file)";
    const c = this.files.get(key) ?? {
      file: key,
      passed: 0,
      failed: 0,
      pending: 0,
      httpRequests: 0,
      replayed: 0,
      recorded: 0,
      bypassed: 0,
      missed: 0,
      toolRuns: 0,
      ms: 0,
    };
    if (state === "passed") c.passed++;
    else if (state === "failed") c.failed++;
    else c.pending++;
    c.httpRequests += now.http - this.last.http;
    c.toolRuns += now.toolRuns - this.last.toolRuns;
    c.ms += now.at - this.last.at;
    for (const k of Object.keys(this.outcomes) as Outcome[]) c[k] += now.outcomes[k] - this.last.outcomes[k];
    this.files.set(key, c);
    this.last = now;
  }

  finish(meta: Omit<RunReport, "files" | "blockedConnections">): RunReport {
    this.unsubscribe();
    const blocked = (globalThis as Record<symbol, RunReport["blockedConnections"]>)[Symbol.for("langchain-vcr.examples.blockedConnections")];
    return { ...meta, blockedConnections: blocked && { ...blocked }, files: [...this.files.values()].map((c) => ({ ...c, ms: Math.round(c.ms * 10) / 10 })) };
  }

  private snapshot() {
    return { at: performance.now(), http: this.gauges.http(), toolRuns: this.gauges.toolRuns(), outcomes: { ...this.outcomes } };
  }
}

export function writeReport(file: string, report: RunReport): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
}
