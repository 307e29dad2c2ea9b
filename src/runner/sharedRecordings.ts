/**
 * Recordings that tests running at the same time share. Test A records a fixture; test B, running
 * beside it (`test.concurrent`, node:test `concurrency`), asks the same thing and replays it (or
 * waited on A's live call). If A then fails, deleting the fixture would leave B, which passed
 * with it, missing in the next `replay_only` run. So a failed test's recording stays when
 * another test replayed it: kept for good when that test passed, else handed over to the tests
 * still running, whose own failure undoes it.
 *
 * Only fixtures created by a test that has not ended are tracked, so a replay pays one lookup
 * in an empty map outside recording.
 */
import { processWide } from "../processWide";
import type { Scope } from "../scope";

/** Fixture file a running test created → the other tests that used it since. */
const sharers = processWide<Map<string, Set<Scope>>>("sharedRecordings.v1", () => new Map());

/** A running test created `file`. */
export function createdIn(file: string): void {
  if (!sharers.has(file)) sharers.set(file, new Set());
}

/** The running test (`testNow`, asked only while a recording is tracked) replayed `file`, found it written by another first, or wrote it again (`record_always`). */
export function usedIn(file: string, testNow: () => Scope | undefined): void {
  if (sharers.size === 0) return;
  const users = sharers.get(file);
  const scope = users && testNow();
  if (!scope || scope.created.has(file)) return;
  users!.add(scope);
  (scope.usedFromOthers ??= new Set()).add(file);
}

/** What became of a failed test's recording that another test used: kept (that test passed) or handed to the tests still running. */
export interface Shared {
  file: string;
  /** The title of a test that used it and passed. */
  passedWith?: string;
  /** The tests still running that used it: the recording is now theirs. */
  handedTo: Scope[];
}

/**
 * `scope` ended (`failed`; its `outcome` set): every recording it created stops being tracked,
 * and the ones another test used are returned with what became of them: they are no longer the
 * failed test's to undo. A test that passed keeps for good a recording handed to it, and to others.
 * `failed` undefined: the runner does not say here (jest's reporter settles from the tests' reports).
 */
export function settleShared(scope: Scope, failed: boolean | undefined): Shared[] {
  // jest's reporter undoes a failed test's recordings once the whole file has run: a test after it
  // that replays one must still be seen (its journal's usedFromOthers), until `forgetShared`
  if (failed === undefined) return [];
  const out: Shared[] = [];
  for (const file of scope.created) {
    const users = [...(sharers.get(file) ?? [])].filter((u) => u !== scope);
    sharers.delete(file);
    if (users.length === 0) continue;
    const running = users.filter((u) => !u.ended);
    if (!failed) {
      for (const u of running) u.created.delete(file); // handed to them too: a test passed with it, nobody undoes it
      continue;
    }
    const passed = users.find((u) => u.ended && u.outcome === "passed");
    if (!passed && running.length === 0) continue;
    if (!passed) {
      for (const u of running) {
        // now theirs to undo: deleted if they fail, never put back to the failed test's bytes they overwrote
        u.overwritten.delete(file);
        u.created.add(file);
        (u.received ??= new Set()).add(file);
      }
      sharers.set(file, new Set(running));
    }
    out.push({ file, passedWith: passed?.title, handedTo: passed ? [] : running });
  }
  return out;
}

/** A test file's tests are all over (jest): its recordings stop being tracked. */
export function forgetShared(): void {
  sharers.clear();
}
