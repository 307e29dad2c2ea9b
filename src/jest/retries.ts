/**
 * jest's retries: `jest.retryTimes(n)` runs a failed test again, and `jest.retryTimes(n,
 * { entireDescribe: true })` a describe block whose tests failed. What the failed attempt recorded
 * must be undone before it runs again, as vitest's `retry` does (its attempt is ended as failed):
 * kept, the retry replays the failure's recording (a model's bad first answer, an error of the code
 * under test) instead of asking again. jest's reporter, which undoes a failed test's recordings,
 * only learns how the test ended after its last attempt; a setup file is told nothing of attempts.
 *
 * jest-circus tells its event handlers, though: the list a custom environment's `handleTestEvent`
 * joins is on the test file's global, under `Symbol.for("EVENT_HANDLERS")` (jest 27–30), and a
 * handler added there sees each attempt's `test_done` (its errors: it failed), then `test_retry`
 * before the test runs again, or `describe_retry` before its block does. So the attempt the setup
 * file's `afterEach` ended (a concurrent test's: its scope) is kept at `test_done`, with whether it
 * failed, and handed to `retried` at `test_retry`. By default jest retries a failed test after the
 * other tests of its describe block: those run with the failed attempt's recording still there, as
 * they do beside a test that fails for good (jest's reporter undoes its recordings once the file has
 * run), and one that passed with it keeps it (`runner/sharedRecordings.ts`).
 */
import type { Scope } from "../scope";

/** One attempt of a test: its scope, and what its journal holds of it (a sequential test's, when it recorded anything). */
export interface Attempt<Entry> {
  scope: Scope;
  entry?: Entry;
}

/** The parts of jest-circus's test and describe block objects read here. */
interface CircusTest {
  type?: string;
  concurrent?: boolean;
  errors?: unknown[];
}
interface CircusDescribe {
  type?: string;
  children?: (CircusTest | CircusDescribe)[];
}
interface CircusEvent {
  name?: string;
  test?: CircusTest;
  describeBlock?: CircusDescribe;
}

const EVENT_HANDLERS = Symbol.for("EVENT_HANDLERS");

/**
 * Adds `handler` to jest-circus's event handlers of this test file; false where there is no such
 * list (jest-jasmine2, a jest that keeps it elsewhere): retried attempts are then not undone.
 */
export function onCircusEvent(handler: (event: CircusEvent) => void): boolean {
  const handlers = (globalThis as Record<symbol, unknown>)[EVENT_HANDLERS];
  if (!Array.isArray(handlers)) return false;
  handlers.push(handler);
  return true;
}

export class JestAttempts<Entry> {
  /** The sequential test's attempt the setup file's `afterEach` just ended. */
  private justEnded: Attempt<Entry> | undefined;
  /** A test whose last attempt failed → that attempt, until jest retries it. */
  private readonly failed = new WeakMap<object, Attempt<Entry>>();

  /**
   * `concurrentScope`: the scope of a `test.concurrent` test's current attempt (it has no `afterEach`);
   * `retried`: a failed attempt jest is about to run again.
   */
  constructor(
    private readonly concurrentScope: (test: object) => Scope | undefined,
    private readonly retried: (attempt: Attempt<Entry>) => void,
  ) {}

  /** The setup file's `afterEach` ended a sequential test's attempt (`entry`: its journal entry, if it recorded anything). */
  ended(scope: Scope, entry: Entry | undefined): void {
    this.justEnded = { scope, entry };
  }

  readonly handle = (event: CircusEvent): void => {
    const test = event.test;
    if (event.name === "test_start" && test && !test.concurrent) this.justEnded = undefined;
    else if (event.name === "test_done" && test) this.done(test);
    else if (event.name === "test_retry" && test) this.retry(test);
    else if (event.name === "describe_retry" && event.describeBlock) for (const t of testsUnder(event.describeBlock)) this.retry(t);
  };

  private done(test: CircusTest): void {
    let attempt: Attempt<Entry> | undefined;
    if (test.concurrent) {
      const scope = this.concurrentScope(test);
      attempt = scope && { scope };
    } else {
      attempt = this.justEnded;
      this.justEnded = undefined;
    }
    if (!attempt) return;
    const failed = (test.errors?.length ?? 0) > 0;
    // how it ended, for a recording of a failed attempt that this test replayed (`settleShared`)
    attempt.scope.outcome = failed ? "failed" : "passed";
    if (failed) this.failed.set(test, attempt);
    else this.failed.delete(test);
  }

  private retry(test: CircusTest): void {
    const attempt = this.failed.get(test);
    if (!attempt) return;
    this.failed.delete(test);
    this.retried(attempt);
  }
}

/** The tests of a describe block, nested blocks' included. */
function testsUnder(block: CircusDescribe): CircusTest[] {
  const out: CircusTest[] = [];
  for (const child of block.children ?? []) {
    if (child.type === "describeBlock") out.push(...testsUnder(child as CircusDescribe));
    else if (child.type === "test") out.push(child as CircusTest);
  }
  return out;
}
