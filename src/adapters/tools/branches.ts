/**
 * Which parallel LangGraph branch a call runs in, and in what order a test's branches started.
 *
 * A branch is the top task of a call's LangGraph namespace: the first part of
 * `configurable.checkpoint_ns` (`"serve:<task id>"` for a `Send` to node `serve`, also inside a
 * subgraph that task runs). LangGraph starts a step's tasks in a fixed order, so a branch is first
 * seen (its first model or tool call) in that order on every run; what a branch does after waiting
 * on a model is ordered by the model's latency instead, which differs between a recording and a
 * replay (`concurrent.ts`). Outside LangGraph a call has no branch.
 *
 * Kept per test (its scope's call numbering, which `withVcr` scopes inside it share).
 */
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { processWide } from "../../processWide";
import { currentScope } from "../../scope";

/** The order in which each branch of a test was first seen. */
const firstSeen = processWide("tools.branches.v1", () => new WeakMap<object, Map<string, number>>());

/** The branch of a call with this config (a tool call's, or the one LangGraph keeps for the running node); undefined outside LangGraph. */
export function branchOf(config: unknown): string | undefined {
  const ns = (config as { configurable?: { checkpoint_ns?: unknown } } | undefined)?.configurable?.checkpoint_ns;
  if (typeof ns !== "string" || ns === "") return undefined;
  return ns.split("|")[0];
}

/** Notes that `branch` was active now; returns when it was first seen in this test (a rank: 1, 2, ...). */
export function seeBranch(branch: string): number {
  const key = currentScope().occurrences; // shared by the test and the withVcr scopes inside it
  let seen = firstSeen.get(key);
  if (!seen) firstSeen.set(key, (seen = new Map()));
  let rank = seen.get(branch);
  if (rank === undefined) seen.set(branch, (rank = seen.size + 1));
  return rank;
}

/** A model call is being looked up: the LangGraph branch it runs in (if any) is active. */
export function seeModelBranch(): void {
  const branch = branchOf(AsyncLocalStorageProviderSingleton.getRunnableConfig());
  if (branch !== undefined) seeBranch(branch);
}
