/**
 * Finds the recorded fixture nearest to a request that missed. This scans the directory,
 * so it runs only on a miss, never on the hot path.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { VcrNearest } from "../errors";
import { FIXTURE_FILE_RE } from "../store/fixture";
import { diffValues } from "./diff";

export function findNearest(dir: string, kind: string, request: unknown, skipHash?: string, maxEntries = Infinity): VcrNearest | undefined {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  if (names.length > maxEntries) return undefined;
  let best: VcrNearest | undefined;
  for (const name of names) {
    if (!FIXTURE_FILE_RE.test(name) || name.startsWith(skipHash ?? "\0")) continue;
    const file = path.join(dir, name);
    let fixture: { kind?: unknown; request?: unknown; hash?: unknown };
    try {
      fixture = JSON.parse(fs.readFileSync(file, "utf8"));
    } catch {
      continue; // damaged files are validate's business, not the nearest-match's
    }
    if (fixture?.kind !== kind) continue;
    const differences = diffValues(fixture.request, request);
    if (!best || score(differences) < score(best.differences)) {
      best = { hash: String(fixture.hash ?? name.slice(0, 64)), file, differences };
    }
  }
  return best;
}

/** Fewer differing fields is nearer; a different model counts extra. */
function score(differences: readonly { path: string }[]): number {
  return differences.reduce((n, d) => n + (d.path === "model" ? 5 : 1), 0);
}
