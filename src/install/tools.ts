/**
 * `vcr.install()` for tools: `StructuredTool.prototype.invoke` of each copy of core is
 * wrapped once. While a Vcr is installed, an invoke whose input is a `ToolCall` (a
 * `{ type: "tool_call", id, name, args }`, which is what createAgent's ToolNode and
 * LangGraph's ToolNode pass for a call the model made) runs core's invoke on the tool's
 * `vcr.tool()` wrapper, so it is keyed, recorded and replayed exactly as an explicitly
 * wrapped tool's call (same fixture). Plain arguments (`tool.invoke({ city: "Paris" })`), a
 * tool wrapped already by any Vcr, and every call when no Vcr is installed run core's code
 * untouched.
 *
 * A `runnable.asTool()` (core's RunnableToolLike, which ToolNode accepts beside tools) has no
 * `_call` to wrap: a `ToolCall` to it runs, in its place, a DynamicStructuredTool of the same
 * name, description and schema whose body is the runnable's own invoke, through that tool's
 * `vcr.tool()` wrapper (one per runnable). Its output becomes the ToolMessage ToolNode would make
 * (a string as it is, anything else as JSON). Before, its body ran on every replay.
 */
import { isWrappedTool } from "../adapters/tools/index";
import { patchOnce } from "../internals/patchOnce";
import { installedVcr } from "../internals/state";
import { warnIfUninstalledInThisFile } from "./afterUninstall";

const PATCHED = Symbol.for("langchain-vcr.patched.toolInvoke");

type Invoke = (this: object, input: unknown, config?: unknown) => Promise<unknown>;

export function installToolPatch(proto: object): void {
  patchOnce<Invoke>(
    proto,
    "invoke",
    PATCHED,
    (original) =>
      function (this: object, input: unknown, config?: unknown) {
        const vcr = installedVcr();
        if (!vcr && isToolCall(input) && !isWrappedTool(this)) warnIfUninstalledInThisFile("tool", this.constructor.name);
        if (!vcr || !isToolCall(input) || isWrappedTool(this) || typeof (this as { _call?: unknown })._call !== "function") {
          return original.call(this, input, config);
        }
        return original.call(vcr.tool(this), input, config);
      },
  );
}

const PATCHED_RUNNABLE = Symbol.for("langchain-vcr.patched.runnableToolInvoke");

/** Core's DynamicStructuredTool, as much of it as is used here. */
type DynamicToolClass = new (fields: {
  name: string;
  description: string;
  schema: unknown;
  func: (input: unknown, runManager?: unknown, config?: unknown) => Promise<unknown>;
}) => object;

/** The tool that stands in for each RunnableToolLike (its fixtures' tool). */
const standIns = new WeakMap<object, object>();

export function installRunnableToolPatch(proto: object, DynamicStructuredTool: DynamicToolClass): void {
  patchOnce<Invoke>(
    proto,
    "invoke",
    PATCHED_RUNNABLE,
    (original) =>
      function (this: object, input: unknown, config?: unknown) {
        const vcr = installedVcr();
        if (!vcr && isToolCall(input)) warnIfUninstalledInThisFile("tool", this.constructor.name);
        if (!vcr || !isToolCall(input)) return original.call(this, input, config);
        let standIn = standIns.get(this);
        if (!standIn) {
          const runnable = this as { name: string; description?: string; schema: unknown };
          standIn = new DynamicStructuredTool({
            name: runnable.name,
            description: runnable.description ?? "",
            schema: runnable.schema,
            func: async (args, _runManager, callConfig) => asToolMessageContent(await original.call(this, args, callConfig)),
          });
          standIns.set(this, standIn);
        }
        return (vcr.tool(standIn as never) as unknown as { invoke: Invoke }).invoke(input, config);
      },
  );
}

/** What ToolNode makes of a runnable's output: a ToolMessage or Command as it is, a string as it is, anything else as JSON. */
function asToolMessageContent(output: unknown): unknown {
  if (typeof output === "string" || isDirect(output)) return output;
  return JSON.stringify(output);
}

/** As core's `isDirectToolOutput`: a ToolMessage, a LangGraph Command. */
function isDirect(output: unknown): boolean {
  return typeof output === "object" && output !== null && (output as { lc_direct_tool_output?: unknown }).lc_direct_tool_output === true;
}

/** As core's `_isToolCall`: a model-initiated call carries `type: "tool_call"`. */
function isToolCall(x: unknown): boolean {
  return typeof x === "object" && x !== null && (x as { type?: unknown }).type === "tool_call";
}
