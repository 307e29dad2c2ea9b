/**
 * A test that passed although a request of it had no fixture: the error it threw (a
 * `VcrMissError`, or the provider's error when a miss went live to be recorded and failed) was
 * caught — by `withFallbacks`, a retry, a try/catch of the app, an agent's error handling, or the
 * test itself. The code then went on without the answer it gets live, and nothing else says so
 * but a count in the summary: each runner plugin prints this note when such a test passes, or
 * fails on another error than the miss (its assertion on what the code did without the answer).
 */

/** What a miss's error says (a VcrMissError, or a provider's error a failed-live note was joined to): a test that failed on it needs no note. */
const MISS_TEXT = "no recorded fixture";

/**
 * How each runner says a test ran out of time, in its own words and case: jest, vitest, mocha, node:test (not an HTTP
 * client's "timeout of 5000ms exceeded", which a test can fail on too).
 */
const TIMED_OUT = /Exceeded timeout of \d+ ms for a test|Test timed out in \d+ms|Timeout of \d+ms exceeded\. For async tests|test timed out after \d+ms/;

/** Whether a failed test's error says it ran out of time (then an unanswered request's error may never have reached it). */
export function timedOut(error: { message?: unknown } | undefined): boolean {
  return TIMED_OUT.test(String(error?.message ?? ""));
}

/** Whether a test's error is (or carries the note of) a miss: the miss failed it, and says so itself. */
export function failedOnMiss(error: { message?: unknown } | undefined): boolean {
  const message = String(error?.message ?? "");
  return message.includes(MISS_TEXT) || message.includes(NOT_MADE_TEXT);
}
import { NOT_MADE_TEXT, PREFIX } from "../errors";
import { currentRunner, type Scope } from "../scope";
import { rerecordCommand } from "../diagnose/rerecordCommand";
import { processWide } from "../processWide";

/** A request of the test that got no answer from a fixture: how it ended. */
export interface Unanswered {
  kind: string;
  describe: string;
  file: string;
  mode: string;
  /** `stopped`: not made, since its fixture is in the package's own directory (diagnose/recordingElsewhere.ts). */
  how: "missed" | "failedLive" | "stopped";
  /** Fake timers that fake `queueMicrotask` were installed when it was made (jest's, vitest's or sinon's: `fakeMicrotasks`). */
  fakeTimers?: boolean;
}

/** Whether `queueMicrotask` is a fake timers' one (@sinonjs/fake-timers, which jest and vitest use, marks what it installs with its clock). */
export function fakeMicrotasks(): boolean {
  const q = (globalThis as { queueMicrotask?: { clock?: unknown } }).queueMicrotask;
  return typeof q?.clock === "object" && q.clock !== null;
}

/** Whether any test of the process has noted an unanswered request (every copy of langchain-vcr shares the test scopes). */
const noted = processWide("caughtMisses.noted.v1", () => ({ any: false }));

/**
 * The test went on to replay or record `file` (a retry that worked): its earlier miss of it was
 * answered after all. Asked on every replay: until some test has missed, it asks nothing more.
 */
export function answered(test: () => Scope | undefined, file: string): void {
  if (!noted.any) return;
  const t = test();
  if (t?.unanswered?.length) t.unanswered = t.unanswered.filter((u) => u.file !== file);
}

/** Keeps `u` on the test it was made in (once per file and outcome: a retried call is one line). */
export function noteUnanswered(test: Scope | undefined, u: Unanswered): void {
  if (!test || test.ended) return;
  noted.any = true;
  const list = (test.unanswered ??= []);
  if (!list.some((x) => x.file === u.file && x.how === u.how)) list.push(fakeMicrotasks() ? { ...u, fakeTimers: true } : u);
}

/**
 * The note for a test that ended with `scope.unanswered` requests, or undefined. `failed`: the test
 * failed on another error (an assertion on what the code did without the answer: "Sorry");
 * `timedOut`: it failed by running out of time (`timedOut`), and the request's error may never have
 * reached it: under jest's fake timers, which fake `queueMicrotask`, a LangGraph graph whose node
 * throws never settles, with or without langchain-vcr (user trial 44).
 */
export function caughtNote(scope: Scope, outcome: "passed" | "failed" | "timedOut"): string | undefined {
  const list = scope.unanswered;
  if (!list?.length) return undefined;
  const title = `test "${scope.title ?? "(unknown test)"}"`;
  const caught = `(by a withFallbacks, a retry, a try/catch, an agent's error handling, or the test itself; or the call was not awaited, and the test ended first)`;
  const first = {
    passed: `${title} passed, but ${list.length} request(s) in it had no fixture, and the error was caught ${caught}: the code went on without the answer it gets live.`,
    failed: `${title} failed, and ${list.length} request(s) in it had no fixture whose error was caught ${caught}: the code went on without the answer it gets live, which may be why.`,
    timedOut:
      `${title} timed out, and ${list.length} request(s) in it had no fixture: the error may never have reached the test` +
      (list.some((u) => u.fakeTimers)
        ? `. Fake timers faked queueMicrotask when it was made (jest's do, by default), and under them a LangGraph graph whose node throws never ` +
          `settles: jest.useFakeTimers({ doNotFake: ["queueMicrotask"] }), or fakeTimers: { doNotFake: ["queueMicrotask"] } in jest.config, lets the error through.`
        : ` (code that waits after an error, on a timer or a promise that never settles, ends in the test's timeout).`),
  };
  const lines = [PREFIX + first[outcome]];
  for (const u of list) {
    lines.push(
      `  - ${u.kind} request from ${u.describe}: ${
        u.how === "missed"
          ? `a VcrMissError (mode ${u.mode} never calls the provider)`
          : u.how === "stopped"
            ? `not made (a VcrConfigError): its fixture is in the package's own directory, not the one the relative dir names from where the tests ran`
            : `sent to the provider to be recorded (mode ${u.mode}), and that call failed: nothing was recorded, so it goes live again next run`
      }`,
      `    expected: ${u.file}`,
    );
  }
  if (list.every((u) => u.how === "stopped")) {
    // recording again from here stops again (review 57 M2): the fix is where the tests run, or dir
    lines.push(
      `  Fix: run the tests from the package's root, or anchor dir to the file that makes the Vcr (path.join(import.meta.dirname, "cassettes")): ` +
        `the stopped request's VcrConfigError names both directories.`,
    );
    return lines.join("\n");
  }
  lines.push(
    `  Fix: if the test means the request to be answered, record it: ${rerecordCommand(currentRunner(), scope.filterTitle ?? scope.title, scope.specFile)}. ` +
      `A failing call is never recorded, so a test of a failure path (a 500, a 429) runs offline only with a model that fails without a provider ` +
      `(a FakeListChatModel with thrownErrorString, which vcr.install() leaves alone; a RunnableLambda that throws). If the test expects the miss, nothing is wrong.`,
  );
  return lines.join("\n");
}
