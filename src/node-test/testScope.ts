/**
 * Per-test scope under node:test. A hook cannot hand the test body an AsyncLocalStorage store
 * (node:test runs the body in the test's own async resource, created when the test was
 * declared), so the one place that can is the call of the body itself: node:test calls it
 * through `AsyncResource.prototype.runInAsyncScope` on the Test object. This module wraps that
 * method (in the test processes only) so the body of every `test()`/`it()` runs inside its own
 * test scope — in AsyncLocalStorage when its siblings may run at the same time (`concurrency`),
 * else in the process-wide slot — and remembers the scope by the test's context, which
 * node:test also hands to `afterEach`.
 */
import { AsyncResource } from "node:async_hooks";
import { fileURLToPath } from "node:url";
import { type Scope, enterTestSlot, runAsTest, testScope } from "../scope";
import { namedAsTestFile } from "../runner/specDigests";

interface TestLike {
  name?: string;
  fn?: unknown;
  parent?: TestLike;
  /** how many of its subtests may run at once (Infinity for `concurrency: true`) */
  concurrency?: number;
  /** where the test was declared (Node 20.?+: a path, or a file: URL for an ES module) */
  loc?: { file?: unknown };
  constructor: { name: string };
}

const byContext = new WeakMap<object, Scope>();
const PATCHED = Symbol.for("langchain-vcr.node-test.runInAsyncScope");

/** "suite > test", for messages; the filter name (the test's own) is `filterTitle`. */
function fullTitle(test: TestLike): string {
  const names = [test.name ?? "(unnamed test)"];
  for (let p = test.parent; p && p.parent; p = p.parent) if (p.name) names.unshift(p.name);
  return names.join(" > ");
}

/**
 * The name `--test-name-pattern` must match to run `test`: its own, or for a subtest (`t.test()`) its top-level test's
 * (or the `it`'s it is in), since node:test 20 skips a top-level test whose name does not match, subtests and all
 * (user trial 50: a subtest's command ran nothing and passed). A test in a `describe` keeps its own: node:test runs the
 * suites a match is in.
 */
function filterName(test: TestLike): string | undefined {
  let t = test;
  while (t.parent?.parent && t.parent.constructor?.name === "Test") t = t.parent;
  return t.name;
}

export function installTestScopes(): void {
  const proto = AsyncResource.prototype as unknown as Record<symbol, unknown> & { runInAsyncScope: (...a: unknown[]) => unknown };
  if (proto[PATCHED]) return;
  const original = proto.runInAsyncScope;
  proto[PATCHED] = original;
  proto.runInAsyncScope = function (this: TestLike, fn: unknown, thisArg: unknown, ...args: unknown[]) {
    const isTestBody =
      typeof fn === "function" &&
      this &&
      this.fn === fn &&
      this.constructor?.name === "Test" &&
      this.parent !== undefined &&
      thisArg !== null &&
      typeof thisArg === "object";
    if (!isTestBody) return original.call(this, fn, thisArg, ...args);
    const scope = testScope(fullTitle(this));
    scope.filterTitle = filterName(this);
    // each test file runs in a process of its own (NODE_TEST_CONTEXT says so): a failed test's note names it, and
    // the run's ledger the file that declared the test (an entry file that imports the test files, docs/runners.md: each of those)
    if (process.env.NODE_TEST_CONTEXT?.startsWith("child")) scope.specFile = declaredIn(this) ?? process.argv[1];
    byContext.set(thisArg as object, scope);
    if ((this.parent?.concurrency ?? 1) <= 1) {
      // runs alone: the process-wide slot, no AsyncLocalStorage store (afterEach frees it)
      enterTestSlot(scope);
      return original.call(this, fn, thisArg, ...args);
    }
    const body = fn as (...a: unknown[]) => unknown;
    return original.call(
      this,
      function (this: unknown, ...a: unknown[]) {
        return runAsTest(scope, () => body.apply(this, a));
      },
      thisArg,
      ...args,
    );
  };
}

/**
 * The file that declared `test`, when node:test says (`loc`) and it is named as a test file: a
 * helper that declares tests for several files (a shared provider suite, a library's wrapper) is
 * not one, and would join the suites that share it.
 */
function declaredIn(test: TestLike): string | undefined {
  const loc = test.loc?.file;
  if (typeof loc !== "string" || loc === "") return undefined;
  let file: string;
  try {
    file = loc.startsWith("file:") ? fileURLToPath(loc) : loc;
  } catch {
    return undefined;
  }
  return namedAsTestFile(file) ? file : undefined;
}

/** The scope of the test whose context `afterEach` received. */
export function scopeOfContext(context: object): Scope | undefined {
  return byContext.get(context);
}
