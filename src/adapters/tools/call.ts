/**
 * One tool call through the recorder: key it, look it up, and either replay the recorded
 * outcome (the body never runs) or run the body and record what it returned or threw.
 *
 * Tool mode `replay`: a hit replays; a miss follows the main mode (`replay_only` throws
 * `VcrMissError` from `lookup` before the body could run). Tool mode `execute`: the lookup
 * is `live`, so the body always runs; its outcome is written only where the main mode writes.
 */
import { isVcrError } from "../../errors";
import type { Lookup, Recorder } from "../../recorder";
import { damagedFixtureError } from "../../kinds/damaged";
import { toolProblem } from "../../kinds/tool";
import { unkeyableArgsError, unrecordableResultError } from "./messages";
import { decodeResponse, encodeResult, encodeThrow, type Replayed, type ToolResponse } from "./outcome";
import { baseToolRequest, nextToolRequest, type ToolRequest } from "./request";
import { UnrecordableValue } from "./tagged";

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
  const request = nextToolRequest(base, ctx.recorder.config.dir);
  const live = ctx.recorder.toolMode() === "execute";
  const lookup = await ctx.recorder.lookup("tool", request, { describe: `tool ${JSON.stringify(ctx.name)}`, live });
  if (lookup.fixture) return replay(ctx.name, lookup, callId);
  return runAndRecord(ctx, lookup, parsed, runManager, cfg, callId);
}

async function runAndRecord(
  ctx: ToolCallContext,
  lookup: Lookup,
  parsed: unknown,
  runManager: unknown,
  cfg: ToolCallConfig,
  callId: string | undefined,
): Promise<unknown> {
  let events: unknown[] | undefined;
  let value: unknown;
  try {
    value = await ctx.body(parsed, runManager, cfg);
    if (isGeneratorLike(value)) {
      events = [];
      value = await drain(value, runManager as ToolRunManager | undefined, events);
    }
  } catch (e) {
    if (!isToolOutcome(e, cfg)) {
      ctx.recorder.abandon(lookup);
      throw e;
    }
    recordOutcome(ctx, lookup, () => encodeThrow(e, events));
    throw e;
  }
  recordOutcome(ctx, lookup, () => encodeResult(value, events, callId));
  return value;
}

/** Writes (per mode) the encoded outcome; an unrecordable outcome writes nothing and fails. */
function recordOutcome(ctx: ToolCallContext, lookup: Lookup, encode: () => ToolResponse): void {
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
  ctx.recorder.record(lookup, response);
}

function replay(name: string, lookup: Lookup, callId: string | undefined): unknown {
  let out: Replayed;
  try {
    out = decodeResponse(lookup.fixture!.response, callId);
  } catch (e) {
    // the same rule validate applies (KINDS.tool.responseProblem runs decodeResponse), worded by the one builder
    throw damagedFixtureError(lookup, toolProblem(e), { tool: name }, e);
  }
  if (out.events !== undefined) return replayGenerator(out);
  if (out.kind === "throw") throw out.error;
  return out.value;
}

/** Core consumes a generator returned by `_call` and fires `handleToolEvent` per chunk, as it did when recording. */
async function* replayGenerator(out: Replayed): AsyncGenerator<unknown, unknown, unknown> {
  for (const e of out.events ?? []) yield e;
  if (out.kind === "throw") throw out.error;
  return out.value;
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
