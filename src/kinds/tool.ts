/** The `tool` kind: one tool body run through `vcr.tool(t)`; its response is what the body returned or threw. */
import { decodeResponse } from "../adapters/tools/outcome";
import { contentText, indent, isRec, json } from "./text";
import type { KindSpec } from "./types";
import { binaryLabel } from "./binaryText";

/** The problem of a tool response `decodeResponse` refused with `e`. */
export function toolProblem(e: unknown): string {
  return `has a "response" replay cannot use: ${(e as Error)?.message ?? String(e)}`;
}

export const tool: KindSpec = {
  name: "tool",
  shape: `one of { "result" } | { "toolMessage" } | { "error": { "name", "message" } } | { "thrown" } | { "interrupt": { "value" } } | { "command": { "update"?, "goto"?, "graph"?, "resume"? } }, optionally with "events", "resumed" and "custom"`,
  responseProblem(response) {
    // judged by replay's own decoder, so validate can never pass what replay refuses
    try {
      decodeResponse(response, undefined);
      return undefined;
    } catch (e) {
      return toolProblem(e);
    }
  },
  render(req, res, raw, out) {
    out.push(`  tool:     ${String(req.tool ?? req.name ?? "?")}${typeof req.call === "number" ? `  (identical call #${req.call} in its test)` : ""}`);
    out.push("arguments:", indent(req.args === undefined ? "(none)" : json(req.args), "  "));
    if (req.resume !== undefined) out.push("resumed with:", indent(json(req.resume), "  "));
    out.push("answer:");
    if (typeof res.resumed === "number" && res.resumed > 0) out.push(`  (after taking ${res.resumed} LangGraph resume value(s))`);
    if ("result" in res) out.push("  returned:", indent(json(res.result), "    "));
    else if (isRec(res.toolMessage)) {
      const m = res.toolMessage;
      const text = typeof m.content === "string" ? (binaryLabel(m.content) ?? m.content) : contentText(m.content); // a file's bytes as its label
      out.push(`  returned a ToolMessage${m.status ? ` (status ${String(m.status)})` : ""}:`, indent(text, "    "));
      if (m.artifact !== undefined) out.push("  artifact:", indent(json(m.artifact), "    "));
    } else if (isRec(res.error)) {
      out.push(`  threw ${String(res.error.class ?? res.error.name)}: ${String(res.error.message)}`);
    } else if ("thrown" in res) out.push("  threw a non-Error:", indent(json(res.thrown), "    "));
    else if (isRec(res.interrupt)) out.push("  interrupted the graph (LangGraph interrupt()) with:", indent(json(res.interrupt.value), "    "));
    else if (isRec(res.command)) {
      const c = res.command;
      out.push(`  returned a LangGraph Command${typeof c.graph === "string" ? ` (to graph ${c.graph})` : ""}:`);
      for (const part of ["update", "goto", "resume"] as const) if (c[part] !== undefined) out.push(`    ${part}:`, indent(json(c[part]), "      "));
    } else out.push(indent(json(raw), "  "));
    if (Array.isArray(res.events)) out.push(`  (${res.events.length} streamed event(s) before it)`);
    if (Array.isArray(res.custom))
      out.push(`  (${res.custom.length} custom stream chunk(s) and event(s) emitted on the side: config.writer, dispatchCustomEvent)`);
  },
  noteNearMiss: false,
  title(req) {
    const args = JSON.stringify(req.args ?? {});
    return `${String(req.tool ?? req.name ?? "?")}(${args.length > 60 ? args.slice(0, 57) + "..." : args})`;
  },
};
