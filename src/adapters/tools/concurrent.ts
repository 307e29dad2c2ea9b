/**
 * Identical tool calls (same tool, same arguments) of one test are told apart by the order they
 * start in (`call: n`, request.ts). Made from parallel branches, that order can be a model's
 * latency: a `Send` fan-out whose branches each ask the model, then call `next_ticket({ queue })`,
 * start those calls in the order the model answered while recording, and in branch order on
 * replay, where the model answers at once. A tool that answers each call differently (a counter)
 * would then replay one branch's answer to another: the test passes on a swapped answer, or, when
 * the answer flows into the branch's next model request, misses in CI.
 *
 * Each call is followed from its start to its answer (a `Flight`). When every identical call of a
 * test came from its own LangGraph branch and was recorded by this run, their fixtures are
 * numbered in branch order once the last has answered (`renumber`): the file of call n is given
 * the answer the n-th branch got, so the replay, in branch order, hands each branch its own.
 * Otherwise, once one of two identical calls answered by a recording of this run and both have
 * answered differently, the recording warns when their start order was not their branches' order
 * (LangGraph: `branches.ts`), or, for calls outside LangGraph, when they were in flight at the
 * same time. Calls of one branch (a ToolNode's parallel calls in one task, a polling loop) start
 * in the order the branch makes them, and never warn.
 */
import { canonicalJson } from "../../canonical/json";
import { log } from "../../log";
import { processWide } from "../../processWide";
import { currentScope, currentTest } from "../../scope";
import type { Fixture } from "../../store/fixture";
import type { FixtureStore } from "../../store/store";
import { seeBranch } from "./branches";
import type { ToolRequest } from "./request";

/** Where a recording of this run wrote a call's answer. */
export interface Written {
  store: FixtureStore;
  hash: string;
}

/** One tool call, from its start to its answer. */
export interface Flight {
  /** The call answered (`written`: by a recording this run made, there); `response` as the fixture holds it. */
  land(response: unknown, written?: Written): void;
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
  /** Where this run recorded its answer; `fixture`: that file as it held it before any renumbering (read when one is due). */
  written?: Written & { fixture?: Fixture };
  /** The call whose answer its fixture holds now (itself until `renumber` moves another's there). */
  holds?: Call;
  /** Its fixture was numbered in branch order with the others then in the group (`renumber`): replay gives it its own answer. */
  renumbered?: boolean;
}

interface Identical {
  tool: string;
  args: unknown;
  calls: Call[];
  inFlight: Set<Call>;
  warned: boolean;
  /** Whether every call so far came from a LangGraph branch of its own and was recorded whole by this run (`renumber`). */
  renumberable: boolean;
  /** Whether a call left without being checked for a race, waiting for the others (`settle`). */
  deferred: boolean;
}

/** Per test (its call numbering: the withVcr scopes in it share it), per request key. */
const byTest = processWide("tools.identicalCalls.v1", () => new WeakMap<object, Map<string, Identical>>());

/** Starts following call `ordinal` of the request `key` (tool `tool`, `args` as keyed); `branch`: its LangGraph branch, if any. */
export function takeOff(key: string, tool: string, args: unknown, ordinal: number, branch: string | undefined): Flight {
  const scope = currentScope();
  let keys = byTest.get(scope.occurrences);
  if (!keys) byTest.set(scope.occurrences, (keys = new Map()));
  let same = keys.get(key);
  if (!same) keys.set(key, (same = { tool, args, calls: [], inFlight: new Set(), warned: false, renumberable: true, deferred: false }));
  const call: Call = { ordinal, overlapped: new Set(same.inFlight) };
  if (branch !== undefined) call.branch = { id: branch, rank: seeBranch(branch) };
  if (branch === undefined || same.calls.some((c) => c.branch?.id === branch)) same.renumberable = false;
  for (const other of same.inFlight) other.overlapped.add(call);
  same.calls.push(call);
  same.inFlight.add(call);
  const group = same;
  const title = () => currentTest()?.title ?? scope.title;
  return {
    land(response, written) {
      group.inFlight.delete(call);
      if (call.answer) return;
      call.answer = { response, recorded: written !== undefined };
      if (written) call.written = { ...written };
      else group.renumberable = false; // replayed: a fixture this run did not write is not this run's to renumber
    },
    leave() {
      group.inFlight.delete(call);
      if (!call.answer) group.renumberable = false; // it threw, or was interrupted: it runs again as the same call
      settle(group, call, title);
    },
  };
}

/** A call left: renumber the group once the last of its calls answered, or warn of a race now. */
function settle(group: Identical, call: Call, title: () => string | undefined): void {
  if (group.warned) return;
  if (group.renumberable) {
    if (group.inFlight.size > 0 || group.calls.length < 2) {
      group.deferred ||= group.calls.length > 1;
      return;
    }
    if (renumber(group)) {
      group.deferred = false;
      for (const c of group.calls) c.renumbered = true;
      return;
    }
    group.renumberable = false;
  }
  for (const a of group.deferred ? group.calls : [call]) {
    if (!a.answer) continue;
    const other = group.calls.find((c) => c !== a && c.answer && raced(a, c));
    if (!other) continue;
    group.warned = true;
    const how = a.branch && other.branch ? "from parallel LangGraph branches" : "at the same time";
    log.warn(racedWarning(group, how, title()));
    return;
  }
  group.deferred = false;
}

/**
 * Gives the fixture of call n the answer of the n-th branch (by `rank`) among a group whose every
 * call came from its own branch and was recorded by this run, so the replay, which starts them in
 * branch order, hands each branch the answer it got. Whether the fixtures now are in branch order;
 * false (nothing left half done that replay would trust less than before) when a file does not
 * hold what this run recorded there, or cannot be written.
 */
function renumber(group: Identical): boolean {
  const byOrdinal = [...group.calls].sort((a, b) => a.ordinal - b.ordinal);
  const byRank = [...group.calls].sort((a, b) => a.branch!.rank - b.branch!.rank);
  if (byOrdinal.every((c, i) => (c.holds ?? c) === byRank[i])) return true;
  for (const c of group.calls) if (!ownFixture(c)) return false;
  try {
    byOrdinal.forEach((target, i) => {
      const source = byRank[i]!;
      if ((target.holds ?? target) === source) return;
      target.written!.store.write({ ...target.written!.fixture!, response: source.written!.fixture!.response }, true);
      target.holds = source;
    });
  } catch (e) {
    log.debug("could not number identical calls of tool %s in branch order: %s", group.tool, (e as Error).message);
    return false;
  }
  log.debug("numbered %d identical calls of tool %s in branch order", byOrdinal.length, group.tool);
  return true;
}

/** Reads the fixture this run recorded for `c`, once; whether the file holds its own call's answer (no resume values, nothing another test wrote over). */
function ownFixture(c: Call): boolean {
  const w = c.written;
  if (!w) return false;
  if (!w.fixture && (c.holds ?? c) === c) {
    const f = w.store.peek(w.hash);
    if (!f || (f.request as ToolRequest).resume !== undefined || canonicalJson(f.response) !== answerJson(c)) return false;
    w.fixture = f;
  }
  return w.fixture !== undefined;
}

/** Whether two answered identical calls may swap answers on replay (see the file comment). */
function raced(a: Call, b: Call): boolean {
  if (a.renumbered && b.renumbered) return false; // numbered in branch order: each replays its own
  if (answerJson(a) === answerJson(b)) return false; // swapped or not, each gets the same answer
  if (a.branch && b.branch) {
    // both replayed too: fixtures other tests of this run recorded, started in the order live model calls before them
    // decided (a replay starts them in branch order, and swaps them: recheck 60)
    if (a.branch.id === b.branch.id) return false;
    return a.ordinal - b.ordinal > 0 !== a.branch.rank - b.branch.rank > 0;
  }
  if (!a.answer!.recorded && !b.answer!.recorded) return false; // both replayed, outside LangGraph: in flight together, as any replay may be
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
