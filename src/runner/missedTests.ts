/**
 * The summary's one command for the tests a run missed whose misses a recording fixes (trial 56 L3:
 * a prompt change broke two tests, each error printed its own command, and running the first left
 * the second red). Each test process keeps the tests it missed in (`MissedTests`), the main process
 * adds every process's up, and the summary prints one command that records them all when there are
 * two or more.
 */
import { rerecordTestsCommand, type MissedTest } from "../diagnose/rerecordCommand";

/** A test's runner, file and title → the test (each test once, however many of its requests missed). */
export type MissedTests = Map<string, MissedTest>;

/** How many tests a process and a run keep (the command names their files alone from `TITLES_AT_MOST` on). */
const MAX_TESTS = 200;
/** How many tests must have missed for the summary to print the command (one test's error has its own). */
const COMMAND_AT = 2;
const RUNNERS = new Set<unknown>(["mocha", "vitest", "jest", "node-test"]);

/** Adds `tests` (another process's JSON report: anything) to `into`; what is not a `MissedTest` adds nothing. */
export function addMissedTests(into: MissedTests, tests: Iterable<unknown>): void {
  for (const value of tests) {
    const t = value as Partial<MissedTest> | null;
    if (typeof t !== "object" || t === null || typeof t.title !== "string") continue;
    if (t.file !== undefined && typeof t.file !== "string") continue;
    if (t.runner !== undefined && !RUNNERS.has(t.runner)) continue;
    const key = JSON.stringify([t.runner ?? "", t.file ?? "", t.title]);
    if (!into.has(key) && into.size < MAX_TESTS) into.set(key, { runner: t.runner, title: t.title, file: t.file });
  }
}

/**
 * The summary's line for the tests that missed and that a recording fixes, when there are `COMMAND_AT` or more: one
 * command that records them all. Undefined otherwise.
 */
export function missedTestsNote(tests: MissedTests): string | undefined {
  if (tests.size < COMMAND_AT) return undefined;
  const capped = tests.size >= MAX_TESTS ? ` (the first ${MAX_TESTS})` : "";
  return (
    `langchain-vcr: to record the ${tests.size} tests that missed${capped} in one run, with the real providers configured: ` +
    `${rerecordTestsCommand([...tests.values()])}, then review and commit the new fixtures.`
  );
}
