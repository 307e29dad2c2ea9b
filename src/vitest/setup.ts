/**
 * The setup file the langchain-vcr vitest plugin adds (dist/esm/vitest-setup.mjs imports
 * vitest's hooks and hands them to `installVitestHooks`). It runs in each test file's
 * process: a concurrent test goes into AsyncLocalStorage from a synchronous `beforeEach`
 * (which reaches the test body, `test.concurrent` included), any other test into the
 * process-wide slot (vitest runs one such test at a time per worker), and `onTestFinished` on the
 * test's own context ends it: cleanup when it failed, the live call it left in flight named
 * in its error. The file's usage goes to the main process in a report (../runner/share.ts).
 */
import { enterTestContext, enterTestSlot, leaveTestSlot, setRunner, testScope } from "../scope";
import { checkEnvironment } from "../runner/configCheck";
import { endTest } from "../runner/lifecycle";
import { joinRun, Unit } from "../runner/share";
import { noteTestFileBegins } from "../internals/state";
import { vitestTitle, type NamedTask } from "./names";
import { HOOK_TIMEOUT_MS, installSettled } from "../install/pending";
import { takeInlined } from "../install/vitestInlined";

interface VitestTask extends NamedTask {
  /** The test's id, the same for each attempt `retry` makes. */
  id?: string;
  concurrent?: boolean;
  file?: { filepath?: string; name?: string };
  result?: { state?: string; errors?: { message?: string }[]; retryCount?: number };
  /** How many times vitest's `retry` runs a failed test again. */
  retry?: number;
}
interface VitestContext {
  task: VitestTask;
  onTestFinished?(fn: (ctx: VitestContext) => void): void;
}
export interface VitestHooks {
  /** vitest 4 passes a fixture context first (it must be a destructuring pattern), the file's suite second. */
  beforeAll(fn: (context: object, suite?: { filepath?: string; name?: string }) => void | Promise<void>, timeout?: number): void;
  beforeEach(fn: (ctx: VitestContext) => void): void;
  afterAll(fn: () => void): void;
}

/**
 * Awaited by the setup file the plugin adds after the project's own (dist/esm/vitest-settle.mjs):
 * what their `vcr.install()` loads with `import()` (vitest's VM pools) settles before the test file's
 * own imports begin. A test file importing LangChain's ES modules while that `import()` was still
 * loading them failed at import in vitest's VM pools ("request for './client.mjs' is not in cache"),
 * in 22 of 50 runs on a busy 2-core machine.
 */
export { installSettled };

export function installVitestHooks(hooks: VitestHooks): void {
  noteTestFileBegins(); // a Vcr an earlier test file installed in this worker is replaced by this file's install() (install.ts)
  takeInlined(); // what the plugin found vitest inlines or bundles of LangChain, out of the environment a test's child process would inherit
  checkEnvironment(); // normally checked in the main process already; this covers a worker started another way
  setRunner("vitest");
  let unit: Unit | undefined;
  // eslint-disable-next-line no-empty-pattern
  hooks.beforeAll(({}, file) => {
    unit ??= new Unit(joinRun(), file?.filepath ?? file?.name ?? "(unknown file)");
    return installSettled(); // what a setup file's install() loads with import() (VM pools) is patched before a test calls it
  }, HOOK_TIMEOUT_MS); // longer than the wait's own limit, whose warning says what hangs
  // the context destructured, never a plain parameter: in a file using test.extend fixtures, vitest 4.1 reads a hook's
  // first parameter as the fixtures it asks for, and fails every test of the file on any other form (trial 47)
  hooks.beforeEach(({ task, onTestFinished }) => {
    unit ??= new Unit(joinRun(), task.file?.filepath ?? task.file?.name ?? "(unknown file)");
    const title = vitestTitle(task);
    const scope = testScope(title);
    scope.specFile = task.file?.filepath; // a miss's command names it
    // a concurrent test needs its own AsyncLocalStorage store; one that runs alone takes the slot
    const concurrent = task.concurrent === true;
    if (concurrent) enterTestContext(scope);
    else enterTestSlot(scope);
    const current = unit;
    onTestFinished?.((done) => {
      leaveTestSlot(scope);
      const failed = done.task.result?.state === "fail";
      scope.retried = failed && (done.task.result?.retryCount ?? 0) < (done.task.retry ?? 0);
      endTest(scope, failed, done.task.result?.errors?.[0], { passed: done.task.result?.state === "pass" });
      // vitest's `retry` runs a failed test again, with this hook again: the last attempt's outcome is the test's
      const attempt = task.id ?? title;
      if (failed) current.markFailed(title, attempt);
      else current.markPassed(attempt);
      current.testEnded(); // a throwing afterAll of the file's own skips the setup file's, which finishes the report
    });
  });
  // under sequence.hooks "list" or "parallel", the test file's own top-level afterAll runs after this one: follow its use
  hooks.afterAll(() => unit?.finish({ followLateUse: true }));
}
