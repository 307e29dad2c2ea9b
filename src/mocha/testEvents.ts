/**
 * Per-test scope from mocha's runner events instead of a root `beforeEach`/`afterEach` pair.
 *
 * mocha runs every root each-hook through its hook machinery (a Runnable run, two title
 * rewrites, hook events, a context change) around every test: for a suite of 1,000 replayed
 * tests that pair cost ~20 ms of CPU here, more than the hooks' own code (test/bench/suite.ts).
 * The runner's events cost nothing when they have a listener. They are the reporters' public
 * API: `test` (a test starts, before its `beforeEach` hooks), `hook` (a hook starts), `suite`,
 * `suite end` and `end`.
 *
 * A test begins at its `test` event, as at the first root `beforeEach`. It ends at the first
 * event after its `afterEach` hooks, as after the last root `afterEach`: the next `test`, a
 * `before all`/`after all` hook (the plugin's own root `afterAll` included), a suite starting
 * or ending, or the end of the run. A `beforeEach`/`afterEach` hook belongs to the test that
 * is running, so its `hook` event does not end it.
 *
 * Used only where the runner that runs the tests is known: mocha hands it to
 * `mochaGlobalSetup` as `this`, in its serial main process (a `--parallel` worker runs no
 * global setup, so workers keep the hooks). The plugin's each-hooks are then taken off the
 * root suite; where that cannot be done the hooks stay, and the events are not followed.
 */
import { log } from "../log";
import { EACH_HOOKS, hookList, type HookLike } from "./hookContext";

/** The part of mocha's Runner this module uses (public in mocha 10–12; suites and hooks: ./hookContext.ts). */
export interface RunnerLike {
  on(event: string, listener: (arg: unknown) => void): unknown;
  /** Marks a test failed and reports it: the failure counts in mocha's exit code. */
  fail?(test: unknown, err: unknown): void;
  /** The options mocha made the runner with (not public API: read by `isDryRun` only, checked by its unit test on mocha's real runner). */
  _opts?: { dryRun?: unknown };
}
const followed = new WeakSet<object>();

/** Whether `value` is a runner whose events can be followed (mocha's `this` in `mochaGlobalSetup`). */
export function asRunner(value: unknown): RunnerLike | undefined {
  const r = value as RunnerLike | null | undefined;
  return r && typeof r === "object" && typeof r.on === "function" ? r : undefined;
}

/**
 * Whether mocha runs dry (`--dry-run`, or `dry-run` in its config): every test is reported
 * passed and no test body or hook runs. Only the runner knows when the option came from the
 * config; false when it cannot tell (argv's --dry-run is read on its own in ./runContext.ts).
 */
export function isDryRun(runner: RunnerLike | undefined): boolean {
  return runner?._opts?.dryRun === true;
}

/**
 * Takes the each-hooks whose function is one of `fns` off `rootSuite` and follows `runner`'s
 * events instead, calling `start(test)` and `end(test)` for every test. Returns false (and
 * changes nothing) when the hooks cannot be taken off: they then keep doing the work.
 */
export function followTests(
  runner: RunnerLike,
  rootSuite: unknown,
  fns: readonly unknown[],
  start: (test: unknown) => void,
  end: (test: unknown) => void,
): boolean {
  if (followed.has(runner)) return true;
  const lists = EACH_HOOKS.map((name) => hookList(rootSuite, name));
  if (lists.some((l) => l === undefined)) return false;
  for (const list of lists as HookLike[][]) {
    for (let i = list.length - 1; i >= 0; i--) if (fns.includes(list[i]?.fn)) list.splice(i, 1);
  }
  followed.add(runner);
  let current: { test: unknown } | undefined;
  const finish = (): void => {
    if (!current) return;
    const { test } = current;
    current = undefined;
    guarded(runner, test, end);
  };
  runner.on("test", (test) => {
    // mocha also reports a test that a failing hook affected (`--fail-hook-affected-tests`) with a
    // `test` event, after marking it failed: that test is not starting (it may be the current one)
    if (current?.test === test || (test as { state?: unknown } | null)?.state !== undefined) return;
    finish();
    current = { test };
    guarded(runner, test, start);
  });
  runner.on("hook", (hook) => {
    if (current && !isEachHook(hook as HookLike)) finish();
  });
  for (const event of ["suite", "suite end", "end"]) runner.on(event, finish);
  return true;
}

/**
 * Runs `step(test)`. A listener runs inside mocha's own callbacks: an error thrown there would
 * stop the run where it is, silently, with exit code 0. It fails the test instead, as an error in
 * the old root hook did, or, once the run is over, is written to stderr.
 */
function guarded(runner: RunnerLike, test: unknown, step: (test: unknown) => void): void {
  try {
    step(test);
  } catch (e) {
    try {
      if (typeof runner.fail !== "function") throw e;
      runner.fail(test, e);
    } catch {
      log.warn(`the mocha plugin could not start or end a test's scope: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      process.exitCode = 1;
    }
  }
}

/** A `beforeEach` or `afterEach` hook: it runs for the test that is running. */
function isEachHook(hook: HookLike | null | undefined): boolean {
  if (!hook || typeof hook !== "object") return false;
  return EACH_HOOKS.some((name) => hookList(hook.parent, name)?.includes(hook) === true);
}
