/**
 * What one test process did with fixtures: the summary counts, the fixture directories, the
 * fixture files used (for the ledger) and the modes in force. Listening starts with `start()`,
 * never on import.
 */
import * as path from "node:path";
import { onScopeEvent } from "../scope";
import { emptyTotals, type Totals } from "./summary";

export class Usage {
  totals: Totals = emptyTotals();
  readonly dirs = new Set<string>();
  readonly used = new Set<string>();
  readonly modes = new Set<string>();
  private off: (() => void) | undefined;

  start(): this {
    this.off ??= onScopeEvent((e) => {
      if (e.type === "used") {
        this.dirs.add(path.dirname(e.file));
        this.used.add(e.file);
      } else {
        this.totals[e.type]++;
        if (e.mode) this.modes.add(e.mode);
      }
    });
    return this;
  }

  stop(): void {
    this.off?.();
    this.off = undefined;
  }

  /** Adds another process's usage to this one. */
  add(other: { totals: Totals; dirs: Iterable<string>; used?: Iterable<string>; modes?: Iterable<string> }): void {
    for (const k of Object.keys(this.totals) as (keyof Totals)[]) this.totals[k] += Number(other.totals[k]) || 0;
    for (const d of other.dirs) this.dirs.add(d);
    for (const u of other.used ?? []) this.used.add(u);
    for (const m of other.modes ?? []) this.modes.add(m);
  }
}
