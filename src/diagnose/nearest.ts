/**
 * Finds the recorded fixture nearest to a request that missed. This scans the directory,
 * so it runs only on a miss (or a recording), never on the hot path. A file's request never
 * changes for a given name (the name is its hash), so each file is parsed once per index:
 * a later scan reads only the names it has not seen.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { VcrNearest } from "../errors";
import { FIXTURE_FILE_RE } from "../store/fixture";
import { diffValues } from "./diff";

interface Indexed {
  kind: unknown;
  hash: string;
  request: unknown;
}

export class NearestIndex {
  /** File name → its kind and request; null for a file that could not be parsed. */
  private readonly seen = new Map<string, Indexed | null>();

  constructor(private readonly dir: string) {}

  find(kind: string, request: unknown, skipHash?: string, maxEntries = Infinity): VcrNearest | undefined {
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return undefined;
    }
    if (names.length > maxEntries) return undefined;
    let best: VcrNearest | undefined;
    let bestScore = Infinity;
    for (const name of names) {
      if (!FIXTURE_FILE_RE.test(name) || name.startsWith(skipHash ?? "\0")) continue;
      const entry = this.entry(name);
      if (!entry || entry.kind !== kind) continue;
      const differences = diffValues(entry.request, request);
      const s = score(differences);
      if (s < bestScore) {
        bestScore = s;
        best = { hash: entry.hash, file: path.join(this.dir, name), differences };
      }
    }
    return best;
  }

  private entry(name: string): Indexed | null {
    let e = this.seen.get(name);
    if (e === undefined) {
      try {
        const f = JSON.parse(fs.readFileSync(path.join(this.dir, name), "utf8")) as { kind?: unknown; request?: unknown; hash?: unknown };
        e = { kind: f?.kind, hash: String(f?.hash ?? name.slice(0, 64)), request: f?.request };
      } catch {
        e = null; // damaged files are validate's business, not the nearest-match's (not cached: it may be fixed)
        return e;
      }
      this.seen.set(name, e);
    }
    return e;
  }
}

/** Fewer differing fields is nearer; a different model counts extra. */
function score(differences: readonly { path: string }[]): number {
  return differences.reduce((n, d) => n + (d.path === "model" ? 5 : 1), 0);
}
