/**
 * The root suite's each-hooks, read in one place (`hookList`, also used by ./testEvents.ts to
 * take the plugin's pair off), and a private `this` for the plugin's root `beforeEach`/`afterEach`
 * where they stay (a `--parallel` worker).
 *
 * mocha runs a root hook with the root suite's context as `this`, and around every run sets
 * `currentTest` on it and deletes it again. The root context is the prototype of every suite's
 * context, so adding and deleting a property on it invalidates V8's prototype-chain caches for
 * the whole suite tree, once per test: an empty root `beforeEach`/`afterEach` pair cost a suite
 * of 1,000 replayed tests ~50 ms of CPU (test/bench/suite.ts), ten times what the hooks do.
 * A context of their own that inherits from the root one keeps everything the hooks read
 * (`this.currentTest`, Context's methods) as it was, and leaves the shared context alone.
 */

export interface HookLike {
  fn?: unknown;
  ctx?: unknown;
  parent?: unknown;
}
interface SuiteWithHooks {
  getHooks?(name: string): unknown;
}

/** The each-hook kinds: they run for the test that is running. */
export const EACH_HOOKS = ["beforeEach", "afterEach"] as const;

/** A suite's own hooks of one kind: mocha's live list (changing it changes what mocha runs), or undefined where it cannot be read. */
export function hookList(suite: unknown, name: (typeof EACH_HOOKS)[number]): HookLike[] | undefined {
  const s = suite as SuiteWithHooks | null | undefined;
  if (!s || typeof s !== "object" || typeof s.getHooks !== "function") return undefined;
  const list = s.getHooks(name);
  return Array.isArray(list) ? (list as HookLike[]) : undefined;
}

const given = new WeakSet<object>();

/** Gives the root suite's each-hooks whose function is one of `fns` a context of their own (once per hook). */
export function giveOwnContexts(rootSuite: unknown, fns: readonly unknown[]): void {
  for (const name of EACH_HOOKS) {
    for (const hook of hookList(rootSuite, name) ?? []) {
      if (!hook || given.has(hook) || !fns.includes(hook.fn) || typeof hook.ctx !== "object" || hook.ctx === null) continue;
      hook.ctx = Object.create(hook.ctx) as object;
      given.add(hook);
    }
  }
}
