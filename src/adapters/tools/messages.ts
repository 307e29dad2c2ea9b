/** The errors the tools adapter throws: what happened; the facts; what is supported; the fix. */
import { VcrConfigError, VcrRecordError } from "../../errors";
import type { UnrecordableValue } from "./tagged";

const SUPPORTED =
  "langchain-vcr records strings, numbers, booleans, null, arrays, plain objects, content blocks, " +
  "[content, artifact] tuples, ToolMessage, a LangGraph Command (its update, goto and resume: the same types, and LangChain messages), " +
  "Date, bigint, Map, Set, undefined, NaN and ±Infinity (nested too).";

/** The body's result (or what it threw) cannot be replayed faithfully: nothing was written. */
export function unrecordableResultError(tool: string, bad: UnrecordableValue, facts: { file: string; args: unknown }): VcrRecordError {
  // custom[i]: a chunk the body wrote to config.writer or the data of a custom event it dispatched (custom.ts)
  const what = bad.path.startsWith("custom[") ? "emitted custom stream output (config.writer or dispatchCustomEvent)" : "returned a value";
  return new VcrRecordError(
    [
      `tool ${JSON.stringify(tool)} ${what} that cannot be recorded faithfully: ${bad.what} at ${bad.path}.`,
      `  tool:    ${tool}`,
      `  args:    ${short(facts.args)}`,
      `  fixture: ${facts.file} (not written)`,
      `  ${SUPPORTED}`,
      `  Fix it: make the tool ${bad.path.startsWith("custom[") ? "emit" : "return"} plain data (convert ${bad.path} to one of the types above), ` +
        `or let this tool always run: wired explicitly, don't pass it to vcr.tool()/vcr.tools(); under vcr.install(), which reaches every tool, ` +
        `call it inside withVcr({ mode: "bypass" }, …), e.g. a LangGraph node (state, config) => withVcr({ mode: "bypass" }, () => toolNode.invoke(state, config)), ` +
        `or, in createAgent, a middleware: createMiddleware({ name: "RunTool", wrapToolCall: (req, next) => req.toolCall.name === ${JSON.stringify(tool)} ? withVcr({ mode: "bypass" }, () => next(req)) : next(req) }) (the models keep replaying).`,
    ].join("\n"),
    { cause: bad },
  );
}

/** The parsed arguments hold something a request key cannot hold (only possible for direct invokes). */
export function unkeyableArgsError(tool: string, bad: UnrecordableValue): VcrRecordError {
  return new VcrRecordError(
    [
      `tool ${JSON.stringify(tool)} was called with arguments that cannot be part of a fixture key: ${bad.what} at ${bad.path}.`,
      `  tool:    ${tool}`,
      `  ${SUPPORTED}`,
      `  Fix it: pass plain data as the tool's arguments, or leave this tool unwrapped (don't pass it to vcr.tool()).`,
    ].join("\n"),
    { cause: bad },
  );
}

/** `vcr.tool()` was given something that is not a LangChain StructuredTool. */
export function notAToolError(tool: unknown): VcrConfigError {
  const what =
    tool === null || typeof tool !== "object"
      ? (JSON.stringify(tool) ?? String(tool))
      : `${(tool as object).constructor?.name ?? "an object"}${typeof (tool as { name?: unknown }).name === "string" ? ` named ${JSON.stringify((tool as { name: string }).name)}` : ""}`;
  return new VcrConfigError(
    [
      `vcr.tool() needs a LangChain tool (StructuredTool, DynamicStructuredTool, DynamicTool or the result of tool(...)); got ${what}.`,
      `  It has no _call() method, which is where langchain-vcr replays the tool's body.`,
      `  Fix it: build the tool with tool(fn, { name, description, schema }) from "@langchain/core/tools" (a runnable.asTool() is not supported) and wrap that.`,
    ].join("\n"),
  );
}

function short(v: unknown, max = 300): string {
  let s: string;
  try {
    s = JSON.stringify(v) ?? String(v);
  } catch {
    s = String(v);
  }
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}
