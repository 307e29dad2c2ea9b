/**
 * A tool that returns a LangGraph `Command` (its `update` written to the graph's state, its
 * `goto` followed): LangChain's own `todoListMiddleware` (`write_todos`), deepagents' file tools,
 * and any tool of a user's graph that updates state. Recorded as `{ "command": { update, goto?,
 * graph?, resume? } }`, each tagged (`tagged.ts`: the update's messages included, a ToolMessage
 * answering the call written without its id); replayed as a `Command` of the project's LangGraph,
 * which the graph applies as it applied the recorded one.
 */
import { toTagged, fromTagged, UnrecordableValue } from "./tagged";
import { langgraphExport } from "./langgraph";

export interface RecordedCommand {
  update?: unknown;
  /** Node names (a `Send` is not recorded: `gotoNode`). */
  goto?: unknown;
  graph?: string;
  resume?: unknown;
}

/** What LangGraph's `Command` holds (any copy of LangGraph: recognized by `lg_name`, as LangGraph's own isCommand does). */
interface CommandLike {
  lg_name: "Command";
  update?: unknown;
  goto?: unknown;
  graph?: unknown;
  resume?: unknown;
}

type CommandClass = new (args: RecordedCommand) => unknown;

/** Whether `x` is a LangGraph `Command` (of any copy of LangGraph). */
export function isCommand(x: unknown): x is CommandLike {
  if (typeof x !== "object" || x === null) return false;
  const proto = Object.getPrototypeOf(x);
  return proto !== Object.prototype && proto !== null && (x as { lg_name?: unknown }).lg_name === "Command";
}

/** The command as a fixture holds it. Throws `UnrecordableValue` for a value in it that cannot replay faithfully. */
export function encodeCommand(c: CommandLike, currentCallId: string | undefined): RecordedCommand {
  const out: RecordedCommand = {};
  if (c.update !== undefined) out.update = toTagged(c.update, { path: "result.update", currentCallId });
  const goto = Array.isArray(c.goto) ? c.goto : c.goto === undefined ? [] : [c.goto];
  if (goto.length) out.goto = toTagged(goto.map(gotoNode), { path: "result.goto", currentCallId });
  if (typeof c.graph === "string") out.graph = c.graph;
  if (c.resume !== undefined) out.resume = toTagged(c.resume, { path: "result.resume", currentCallId });
  return out;
}

/**
 * A node name of the goto as it is; a `Send` is refused: replay builds the Command from the
 * LangGraph `require()` finds, whose Send, in an ES-module project, is the CommonJS build's, which
 * the graph's `instanceof Send` would not see (a handoff that silently went nowhere).
 */
function gotoNode(g: unknown, i: number): unknown {
  if (typeof g === "object" && g !== null && (g as { lg_name?: unknown }).lg_name === "Send") {
    throw new UnrecordableValue(`result.goto[${i}]`, "a LangGraph Send in a Command's goto (replay could not hand it to the graph as one)");
  }
  return g;
}

/** The recorded command's parts, decoded (a malformed one throws); the Command itself is made by `commandOf`. */
export function decodeCommand(rec: unknown, currentCallId: string | undefined): RecordedCommand {
  if (rec === null || typeof rec !== "object" || Array.isArray(rec)) throw new Error(`"command" is not an object`);
  const r = rec as Record<string, unknown>;
  const out: RecordedCommand = {};
  if (r.update !== undefined) out.update = fromTagged(r.update, { currentCallId });
  if (r.goto !== undefined) {
    out.goto = fromTagged(r.goto, { currentCallId });
    if (!Array.isArray(out.goto)) throw new Error(`"command.goto" is not an array`);
  }
  if (r.graph !== undefined) {
    if (typeof r.graph !== "string") throw new Error(`"command.graph" is not a string`);
    out.graph = r.graph;
  }
  if (r.resume !== undefined) out.resume = fromTagged(r.resume, { currentCallId });
  return out;
}

/** A `Command` of the project's LangGraph with the recorded parts (`file`: the fixture, for the error when there is no LangGraph). */
export function commandOf(parts: RecordedCommand, tool: string, file: string): unknown {
  const Command = langgraphExport<CommandClass>(
    "Command",
    `fixture ${file} of tool ${JSON.stringify(tool)} records a LangGraph Command, which replay hands back as a Command of LangGraph's own, so the graph applies it as it applied the recorded one`,
  );
  return new Command(parts);
}
