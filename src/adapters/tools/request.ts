/**
 * The canonical request of one tool call: the tool's name and its parsed arguments (after
 * the tool's own schema validation, defaults applied), keys sorted. Never the tool-call id:
 * it changes on every recording and is not an input to the body. A repeat of the same call
 * inside one test (or `withVcr` scope) carries its ordinal, `call: n` for n ≥ 2, so a
 * polling tool replays its results in recorded order.
 */
import { requestHash, sortDeep } from "../../canonical/json";
import { currentScope } from "../../scope";
import { toTagged } from "./tagged";

export interface ToolRequest {
  tool: string;
  args?: unknown;
  /** The ordinal of this identical call in the current scope; absent for the first. */
  call?: number;
  /** The LangGraph resume values a resumed call will take (`interrupts.ts`); absent otherwise. */
  resume?: unknown[];
}

/** The request without its ordinal. Throws `UnrecordableValue` for arguments that cannot be keyed. */
export function baseToolRequest(name: string, parsedArgs: unknown): ToolRequest {
  if (parsedArgs === undefined) return { tool: name };
  return { tool: name, args: sortDeep(toTagged(parsedArgs, { path: "args", forKey: true })) };
}

/**
 * Takes the next ordinal for this request in the current scope and returns the request to
 * look up, and the counter's `key` (the call without its ordinal, in this fixture directory).
 * `space` separates counters of different fixture directories. `giveBack()` returns
 * the ordinal: a call that interrupted a LangGraph graph is run again on resume, as the same
 * call (`interrupts.ts`).
 */
export function nextToolRequest(base: ToolRequest, space: string): { request: ToolRequest; key: string; giveBack(): void } {
  const scope = currentScope();
  const key = `tool\u0000${space}\u0000${requestHash("tool", base)}`;
  const n = scope.nextOccurrence(key);
  return { request: n === 1 ? base : { ...base, call: n }, key, giveBack: () => scope.returnOccurrence(key, n) };
}
