/**
 * `vcr.install()` for tools: `StructuredTool.prototype.invoke` of each copy of core is
 * wrapped once. While a Vcr is installed, an invoke whose input is a `ToolCall` (a
 * `{ type: "tool_call", id, name, args }`, which is what createAgent's ToolNode and
 * LangGraph's ToolNode pass for a call the model made) runs core's invoke on the tool's
 * `vcr.tool()` wrapper, so it is keyed, recorded and replayed exactly as an explicitly
 * wrapped tool's call (same fixture). Plain arguments (`tool.invoke({ city: "Paris" })`), a
 * tool wrapped already by any Vcr, and every call when no Vcr is installed run core's code
 * untouched.
 */
import { isWrappedTool } from "../adapters/tools/index";
import { patchOnce } from "../internals/patchOnce";
import { installedVcr } from "../internals/state";

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
        if (!vcr || !isToolCall(input) || isWrappedTool(this) || typeof (this as { _call?: unknown })._call !== "function") {
          return original.call(this, input, config);
        }
        return original.call(vcr.tool(this), input, config);
      },
  );
}

/** As core's `_isToolCall`: a model-initiated call carries `type: "tool_call"`. */
function isToolCall(x: unknown): boolean {
  return typeof x === "object" && x !== null && (x as { type?: unknown }).type === "tool_call";
}
