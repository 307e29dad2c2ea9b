/**
 * What one test process did with fixtures: the summary counts, the fixture directories, the
 * fixture files used and the tests that used each (for the ledger: prune, `show`'s "used by"), and
 * the modes in force. Listening starts with `start()`,
 * never on import.
 */
import * as path from "node:path";
import { stableTitle } from "../diagnose/runIdTitle";
import { currentTest, onScopeEvent } from "../scope";
import { emptyTotals, type Totals } from "./summary";

export class Usage {
  totals: Totals = emptyTotals();
  readonly dirs = new Set<string>();
  readonly used = new Set<string>();
  /** Fixture file → the titles of the tests that used it. */
  readonly usedBy = new Map<string, Set<string>>();
  readonly modes = new Set<string>();
  private off: (() => void) | undefined;

  /** `changed`: called after each event it counts. */
  start(changed?: () => void): this {
    this.off ??= onScopeEvent((e) => {
      if (e.type === "used") {
        this.dirs.add(path.dirname(e.file));
        this.used.add(e.file);
        const title = currentTest()?.title;
        if (title !== undefined) this.titlesOf(e.file).add(stableTitle(title)); // LangSmith's ls.test ids are new every run
      } else if (e.type === "undone") {
        this.totals.undone += e.count;
      } else if (e.type === "damaged") {
        this.totals.damaged++;
        if (e.replayed) this.totals.replayed = Math.max(0, this.totals.replayed - 1);
      } else {
        this.totals[e.type]++;
        if (e.mode) this.modes.add(e.mode);
      }
      changed?.();
    });
    return this;
  }

  stop(): void {
    this.off?.();
    this.off = undefined;
  }

  /** Adds another process's usage to this one. */
  add(other: { totals: Totals; dirs: Iterable<string>; used?: Iterable<string>; usedBy?: Record<string, string[]>; modes?: Iterable<string> }): void {
    for (const k of Object.keys(this.totals) as (keyof Totals)[]) this.totals[k] += Number(other.totals[k]) || 0;
    for (const d of other.dirs) this.dirs.add(d);
    for (const u of other.used ?? []) this.used.add(u);
    for (const m of other.modes ?? []) this.modes.add(m);
    for (const [file, titles] of Object.entries(other.usedBy ?? {})) this.useBy(file, titles);
  }

  /** `usedBy` as JSON: file → sorted titles, keyed relative to `root` when given. */
  usedByRecord(rel: (file: string) => string = (f) => f): Record<string, string[]> {
    return Object.fromEntries([...this.usedBy].map(([f, t]) => [rel(f), [...t].sort()] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1)));
  }

  private useBy(file: string, titles: Iterable<string>): void {
    const set = this.titlesOf(file);
    for (const t of titles) set.add(t);
  }

  private titlesOf(file: string): Set<string> {
    let set = this.usedBy.get(file);
    if (!set) this.usedBy.set(file, (set = new Set<string>()));
    return set;
  }
}
