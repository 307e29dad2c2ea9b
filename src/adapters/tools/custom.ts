/**
 * What a tool body emits on the side while it runs, besides its answer: LangGraph custom stream
 * chunks (`config.writer(chunk)`, streamMode "custom") and custom events
 * (`dispatchCustomEvent(name, data, config)` from `@langchain/core/callbacks/dispatch`, streamEvents
 * v2's `on_custom_event`). Replay never runs the body, so without this they were lost on replay.
 *
 * Recorded, in the order the body emitted them, as the response's `custom`:
 * `[{ "writer": <tagged chunk> }, { "event": "search_progress", "data": <tagged> }]`, each with
 * `at` (how many chunks an async-generator tool had yielded before it) when that is not 0.
 * Replayed, in that order, through the current call's `config.writer` and the tool run's own
 * callbacks (as `dispatchCustomEvent` reaches them) before the recorded answer.
 *
 * How the recording sees them:
 * - the writer: the body gets a config whose `writer` (and `configurable.writer`, where a LangGraph
 *   puts it there) records each chunk and passes it on;
 * - custom events: `dispatchCustomEvent` hands an event to the handlers of the tool run's child
 *   callback manager (`runManager.getChild()`, which the `tool()` helper gives the body as its config's
 *   callbacks), with the tool run's id. The body gets a view of its run manager whose inheritable
 *   handlers add one that records those events. An event a run inside the body dispatched (a chain or
 *   a subagent the tool called) has that run's id: it is counted, not recorded (replay would have no
 *   run to dispatch it on), and the recording warns.
 */
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { log } from "../../log";
import { fromTagged, toTagged } from "./tagged";
import { processWide } from "../../processWide";

/** One recorded emission: a custom stream chunk or a custom event; `at`: generator chunks yielded before it, when not 0. */
export type RecordedCustom = ({ writer: unknown } | { event: string; data: unknown }) & { at?: number };

/** The parts of a tool run manager this module uses (core's `CallbackManagerForToolRun`). */
interface RunManagerLike {
  runId?: string;
  inheritableHandlers?: unknown[];
  getChild?(): { handleCustomEvent?(name: string, data: unknown, runId: string): Promise<unknown> | unknown };
}

type Writer = (chunk: unknown) => unknown;
interface WriterConfig {
  writer?: unknown;
  configurable?: Record<string, unknown> & { writer?: unknown };
}

/** What one recorded body emitted, and the config and run manager to run it with. */
export interface CustomCapture {
  config: unknown;
  runManager: unknown;
  /** The emissions so far, in order (values as the body gave them). */
  readonly emitted: { writer?: unknown; event?: string; data?: unknown; at: number }[];
  /** Custom events runs inside the body dispatched (not recorded). */
  nested: number;
}

/**
 * The config and run manager to run a body being recorded with, so that what it emits is kept
 * (`emitted`) and still reaches the caller. `yielded`: how many chunks a generator body has yielded so far.
 */
export function captureCustom(config: unknown, runManager: unknown, yielded: () => number): CustomCapture {
  const capture: CustomCapture = { config, runManager, emitted: [], nested: 0 };
  const wrap = (writer: Writer): Writer =>
    function recordingWriter(chunk: unknown) {
      capture.emitted.push({ writer: chunk, at: yielded() });
      return writer(chunk);
    };
  const cfg = config as WriterConfig | undefined;
  if (cfg && typeof cfg === "object") {
    const out: WriterConfig = { ...cfg };
    if (typeof cfg.writer === "function") out.writer = wrap(cfg.writer as Writer);
    if (cfg.configurable && typeof cfg.configurable.writer === "function")
      out.configurable = { ...cfg.configurable, writer: wrap(cfg.configurable.writer as Writer) };
    capture.config = out;
  }
  const rm = runManager as RunManagerLike | undefined;
  if (rm && typeof rm === "object" && typeof rm.runId === "string" && Array.isArray(rm.inheritableHandlers)) {
    const toolRun = rm.runId;
    const handler = new CustomEventRecorder((name, data, runId) => {
      if (runId === toolRun) capture.emitted.push({ event: name, data, at: yielded() });
      else capture.nested++;
    });
    // a view, not a change: core hands this run's handler arrays to other runs too
    capture.runManager = Object.create(rm, { inheritableHandlers: { value: [...rm.inheritableHandlers, handler], writable: true, enumerable: true } });
  }
  return capture;
}

/** Records custom events; awaited, so every event the body dispatched is in before its answer is recorded. */
class CustomEventRecorder extends BaseCallbackHandler {
  name = "langchain_vcr_custom_events";
  constructor(private readonly onEvent: (name: string, data: unknown, runId: string) => void) {
    super({ _awaitHandler: true });
  }
  handleCustomEvent(name: string, data: unknown, runId: string): void {
    this.onEvent(name, data, runId);
  }
}

/** The fixture's `custom`, or nothing when the body emitted nothing. Throws `UnrecordableValue` for a value that cannot replay faithfully. */
export function encodeCustom(capture: CustomCapture | undefined): { custom?: RecordedCustom[] } {
  if (!capture?.emitted.length) return {};
  const custom = capture.emitted.map((e, i): RecordedCustom => {
    const at = e.at > 0 ? { at: e.at } : {};
    if (e.event === undefined) return { writer: toTagged(e.writer, { path: `custom[${i}].writer` }), ...at };
    return { event: e.event, data: toTagged(e.data, { path: `custom[${i}].data` }), ...at };
  });
  return { custom };
}

/** A fixture's `custom`, decoded. Throws a plain Error (the caller adds the file) when it is malformed. */
export function decodeCustom(custom: unknown): RecordedCustom[] | undefined {
  if (custom === undefined) return undefined;
  if (!Array.isArray(custom)) throw new Error(`"custom" is not an array`);
  return custom.map((c: unknown, i): RecordedCustom => {
    if (c === null || typeof c !== "object" || Array.isArray(c)) throw new Error(`"custom[${i}]" is not an object`);
    const r = c as Record<string, unknown>;
    const at = r.at ?? 0;
    if (typeof at !== "number" || !Number.isInteger(at) || at < 0) throw new Error(`"custom[${i}].at" is not a count`);
    if ("writer" in r) return { writer: fromTagged(r.writer), at };
    if (typeof r.event === "string" && "data" in r) return { event: r.event, data: fromTagged(r.data), at };
    throw new Error(`"custom[${i}]" has neither "writer" nor "event" and "data"`);
  });
}

/**
 * Emits the recorded entries whose `at` is in [from, to] (every entry: `to` = Infinity), in order,
 * as the body did: a chunk through the current call's writer, an event on the tool run.
 */
export async function emitCustom(custom: readonly RecordedCustom[] | undefined, config: unknown, runManager: unknown, from = 0, to = Infinity): Promise<void> {
  if (!custom) return;
  const cfg = config as WriterConfig | undefined;
  const writer = [cfg?.writer, cfg?.configurable?.writer].find((w): w is Writer => typeof w === "function");
  const rm = runManager as RunManagerLike | undefined;
  for (const c of custom) {
    const at = c.at ?? 0;
    if (at < from || at > to) continue;
    if ("writer" in c) writer?.(c.writer);
    else if (typeof rm?.runId === "string") await rm.getChild?.().handleCustomEvent?.(c.event, c.data, rm.runId);
  }
}

/** Tools already warned about in this process (once each). */
const warned = processWide("tools.nestedCustomEvents.v1", () => new Set<string>());

/** Says once per tool that custom events runs inside its body dispatched were not recorded. */
export function warnNestedCustom(tool: string, capture: CustomCapture | undefined, file: string): void {
  if (!capture?.nested || warned.has(tool)) return;
  warned.add(tool);
  log.warn(
    `tool ${JSON.stringify(tool)}: ${capture.nested} custom event(s) were dispatched by runs inside its body (a chain or an agent it called), not on the tool's own run, while it was recorded (fixture ${file}).\n` +
      `  Replay returns the recorded answer without running the body, so those events are not emitted on replay; the tool's own custom events and config.writer chunks are.\n` +
      `  To keep them, dispatch them from the tool itself (dispatchCustomEvent(name, data, config) with the tool's config), or run this tool's body on replay: withVcr({ toolMode: "execute" }, …) (docs/tools-and-agents.md).`,
  );
}
