/**
 * `withVcr`: a scoped mode override for everything that runs inside `fn`, async included.
 * The scope keeps the enclosing test's bookkeeping (tool-call numbering, fixtures written):
 * wrapping calls in `withVcr` changes their mode, never their keys.
 */
import { checkMode, checkToolMode } from "./modes";
import { Scope, currentScope, currentTest, runInScope, type VcrOverride } from "./scope";

export function withVcr<T>(override: VcrOverride, fn: () => T): T {
  if (override.mode !== undefined) checkMode(override.mode, "withVcr");
  if (override.toolMode !== undefined) checkToolMode(override.toolMode, "withVcr");
  const outer = currentScope();
  const merged: VcrOverride = { ...outer.override, ...stripUndefined(override) };
  // the bookkeeping is the running test's (else the enclosing scope's, which ends at the process's)
  const owner = currentTest() ?? outer;
  return runInScope(new Scope(owner.title, merged, owner), fn);
}

function stripUndefined(o: VcrOverride): VcrOverride {
  const out: VcrOverride = {};
  if (o.mode !== undefined) out.mode = o.mode;
  if (o.toolMode !== undefined) out.toolMode = o.toolMode;
  return out;
}
