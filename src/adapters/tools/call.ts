/**
 * One tool call through the recorder: key it, look it up, and either replay the recorded
 * outcome (the body never runs) or run the body and record what it returned or threw.
 *
 * Tool mode `replay`: a hit replays; a miss follows the main mode (`replay_only` throws
 * `VcrMissError` from `lookup` before the body could run). Tool mode `execute`: the lookup
 * is `live`, so the body always runs; its outcome is written only where the main mode writes.
 */
import { isVcrError } from "../../errors";
import { appendNote } from "../../diagnose/appendNote";
import { currentTest, keepPassableError } from "../../scope";
import type { Lookup, Recorder } from "../../recorder";
import { damagedFixtureError } from "../../kinds/damaged";
import { toolProblem } from "../../kinds/tool";
import { unkeyableArgsError, unrecordableResultError } from "./messages";
import { decodeResponse, encodeResult, encodeThrow, type Replayed, type ToolResponse } from "./outcome";
import { commandOf } from "./command";
import { countingModelCalls, noteInnerModelCalls } from "./innerCalls";
import { captureCustom, emitCustom, encodeCustom, warnNestedCustom } from "./custom";
import { takeOff, type Flight } from "./concurrent";
import { branchOf } from "./branches";
import { baseToolRequest, nextToolRequest, type ToolRequest } from "./request";
import { UnrecordableValue } from "./tagged";
import {
  enterTask,
  encodeInterrupt,
  isGraphInterrupt,
  pendingResumes,
  replayInterrupts,
  resumedRequest,
  sharedTaskError,
  sharedTaskMissNote,
  sharedTaskWarning,
  taskScratchpad,
  watchBody,
  type TaskSlot,
} from "./interrupts";
import { log } from "../../log";
import { noteToolReplayed } from "../../runner/toolsFromOthers";
import { fixtureTitle } from "../../kinds";
import { recordedThisRun } from "../../runner/runStart";

/** The parts of a tool run manager this module uses. */
export interface ToolRunManager {
  handleToolEvent?(chunk: unknown): Promise<unknown> | unknown;
  handleToolError?(error: unknown): Promise<unknown> | unknown;
}

/** The parts of a tool call's config this module reads. */
export interface ToolCallConfig {
  toolCall?: { id?: unknown };
  toolCallId?: unknown;
  signal?: AbortSignal;
}

export type ToolBody = (parsed: unknown, runManager: unknown, config: unknown) => unknown;

export interface ToolCallContext {
  name: string;
  recorder: Recorder;
  /** Runs the original tool's `_call`. */
  body: ToolBody;
}

/** Replaces the original `_call(parsed, runManager, config)`; core does validation, callbacks and ToolMessage formatting around it. */
export async function callTool(ctx: ToolCallContext, parsed: unknown, runManager: unknown, config: unknown): Promise<unknown> {
  const cfg = (config ?? {}) as ToolCallConfig;
  const callId = currentCallId(cfg);
  let base: ToolRequest;
  try {
    base = baseToolRequest(ctx.name, parsed);
  } catch (e) {
    if (e instanceof UnrecordableValue) throw unkeyableArgsError(ctx.name, e);
    throw e;
  }
  const { request, key, giveBack } = nextToolRequest(base, ctx.recorder.config.dir);
  // entered at once, before any await: calls a ToolNode starts together see each other (interrupts.ts),
  // and identical calls are followed in the order they took their numbers (concurrent.ts)
  const slot = enterTask(taskScratchpad(cfg));
  const flight = takeOff(key, ctx.name, base.args, request.call ?? 1, branchOf(cfg));
  try {
    return await lookUpAndRun(ctx, request, slot, { parsed, runManager, cfg, callId, flight });
  } catch (e) {
    if (isGraphInterrupt(e))
      giveBack(); // it runs again on resume, as the same call: the same ordinal
    else if (isVcrError(e)) noteToolError(e);
    throw e;
  } finally {
    slot.leave();
    flight.leave();
  }
}

/** One call of a wrapped tool: what `_call` was given, and its flight among identical calls. */
interface ThisCall {
  parsed: unknown;
  runManager: unknown;
  cfg: ToolCallConfig;
  callId: string | undefined;
  flight: Flight;
}

async function lookUpAndRun(ctx: ToolCallContext, request: ToolRequest, slot: TaskSlot, call: ThisCall): Promise<unknown> {
  const live = ctx.recorder.toolMode() === "execute";
  const describe = `tool ${JSON.stringify(ctx.name)}`;
  const pending = slot.scratch ? pendingResumes(slot.scratch) : [];
  // the resumed call of an interrupted one: its own fixture, keyed by the resume values it takes (interrupts.ts)
  const resumedReq = pending.length ? resumedRequest(request, pending) : undefined;
  const resumedLookup = () => ctx.recorder.lookup("tool", resumedReq!, { describe: `${describe}, resumed`, live });
  // a call re-run with resume values pending (its node ran again after a later interrupt) may be
  // recorded under its resume key only: that fixture first, when there is one
  const early = resumedReq && ctx.recorder.findRecorded("tool", resumedReq, { describe: `${describe}, resumed`, live });
  if (early) return replay(ctx.name, early, call);
  const lookup = await ctx.recorder.lookup("tool", request, { describe, live }).catch((e: unknown) => {
    // a miss that recording again may not fix: calls sharing a task record nothing when interrupt() is used
    if (slot.overlapped && isVcrError(e) && e.code === "VCR_MISS") appendNote(e, sharedTaskMissNote(ctx.name));
    throw e;
  });
  if (!lookup.fixture) return runAndRecord(ctx, { lookup, slot, resumed: resumedReq && resumedLookup }, call);
  if (!interruptedBefore(lookup)) return replay(ctx.name, lookup, call);
  taskScratchpad(call.cfg, { required: true }); // a fixture that records an interrupt needs the scratchpad as it is known
  if (slot.overlapped) {
    const err = sharedTaskError(ctx.name);
    log.warn(err.message); // also on stderr: another call's interrupt, thrown beside it, is what the graph shows
    throw err;
  }
  if (!resumedReq) return replay(ctx.name, lookup, call);
  const resumed = await resumedLookup();
  if (resumed.fixture) return replay(ctx.name, resumed, call);
  return runAndRecord(ctx, { lookup: resumed, slot }, call);
}

/** Whether a hit's recorded outcome is a LangGraph interrupt (a damaged response is left to `replay` to report). */
function interruptedBefore(lookup: Lookup): boolean {
  const r = lookup.fixture?.response;
  return typeof r === "object" && r !== null && "interrupt" in r;
}

/**
 * Where a body's outcome goes: `lookup`; a body that took resume values while `lookup` is the
 * call's own key (its interrupt was not read: `record_always`, tool mode `execute`, or its
 * fixture is gone) goes to the `resumed` key instead, as replay looks it up there.
 */
interface Target {
  lookup: Lookup;
  slot: TaskSlot;
  resumed?: () => Promise<Lookup>;
}

async function runAndRecord(ctx: ToolCallContext, target: Target, call: ThisCall): Promise<unknown> {
  const { parsed, runManager, cfg, callId } = call;
  let events: unknown[] | undefined;
  let value: unknown;
  const watch = watchBody(target.slot);
  const inner = { models: 0, embeddings: 0 };
  // what the body emits on the side (config.writer, custom events), kept where the outcome is written
  const custom = target.lookup.policy.writes === "never" ? undefined : captureCustom(cfg, runManager, () => events?.length ?? 0);
  try {
    value = await countingModelCalls(inner, async () => {
      const out = await ctx.body(parsed, custom?.runManager ?? runManager, custom?.config ?? cfg);
      if (!isGeneratorLike(out)) return out;
      events = [];
      return drain(out, runManager as ToolRunManager | undefined, events);
    });
  } catch (e) {
    if (isGraphInterrupt(e) && !cfg.signal?.aborted && taskScratchpad(cfg, { required: true })) {
      await recordInTask(ctx, target, call, watch.end(true), () => ({ interrupt: encodeInterrupt(e), ...encodeCustom(custom) }));
      throw e;
    }
    const run = watch.end(false);
    if (!isToolOutcome(e, cfg)) {
      ctx.recorder.abandon(target.lookup);
      throw e;
    }
    await recordInTask(ctx, target, call, run, () => ({ ...encodeThrow(e, events), ...encodeCustom(custom) }));
    throw e;
  } finally {
    warnNestedCustom(ctx.name, custom, target.lookup.file);
  }
  await recordInTask(ctx, target, call, watch.end(false), () => ({ ...encodeResult(value, events, callId), ...encodeCustom(custom) }));
  if (target.lookup.policy.writes !== "never") noteInnerModelCalls(ctx.name, inner, target.lookup.file);
  return value;
}

/** `recordOutcome` for a body run in a LangGraph task: with the resume values it took, under the key replay will look up. */
async function recordInTask(
  ctx: ToolCallContext,
  target: Target,
  call: ThisCall,
  run: { taken: number; ambiguous: boolean },
  encode: () => ToolResponse,
): Promise<void> {
  let lookup = target.lookup;
  if (run.ambiguous) {
    ctx.recorder.abandon(lookup);
    if (lookup.policy.writes !== "never") log.warn(sharedTaskWarning(ctx.name)); // a mode that never writes (bypass) had nothing to record
    return;
  }
  if (run.taken > 0 && target.resumed) {
    ctx.recorder.abandon(lookup);
    lookup = await target.resumed();
    if (lookup.fixture) return; // recorded already (record_or_replay never replaces a fixture)
  }
  recordOutcome(ctx, lookup, call.flight, () => ({ ...encode(), ...(run.taken > 0 ? { resumed: run.taken } : {}) }));
}

/** Writes (per mode) the encoded outcome; an unrecordable outcome writes nothing and fails. */
function recordOutcome(ctx: ToolCallContext, lookup: Lookup, flight: Flight, encode: () => ToolResponse): void {
  if (lookup.policy.writes === "never") {
    ctx.recorder.record(lookup, null); // counts as bypassed, writes nothing
    return;
  }
  let response: ToolResponse;
  try {
    response = encode();
  } catch (e) {
    ctx.recorder.abandon(lookup);
    if (e instanceof UnrecordableValue) {
      throw unrecordableResultError(ctx.name, e, { file: lookup.file, args: (lookup.request as ToolRequest).args });
    }
    throw e;
  }
  if (ctx.recorder.record(lookup, response)) flight.land(response, true);
}

async function replay(name: string, lookup: Lookup, here: ThisCall): Promise<unknown> {
  let out: Replayed;
  try {
    out = decodeResponse(lookup.fixture!.response, here.callId);
  } catch (e) {
    // the same rule validate applies (KINDS.tool.responseProblem runs decodeResponse), worded by the one builder
    throw damagedFixtureError(lookup, toolProblem(e), { tool: name }, e);
  }
  noteToolReplayed(lookup, fixtureTitle); // said if the test fails
  here.flight.land(lookup.fixture!.response, recordedThisRun(lookup.fixture!.recordedAt));
  // what the body emitted on the side, before its answer (a generator's, between its chunks: replayGenerator)
  if (out.events === undefined) await emitCustom(out.custom, here.cfg, here.runManager);
  // what the body took from LangGraph and the interrupt it raised go through LangGraph itself
  replayInterrupts(name, out.resumed, out.kind === "interrupt" ? out.interrupt : undefined);
  if (out.kind === "command") out = { kind: "return", value: commandOf(out.command, name, lookup.file), events: out.events, resumed: out.resumed };
  if (out.kind === "throw") noteReplayedError(name, out.error);
  if (out.events !== undefined) return replayGenerator(out, here);
  if (out.kind === "throw") throw out.error;
  return (out as { value: unknown }).value;
}

/** Keeps an error a tool fixture replayed, for a model miss of the test that follows from it (Scope.replayedToolErrors). */
function noteReplayedError(tool: string, e: unknown): void {
  const test = currentTest();
  if (test && e instanceof Error) (test.replayedToolErrors ??= []).push({ tool, name: e.name, className: e.constructor.name, message: e.message });
}

/** Core consumes a generator returned by `_call` and fires `handleToolEvent` per chunk, as it did when recording. */
async function* replayGenerator(out: Replayed, here: ThisCall): AsyncGenerator<unknown, unknown, unknown> {
  const events = out.events ?? [];
  for (let i = 0; i < events.length; i++) {
    await emitCustom(out.custom, here.cfg, here.runManager, i, i);
    yield events[i];
  }
  await emitCustom(out.custom, here.cfg, here.runManager, events.length);
  if (out.kind === "throw") throw out.error;
  return (out as { value: unknown }).value;
}

/** Consumes a generator the way core does (`consumeAsyncGenerator`), keeping its chunks. */
async function drain(gen: Iterator<unknown> | AsyncIterator<unknown>, runManager: ToolRunManager | undefined, events: unknown[]): Promise<unknown> {
  try {
    let step = await gen.next();
    while (!step.done) {
      events.push(step.value);
      try {
        await runManager?.handleToolEvent?.(step.value);
      } catch (streamError) {
        await runManager?.handleToolError?.(streamError);
      }
      step = await gen.next();
    }
    return step.value;
  } finally {
    await gen.return?.(undefined);
  }
}

/** Core treats any object with a `next` method as a generator to consume (`isAsyncGenerator`). */
function isGeneratorLike(x: unknown): x is AsyncIterator<unknown> {
  return x !== null && typeof x === "object" && typeof (x as { next?: unknown }).next === "function";
}

/**
 * Whether a throw is the tool's own outcome (recorded and replayed) rather than control flow:
 * not our own errors, not an abort, not a LangGraph interrupt or other bubble-up.
 */
function isToolOutcome(e: unknown, cfg: ToolCallConfig): boolean {
  if (isVcrError(e)) return false;
  if (cfg.signal?.aborted) return false;
  if (typeof e === "object" && e !== null && (e as { is_bubble_up?: unknown }).is_bubble_up === true) return false;
  return true;
}

function currentCallId(cfg: ToolCallConfig): string | undefined {
  const id = cfg.toolCall?.id ?? cfg.toolCallId;
  return typeof id === "string" && id !== "" ? id : undefined;
}

/** Keeps a langchain-vcr error a tool call threw, for the test's next model miss (Scope.toolErrors). */
function noteToolError(e: Error): void {
  const test = currentTest();
  if (test) keepPassableError(test, e);
}
