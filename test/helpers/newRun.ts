/**
 * Tests that record and then replay inside one mocha test stand for two runs of a suite. A
 * `withVcr` scope keeps the enclosing test's tool-call numbering (a scope changes the mode, never
 * the keys), so such a test starts each "run" here: a fresh scope, as the runner plugins begin
 * one per test, carrying the enclosing override plus `override` (as `withVcr` would).
 */
import { Scope, currentOverride, currentTest, runAsTest, runInScope, type VcrOverride } from "../../src/scope";

export function asNewRun<T>(override: VcrOverride, fn: () => T): T {
  const scope = new Scope(currentTest()?.title, { ...currentOverride(), ...override });
  return runAsTest(scope, () => runInScope(scope, fn));
}
