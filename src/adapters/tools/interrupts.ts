/**
 * LangGraph's `interrupt()` inside a wrapped tool (a human-approval tool): the body throws a
 * `GraphInterrupt` and the graph pauses; `Command({ resume })` runs the tool again, and there
 * `interrupt()` returns the resume value instead of throwing.
 *
 * - The interrupted call is recorded like any other call, its outcome `{ "interrupt": { value } }`.
 *   Replay throws it again through the running LangGraph's own `interrupt()`, so the graph
 *   pauses as it did (the same value; the id, a hash of the task's namespace, is new in every
 *   run, recorded or live), and the body never runs.
 * - A call whose fixture is such an interrupt, made while resume values are pending for it,
 *   is the resumed call: it has a fixture of its own, keyed by the call and those resume values
 *   (`resume`), so another answer is another fixture. Its outcome records how many resume values
 *   the body took (`resumed`); replay takes as many through `interrupt()` (which hands LangGraph
 *   the same resume writes) before it returns, or interrupts again.
 *
 * Calls that never interrupt keep their keys (no `resume` enters them).
 *
 * Relied on at call time (read where used, never before): the task scratchpad LangGraph puts in
 * a node's config (`configurable.__pregel_scratchpad`: `resume`, `interruptCounter`,
 * `nullResume`), the `GraphInterrupt` it throws (`name`, `interrupts[0].value`), and
 * `interrupt` exported by `@langchain/langgraph`. A scratchpad of another shape is a
 * `VcrConfigError` naming it, never a replay of the wrong answer.
 */
import { VcrConfigError } from "../../errors";
import { langgraphExport } from "./langgraph";
import { toTagged } from "./tagged";
import { sortDeep } from "../../canonical/json";
import type { ToolRequest } from "./request";
import { processWide } from "../../processWide";

const SCRATCHPAD = "__pregel_scratchpad";

/** The parts of LangGraph's task scratchpad read here. */
export interface TaskScratchpad {
  resume: unknown[];
  interruptCounter: number;
  nullResume?: unknown;
}

/** What an interrupt recorded: the value given to `interrupt()`, and its JSON response schema when one was given. */
export interface RecordedInterrupt {
  value: unknown;
  response_schema?: unknown;
}

/**
 * The scratchpad of the LangGraph task a tool call runs in; undefined outside LangGraph. One of
 * another shape is undefined too, unless `required` (a fixture records an interrupt, or the body
 * threw one): then it is a `VcrConfigError`. Tools that never interrupt never depend on it.
 */
export function taskScratchpad(config: unknown, { required = false }: { required?: boolean } = {}): TaskScratchpad | undefined {
  const configurable = (config as { configurable?: Record<string, unknown> } | undefined)?.configurable;
  const s = configurable?.[SCRATCHPAD] as Partial<TaskScratchpad> | undefined;
  if (s === undefined) return undefined;
  if (s === null || typeof s !== "object" || !Array.isArray(s.resume) || typeof s.interruptCounter !== "number") {
    if (!required) return undefined;
    throw new VcrConfigError(
      `this LangGraph's task scratchpad (config.configurable.${SCRATCHPAD}) has no "resume" array or no "interruptCounter" number.\n` +
        `  langchain-vcr reads them to replay interrupt() inside a tool, and will not guess.\n` +
        `  Fix: use a @langchain/langgraph version langchain-vcr supports (docs/compatibility.md), or report the version you use.`,
    );
  }
  return s as TaskScratchpad;
}

/** The resume values a call in this task can still take: the task's own not yet taken, then a `Command`'s resume for any task. */
export function pendingResumes(s: TaskScratchpad): unknown[] {
  const own = s.resume.slice(s.interruptCounter + 1);
  return s.nullResume === undefined ? own : [...own, s.nullResume];
}

/** The request of a resumed call: the interrupted call's request and the resume values it will take. */
export function resumedRequest(request: ToolRequest, pending: unknown[]): ToolRequest {
  return { ...request, resume: sortDeep(toTagged(pending, { path: "resume", forKey: true })) as unknown[] };
}

/** LangGraph's `GraphInterrupt` (from any copy of LangGraph: by name, as LangGraph itself tells it). */
export function isGraphInterrupt(e: unknown): e is { interrupts: RecordedInterrupt[] } {
  return (
    typeof e === "object" && e !== null && (e as { name?: unknown }).name === "GraphInterrupt" && Array.isArray((e as { interrupts?: unknown }).interrupts)
  );
}

/** The interrupt the body threw, for the fixture. */
export function encodeInterrupt(e: { interrupts: RecordedInterrupt[] }): RecordedInterrupt {
  const first = e.interrupts[0] ?? { value: undefined };
  const out: RecordedInterrupt = { value: toTagged(first.value, { path: "interrupt.value" }) };
  if (first.response_schema !== undefined) out.response_schema = toTagged(first.response_schema, { path: "interrupt.response_schema" });
  return out;
}

/** The wrapped tool calls of each task (by scratchpad) running now: calls that overlap share its resume values and interrupt counter. */
const running = processWide("tools.taskCalls.v1", () => new WeakMap<object, Set<TaskSlot>>());

/** One wrapped call's place in its task, from its start to its end. `overlapped`: another call of the task ran meanwhile. */
export interface TaskSlot {
  readonly scratch: TaskScratchpad | undefined;
  overlapped: boolean;
  leave(): void;
}

/**
 * Enters a call into its task, synchronously as it starts, so calls a ToolNode starts together
 * (createReactAgent's default runs a turn's calls in one task) see each other before any of them
 * looks up or runs. Calls one after another in a task never overlap.
 */
export function enterTask(scratch: TaskScratchpad | undefined): TaskSlot {
  if (!scratch) return { scratch, overlapped: false, leave: () => undefined };
  let calls = running.get(scratch);
  if (!calls) running.set(scratch, (calls = new Set()));
  const slot: TaskSlot = { scratch, overlapped: calls.size > 0, leave: () => void calls!.delete(slot) };
  for (const other of calls) other.overlapped = true;
  calls.add(slot);
  return slot;
}

/** Replaying an interrupt beside another call of the task would hand one call's resume values to another. */
export function sharedTaskError(tool: string): VcrConfigError {
  return new VcrConfigError(
    `tool ${JSON.stringify(tool)} runs beside other tool calls in one LangGraph task, and its fixture records an interrupt().\n` +
      `  Calls that run together in a task share its resume values and interrupt counter, so which call took which cannot be told on replay.\n` +
      `  Fix: run each tool call in a task of its own (${OWN_TASKS}) and record again.`,
  );
}

/** Recording a body that ran beside another call of the task while the interrupt counter moved: nothing is recorded, and this says why. */
export function sharedTaskWarning(tool: string): string {
  return (
    `tool ${JSON.stringify(tool)} ran beside other tool calls in one LangGraph task while interrupt() was used, so which call took which resume value cannot be told; nothing was recorded for it.\n` +
    `  Run each tool call in a task of its own: ${OWN_TASKS}.`
  );
}

/** What a miss of a call that runs beside others in its task adds: if the task used interrupt(), recording again records nothing for it. */
export function sharedTaskMissNote(tool: string): string {
  return (
    `langchain-vcr: note: tool ${JSON.stringify(tool)} runs beside other tool calls in one LangGraph task. If one of them calls interrupt(), which call took which resume value cannot be told, ` +
    `so nothing is recorded for these calls (the recording run warned "ran beside other tool calls"), and recording again will not help.\n` +
    `  Then run each tool call in a task of its own: ${OWN_TASKS}.`
  );
}

/** The ways to give each tool call a LangGraph task of its own. */
const OWN_TASKS = `createAgent from "langchain", createReactAgent({ ..., version: "v2" }), or, in a graph of your own, one Send per tool call`;

/**
 * Watches one body's run: `end()` says how many resume values it took (the task's interrupt
 * counter moved by its `interrupt()` calls, less the one that threw) and whether that is
 * `ambiguous`: another call of the task ran meanwhile and the counter moved, so which call took
 * what cannot be told.
 */
export function watchBody(slot: TaskSlot): { end(interrupted: boolean): { taken: number; ambiguous: boolean } } {
  const s = slot.scratch;
  if (!s) return { end: () => ({ taken: 0, ambiguous: false }) };
  const before = s.interruptCounter;
  return {
    end(interrupted) {
      const moved = s.interruptCounter - before;
      return { taken: Math.max(0, moved - (interrupted ? 1 : 0)), ambiguous: slot.overlapped && moved > 0 };
    },
  };
}

type InterruptFn = (value: unknown, options?: { responseSchema?: unknown }) => unknown;
let loaded: InterruptFn | undefined;

/**
 * Replays what the body did through LangGraph: takes `resumed` resume values (each `interrupt()`
 * returns one and hands LangGraph its resume write, as in the body), then, for an interrupted
 * call, throws its interrupt through `interrupt()` itself.
 */
export function replayInterrupts(tool: string, resumed: number, interrupt: RecordedInterrupt | undefined): void {
  if (resumed === 0 && interrupt === undefined) return;
  const fn = langgraphInterrupt();
  for (let i = 0; i < resumed; i++) fn(undefined);
  if (interrupt === undefined) return;
  fn(interrupt.value, interrupt.response_schema === undefined ? undefined : { responseSchema: interrupt.response_schema });
  throw new VcrConfigError(
    `the recorded interrupt of tool ${JSON.stringify(tool)} did not interrupt on replay: LangGraph handed its interrupt() a resume value the recording did not have.\n` +
      `  The interrupt value: ${JSON.stringify(interrupt.value)}. Replaying the tool's answer for it would be a guess.\n` +
      `  Fix: re-record the test (LANGCHAIN_VCR_MODE=record_always for it), which records the call as it now runs.`,
  );
}

/** `interrupt` of the project's @langchain/langgraph. */
function langgraphInterrupt(): InterruptFn {
  return (loaded ??= langgraphExport<InterruptFn>(
    "interrupt",
    "a tool fixture records a LangGraph interrupt(), which replay raises through LangGraph's own, so the graph pauses as it did when recorded",
  ));
}
