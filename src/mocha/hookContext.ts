/**
 * A private `this` for the plugin's root `beforeEach`/`afterEach`.
 *
 * mocha runs a root hook with the root suite's context as `this`, and around every run sets
 * `currentTest` on it and deletes it again. The root context is the prototype of every suite's
 * context, so adding and deleting a property on it invalidates V8's prototype-chain caches for
 * the whole suite tree, once per test: an empty root `beforeEach`/`afterEach` pair cost a suite
 * of 1,000 replayed tests ~50 ms of CPU (test/bench/suite.ts), ten times what the hooks do.
 * A context of their own that inherits from the root one keeps everything the hooks read
 * (`this.currentTest`, Context's methods) as it was, and leaves the shared context alone.
 */

interface HookLike {
  fn?: unknown;
  ctx?: unknown;
}
interface SuiteWithHooks {
  getHooks?(name: string): unknown;
}

const given = new WeakSet<object>();

/** Gives the root suite's each-hooks whose function is one of `fns` a context of their own (once per hook). */
export function giveOwnContexts(rootSuite: unknown, fns: readonly unknown[]): void {
  const suite = rootSuite as SuiteWithHooks | undefined;
  if (!suite || typeof suite !== "object" || typeof suite.getHooks !== "function") return;
  for (const name of ["beforeEach", "afterEach"]) {
    const hooks = suite.getHooks(name);
    if (!Array.isArray(hooks)) continue;
    for (const hook of hooks as HookLike[]) {
      if (!hook || given.has(hook) || !fns.includes(hook.fn) || typeof hook.ctx !== "object" || hook.ctx === null) continue;
      hook.ctx = Object.create(hook.ctx) as object;
      given.add(hook);
    }
  }
}
