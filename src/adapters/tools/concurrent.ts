/**
 * Identical tool calls (same tool, same arguments) of one test are told apart by the order they
 * start in (`call: n`, request.ts). Made from parallel branches, that order can be a model's
 * latency: a `Send` fan-out whose branches each ask the model, then call `next_ticket({ queue })`,
 * start those calls in the order the model answered while recording, and in branch order on
 * replay, where the model answers at once. A tool that answers each call differently (a counter)
 * then replays one branch's answer to another: the test passes on a swapped answer, or, when the
 * answer reaches the branch's next model request, misses in CI (user trial 49).
 *
 * Each call is followed from its start to its answer (a `Flight`). Once one of two identical calls
 * answered by this run's recording (or by a fixture another test of this run had just recorded: a
 * whole-suite recording, recheck 60) and both have answered differently, the recording warns when
 * their start order was not their branches' order (LangGraph: `branches.ts`), or, for calls
 * outside LangGraph, when they were in flight at the same time. Calls of one branch (a ToolNode's
 * parallel calls in one task, a polling loop) start in the order the branch makes them, and never warn.
 */
import { canonicalJson } from "../../canonical/json";
import { log } from "../../log";
import { processWide } from "../../processWide";
import { currentScope, currentTest } from "../../scope";
import { seeBranch } from "./branches";

/** One tool call, from its start to its answer. */
export interface Flight {
  /**
   * The call answered; `response` as the fixture holds it. `recorded`: by a recording this run made, or by
   * a fixture recorded after the run started (another test of the run), whose order this run's live calls set.
   */
  land(response: unknown, recorded: boolean): void;
  /** The call ended (answered or not): it is no longer in flight. */
  leave(): void;
}

interface Call {
  ordinal: number;
  /** The rank of its LangGraph branch (`branches.ts`); undefined outside LangGraph. */
  branch?: { id: string; rank: number };
  /** Identical calls in flight while it was. */
  overlapped: Set<Call>;
  /** `json`: the response's canonical JSON, worked out when a comparison needs it (most calls have no identical one). */
  answer?: { response: unknown; recorded: boolean; json?: string };
}

interface Identical {
  tool: string;
  args: unknown;
  calls: Call[];
  inFlight: Set<Call>;
  warned: boolean;
}

/** Per test (its call numbering: the withVcr scopes in it share it), per request key. */
const byTest = processWide("tools.identicalCalls.v1", () => new WeakMap<object, Map<string, Identical>>());

/** Starts following call `ordinal` of the request `key` (tool `tool`, `args` as keyed); `branch`: its LangGraph branch, if any. */
export function takeOff(key: string, tool: string, args: unknown, ordinal: number, branch: string | undefined): Flight {
  const scope = currentScope();
  let keys = byTest.get(scope.occurrences);
  if (!keys) byTest.set(scope.occurrences, (keys = new Map()));
  let same = keys.get(key);
  if (!same) keys.set(key, (same = { tool, args, calls: [], inFlight: new Set(), warned: false }));
  const call: Call = { ordinal, overlapped: new Set(same.inFlight) };
  if (branch !== undefined) call.branch = { id: branch, rank: seeBranch(branch) };
  for (const other of same.inFlight) other.overlapped.add(call);
  same.calls.push(call);
  same.inFlight.add(call);
  const group = same;
  return {
    land(response, recorded) {
      group.inFlight.delete(call);
      if (call.answer) return;
      call.answer = { response, recorded };
      if (group.warned) return;
      const other = group.calls.find((c) => c !== call && c.answer && raced(call, c));
      if (!other) return;
      group.warned = true;
      const how = call.branch && other.branch ? "from parallel LangGraph branches" : "at the same time";
      log.warn(racedWarning(group, how, currentTest()?.title ?? scope.title));
    },
    leave: () => void group.inFlight.delete(call),
  };
}

/** Whether two answered identical calls may swap answers on replay (see the file comment). */
function raced(a: Call, b: Call): boolean {
  if (!a.answer!.recorded && !b.answer!.recorded) return false; // both replayed: this run recorded neither
  if (answerJson(a) === answerJson(b)) return false; // swapped or not, each gets the same answer
  if (a.branch && b.branch) {
    if (a.branch.id === b.branch.id) return false;
    return a.ordinal - b.ordinal > 0 !== a.branch.rank - b.branch.rank > 0;
  }
  return a.overlapped.has(b);
}

function answerJson(c: Call): string {
  return (c.answer!.json ??= canonicalJson(c.answer!.response));
}

function racedWarning(group: Identical, how: string, test: string | undefined): string {
  return (
    `tool ${JSON.stringify(group.tool)} was called with the same arguments ${short(group.args)} ${how}${test ? ` in test ${JSON.stringify(test)}` : ""}, and the calls were answered differently.\n` +
    `  Identical calls are told apart by the order they start in (call 1, 2, …), and these started in an order something before them decided (a model's latency): ` +
    `on replay, where the model answers at once, they can start in another order, and each then gets another call's recorded answer: the test passes on a swapped answer, ` +
    `or misses in CI where the answer reaches a later request.\n` +
    `  Fix: make the calls distinguishable (an argument naming the branch, e.g. the customer it is for), or make them one after another; then record the test again (docs/tools-and-agents.md, "Identical calls from parallel branches").`
  );
}

function short(v: unknown, max = 200): string {
  const s = JSON.stringify(v) ?? "(no arguments)";
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}
