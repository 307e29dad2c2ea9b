/**
 * What a jest test recorded, kept until jest says whether it passed. A setup file cannot see
 * a test's outcome (jest keeps it behind a private symbol); the reporter in the main process
 * can. So each test that wrote fixtures leaves an entry in its file's report — the files it
 * created and the bytes of the ones it overwrote — and the reporter undoes a failed test's.
 */
import { type Scope, testScope } from "../scope";
import { caughtNote } from "../runner/caughtMisses";

export interface JournalEntry {
  title: string;
  created: string[];
  /** file → previous bytes, base64 */
  overwritten: Record<string, string>;
  /** How many recordings the test wrote (a file written twice counts twice). */
  recorded?: number;
  /** Fixtures another test of the file had just recorded, running beside this one, that this one replayed (`test.concurrent`). */
  usedFromOthers?: string[];
  /** The notes for requests no fixture answered whose errors were caught, as the test passed or failed (`runner/caughtMisses.ts`). */
  caught?: { passed: string; failed: string; timedOut?: string };
}

export function journalEntry(scope: Scope): JournalEntry | undefined {
  const fromOthers = scope.usedFromOthers?.size ? { usedFromOthers: [...scope.usedFromOthers] } : {};
  const passed = caughtNote(scope, "passed");
  const caught = passed ? { passed, failed: caughtNote(scope, "failed")!, timedOut: caughtNote(scope, "timedOut")! } : undefined;
  if (scope.created.size === 0 && scope.overwritten.size === 0 && !fromOthers.usedFromOthers && !caught) return undefined;
  const overwritten: Record<string, string> = {};
  for (const [file, bytes] of scope.overwritten) overwritten[file] = bytes.toString("base64");
  return { title: scope.title ?? "", created: [...scope.created], overwritten, recorded: scope.tally.recorded, ...fromOthers, ...(caught ? { caught } : {}) };
}

/** The scope a journal entry describes, for `restoreFailedTest`. */
export function scopeOf(entry: JournalEntry): Scope {
  const scope = testScope(entry.title);
  for (const f of entry.created) scope.created.add(f);
  for (const [f, b64] of Object.entries(entry.overwritten)) scope.overwritten.set(f, Buffer.from(b64, "base64"));
  scope.tally.recorded = entry.recorded ?? 0;
  return scope;
}
