/**
 * The end of one test, the same in every runner: a failed test's recordings are undone, and a
 * test that ended while a live recording call was still in flight (a timeout, usually) is told
 * which call that was.
 */
import { emit, type Scope } from "../scope";
import { PREFIX } from "../errors";
import { restoreFailedTest } from "./cleanup";
import { settleShared, type Shared } from "./sharedRecordings";
import { log } from "../log";
import { appendNote, type PrintedError } from "../diagnose/appendNote";
import { caughtNote, failedOnMiss, timedOut } from "./caughtMisses";
import { toolsFromOthersNote } from "./toolsFromOthers";

export type { PrintedError };

/**
 * `error`: the test's error, where the runner hands it over (a note naming a live call in flight is
 * appended). `failed` undefined: the runner does not say here (jest: its reporter undoes a failed test's recordings).
 * `passed`: the runner says the test passed (a test that caught its misses is named: `caughtMisses.ts`).
 */
export function endTest(scope: Scope | undefined, failed: boolean | undefined, error?: PrintedError, { passed = false }: { passed?: boolean } = {}): void {
  if (!scope) return;
  scope.ended = true;
  if (failed !== undefined) scope.outcome = failed ? "failed" : "passed";
  const shared = settleShared(scope, failed);
  // prefixed here: the note is also appended to the test's error, where nothing adds it
  const liveNote = liveCallNote(scope);
  if (liveNote) {
    log.warn(liveNote + "\n");
    appendNote(error, liveNote);
  }
  // `passed`: the runner says the test passed (not an attempt a retry follows, not skipped from inside);
  // a test that failed on another error than a miss may have failed for what the code did without the answer
  const caught = passed
    ? caughtNote(scope, "passed")
    : failed && error && !failedOnMiss(error)
      ? caughtNote(scope, timedOut(error) ? "timedOut" : "failed")
      : undefined;
  if (caught && passed)
    log.note(caught + "\n"); // LANGCHAIN_VCR_QUIET silences it: a test may expect its miss
  else if (caught) {
    log.warn(caught + "\n");
    appendNote(error, caught);
  }
  const fromOthers = failed ? toolsFromOthersNote(scope) : undefined;
  if (fromOthers) {
    log.warn(fromOthers + "\n");
    appendNote(error, fromOthers);
  }
  if (failed) {
    keepShared(scope, shared);
    emitUndone(restoreFailedTest(scope), scope.retried === true);
  }
}

/** A failed test's recordings that other tests used stay (`sharedRecordings.ts`): out of its clean-up, still counted as recorded, and said. */
export function keepShared(scope: Scope, shared: readonly Shared[]): void {
  if (shared.length === 0) return;
  const failed = scope.retried ? "failed an attempt, which its runner's retry runs again" : "failed";
  const lines = [
    `${PREFIX}test "${scope.title ?? "(unknown test)"}" ${failed}, but ${shared.length} fixture(s) it recorded stay: tests beside it replayed them.`,
  ];
  for (const s of shared) {
    scope.created.delete(s.file);
    if (!scope.received?.has(s.file)) scope.tally.recorded = Math.max(0, scope.tally.recorded - 1); // a handed one was never its recording
    const who =
      s.passedWith !== undefined
        ? `kept: test "${s.passedWith}" passed with it`
        : `now ${s.handedTo.map((t) => `"${t.title ?? "(unknown test)"}"`).join(", ")}'s: still running, and undone if it fails`;
    lines.push(`  - ${s.file} (${who})`);
  }
  log.warn(lines.join("\n") + "\n");
}

/** Takes a failed test's recordings out of the run's "recorded" count (`retried`: a failed attempt's, which its runner runs again). */
function emitUndone(r: { undone: number }, retried: boolean): void {
  if (r.undone > 0) emit({ type: "undone", count: r.undone, ...(retried ? { retried } : {}) });
}

/** What a test left in flight: model, hash, expected file, and what to do about a provider that does not answer. */
export function liveCallNote(scope: Scope): string | undefined {
  if (scope.live.size === 0) return undefined;
  const lines = [`${PREFIX}test "${scope.title ?? "(unknown test)"}" ended while ${scope.live.size} live recording call(s) had not answered:`];
  for (const c of scope.live.values()) {
    lines.push(`  - ${c.kind} request from ${c.describe}`, `    hash:     ${c.hash}`, `    expected: ${c.file}`);
  }
  lines.push(
    scope.outcome === "passed"
      ? `  Nothing was recorded for it: the test passed before the call answered (a call not awaited, or a stream not read to its end), so it goes live again next run. Await it in the test.`
      : `  Nothing was recorded for it. The provider did not answer (or, for a stream, finish) within the test's timeout: check its URL and key (and an HTTP interceptor the test set up,` +
          ` msw or nock, that may be refusing it), and construct the model with maxRetries: 0 while recording (the client otherwise retries for minutes), or raise the test timeout.`,
  );
  scope.live.clear();
  return lines.join("\n");
}
