/**
 * `withVcr(override, fn)` run as a test of its own: fresh tool-call numbering and fixture
 * bookkeeping, as a runner plugin gives each test. Tests that make "a second run" inside one
 * mocha test use it; `withVcr` alone keeps the enclosing test's numbering (issue 18).
 */
import { withVcr } from "../../src/index";
import { Scope, runAsTest, type VcrOverride } from "../../src/scope";

export function inOwnTest<T>(override: VcrOverride, fn: () => T, title = "(a test of its own)"): T {
  return runAsTest(new Scope(title), () => withVcr(override, fn));
}
