/**
 * `vcr.tool(t)`: a tool that replays recorded results instead of running `t`'s body.
 *
 * The wrapper is `Object.create(t)` with one own method, `_call`. Everything else — name,
 * description, schema, responseFormat, returnDirect, metadata, tags, extras, the class (so
 * `instanceof` and DynamicTool's string input still work) and `invoke`/`call` themselves — is
 * the original's, so the OpenAI tool JSON (and every chat fixture that lists the tool) is
 * unchanged. Core's `call()` still validates the input with the tool's schema (same parsing
 * error), fires `handleToolStart`/`handleToolEnd` once, and builds the `ToolMessage` with the
 * current call id around our `_call`. Copying fields into a new DynamicStructuredTool was
 * rejected: the field list moves between core versions and subclass behaviour would be lost.
 *
 * The original's `_call` runs with `this` = the original, so state the tool keeps on itself
 * stays on the original.
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import type { Recorder } from "../../recorder";
import { callTool, type ToolBody } from "./call";
import { notAToolError } from "./messages";

const WRAPPED = Symbol.for("langchain-vcr.tool");
/** One wrapper per tool and recorder: wrapping the same tool again (each test building its agent) returns it. */
const wrappers = new WeakMap<Recorder, WeakMap<object, ToolInternals>>();

interface ToolInternals {
  name: string;
  _call: ToolBody;
  [WRAPPED]?: { recorder: Recorder; original: ToolInternals };
}

/** Returns a tool that records and replays `tool`'s results through `recorder` (see the file comment). */
export function wrapTool<T extends StructuredToolInterface>(tool: T, recorder: Recorder): T {
  const original = tool as unknown as ToolInternals;
  if (original === null || typeof original !== "object" || typeof original._call !== "function") throw notAToolError(tool);
  if (Object.prototype.hasOwnProperty.call(original, WRAPPED) && original[WRAPPED]!.recorder === recorder) return tool;
  let byTool = wrappers.get(recorder);
  if (!byTool) wrappers.set(recorder, (byTool = new WeakMap()));
  const existing = byTool.get(original);
  if (existing) return existing as unknown as T;
  const wrapper = Object.create(original) as ToolInternals;
  const body: ToolBody = (parsed, runManager, config) => original._call(parsed, runManager, config);
  define(wrapper, "_call", function _call(parsed: unknown, runManager: unknown, config: unknown) {
    return callTool({ name: original.name, recorder, body }, parsed, runManager, config);
  });
  define(wrapper, WRAPPED, { recorder, original });
  byTool.set(original, wrapper);
  return wrapper as unknown as T;
}

/** Whether `tool` is a wrapper made by `vcr.tool()` (of any Vcr). */
export function isWrappedTool(tool: object): boolean {
  return Object.prototype.hasOwnProperty.call(tool, WRAPPED);
}

function define(obj: object, key: PropertyKey, value: unknown): void {
  Object.defineProperty(obj, key, { value, writable: true, configurable: true, enumerable: false });
}
