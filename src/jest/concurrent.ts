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

/** jest's test object (jest 30): one per test, its attempts counted. */
interface TestIdentity {
  concurrent?: boolean;
  invocations?: unknown;
}

export interface ConcurrentState {
  /** The name of the test whose async context this is (jest 29.6+; jest 30 answers in any test, not only a concurrent one). */
  currentConcurrentTestName?: () => string | undefined;
  /** The test whose context this is (jest 30): tells a concurrent one, and one test from another of the same name. */
  currentTestIdentity?: () => TestIdentity | undefined;
  /** The running test file. */
  testPath?: string;
}

export class ConcurrentTests {
  /** jest 30: by test object, a scope per attempt (a retried test numbers its calls afresh, as a retried sequential one does). */
  private readonly byTest = new WeakMap<object, { attempt: unknown; scope: Scope }>();
  /** jest 29: by name. */
  private readonly byName = new Map<string, Scope>();
  private made: Scope[] = [];

  constructor(private readonly state: () => ConcurrentState) {}

  /** The scope of the concurrent test running here, made at its first call; undefined outside one. */
  readonly find = (): Scope | undefined => {
    const state = this.state();
    if (typeof state.currentConcurrentTestName !== "function") return undefined;
    const identity = typeof state.currentTestIdentity === "function" ? state.currentTestIdentity() : undefined;
    if (typeof state.currentTestIdentity === "function" && identity?.concurrent !== true) return undefined;
    const name = state.currentConcurrentTestName();
    if (typeof name !== "string") return undefined;
    if (identity) {
      const known = this.byTest.get(identity);
      if (known && known.attempt === identity.invocations && !known.scope.ended) return known.scope;
      const scope = this.make(name);
      this.byTest.set(identity, { attempt: identity.invocations, scope });
      return scope;
    }
    let scope = this.byName.get(name);
    if (!scope) this.byName.set(name, (scope = this.make(name)));
    return scope;
  };

  /** The scope of the current attempt of `test` (jest's test object, jest 30), if it has made a call. */
  readonly attemptOf = (test: object): Scope | undefined => {
    const known = this.byTest.get(test);
    return known && known.attempt === (test as TestIdentity).invocations ? known.scope : undefined;
  };

  /** `scope` was ended already (a failed attempt jest retries, `retries.ts`): `endAll` leaves it out. */
  forget(scope: Scope): void {
    this.made = this.made.filter((s) => s !== scope);
  }

  /** The file's tests are over: hands each concurrent test's scope (each attempt's) to `end`, and forgets them. */
  endAll(end: (scope: Scope) => void): void {
    const scopes = this.made;
    this.made = [];
    this.byName.clear();
    for (const scope of scopes) end(scope);
  }

  private make(name: string): Scope {
    const scope = testScope(name);
    scope.specFile = this.state().testPath; // a miss's command names the file
    this.made.push(scope);
    return scope;
  }
}
