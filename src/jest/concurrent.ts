/**
 * jest's `test.concurrent` tests: jest runs them without `beforeEach`/`afterEach`, so the setup
 * file cannot enter them as it enters other tests, and several run at once. Each runs in an async
 * context of jest's own, whose test jest's expect state names (`currentConcurrentTestName`, which
 * jest set up for snapshots in concurrent tests). So a concurrent test gets a scope of its own at
 * its first call: its miss names it, its tool calls are numbered from 1, what it recorded is undone
 * if it fails. Those scopes end when the test file's tests are over (jest tells a setup file
 * nothing when a concurrent test ends). A jest without that state leaves concurrent tests in the
 * file's scope, as before.
 */
import { testScope, type Scope } from "../scope";

export interface ConcurrentState {
  /** The name of the test whose async context this is (jest 29.6+; jest 30 answers in any test, not only a concurrent one). */
  currentConcurrentTestName?: () => string | undefined;
  /** The test whose context this is (jest 30): tells a concurrent one. */
  currentTestIdentity?: () => { concurrent?: boolean } | undefined;
}

export class ConcurrentTests {
  private readonly scopes = new Map<string, Scope>();

  constructor(private readonly state: () => ConcurrentState) {}

  /** The scope of the concurrent test running here, made at its first call; undefined outside one. */
  readonly find = (): Scope | undefined => {
    const state = this.state();
    if (typeof state.currentConcurrentTestName !== "function") return undefined;
    if (typeof state.currentTestIdentity === "function" && state.currentTestIdentity()?.concurrent !== true) return undefined;
    const name = state.currentConcurrentTestName();
    if (typeof name !== "string") return undefined;
    let scope = this.scopes.get(name);
    if (!scope) this.scopes.set(name, (scope = testScope(name)));
    return scope;
  };

  /** The file's tests are over: hands each concurrent test's scope to `end`, and forgets them. */
  endAll(end: (scope: Scope) => void): void {
    const scopes = [...this.scopes.values()];
    this.scopes.clear();
    for (const scope of scopes) end(scope);
  }
}
