/**
 * What a tool body did, as a fixture `response`, and how to replay it. One of:
 *
 * - `{ "result": <tagged> }` — the body's return value (string, content blocks,
 *   `[content, artifact]`, plain object, Date, Map, ...: see `tagged.ts`);
 * - `{ "toolMessage": { content, artifact?, status?, name?, ... } }` — the body returned a
 *   `ToolMessage`; replay rebuilds it with the CURRENT call's `tool_call_id`;
 * - `{ "error": { name, message, class?, code?, output?, fields? } }` — the body threw an Error;
 *   replay throws an error with the same `name`, class name, message and own fields of plain
 *   values (`retryable: true`); not an instance of the body's own class, which replay never loads;
 * - `{ "thrown": <tagged> }` — the body threw something that is not an Error;
 * - `{ "interrupt": { value, response_schema? } }` — the body called LangGraph's `interrupt()`,
 *   which paused the graph (`interrupts.ts`);
 * - `{ "command": { update?, goto?, graph?, resume? } }` — the body returned a LangGraph
 *   `Command` (`command.ts`).
 *
 * Any of them may carry `events`: the chunks an async-generator tool yielded before its
 * return value, replayed through the same generator protocol; `resumed`: how many LangGraph
 * resume values the body took first; and `custom`: what the body emitted on the side, LangGraph
 * custom stream chunks and custom events (`custom.ts`), emitted again before the answer.
 */
import { ToolMessage } from "@langchain/core/messages";
import { ToolInputParsingException } from "@langchain/core/tools";
import { UnrecordableValue, fromTagged, toTagged } from "./tagged";
import type { RecordedInterrupt } from "./interrupts";
import { decodeCommand, encodeCommand, isCommand, type RecordedCommand } from "./command";
import { isCredentialName } from "../../clientSecrets";
import { decodeCustom, type RecordedCustom } from "./custom";
import { builtinError } from "./builtinErrors";

export interface RecordedError {
  /** `error.name`. */
  name: string;
  message: string;
  /** The constructor's name, when it differs from `name` (e.g. `class MyError extends Error {}`). */
  class?: string;
  /** `error.code`, when it is a string or a number. */
  code?: string | number;
  /** `ToolInputParsingException.output`. */
  output?: string;
  /** The error's other own enumerable fields whose values are plain (a string, a finite number, a boolean, null), e.g. `{ retryable: true }`. */
  fields?: Record<string, ErrorField>;
}

type ErrorField = string | number | boolean | null;
/** Members an Error has of its own, or that `RecordedError` keeps on their own. */
const NOT_FIELDS: ReadonlySet<string> = new Set(["name", "message", "stack", "code", "output", "cause"]);
/** A longer string field is left out (a response body, a log): it would bloat the fixture, and nothing branches on it. */
const MAX_FIELD_CHARS = 1000;

/**
 * The own enumerable fields of `thrown` an app may branch on (`retryable`, `declineCode`,
 * `status`), when their values are plain; not a credential-named one (`apiKey`), nor an object
 * (an HTTP client's request and config, which carry headers and sockets).
 */
function plainFields(thrown: object): Record<string, ErrorField> | undefined {
  let out: Record<string, ErrorField> | undefined;
  for (const [k, v] of Object.entries(thrown)) {
    if (NOT_FIELDS.has(k) || isCredentialName(k)) continue;
    const plain =
      v === null || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v)) || (typeof v === "string" && v.length <= MAX_FIELD_CHARS);
    if (plain) (out ??= {})[k] = v as ErrorField;
  }
  return out;
}

export interface RecordedToolMessage {
  content: unknown;
  artifact?: unknown;
  status?: string;
  name?: string;
  id?: string;
  metadata?: unknown;
  additional_kwargs?: unknown;
  response_metadata?: unknown;
  /** Only when the message was made outside a tool call (there is no current id to use). */
  tool_call_id?: string;
}

export type ToolResponse = { events?: unknown[]; resumed?: number; custom?: RecordedCustom[] } & (
  | { result: unknown }
  | { toolMessage: RecordedToolMessage }
  | { error: RecordedError }
  | { thrown: unknown }
  | { interrupt: RecordedInterrupt }
  | { command: RecordedCommand }
);

/** The replay of a recorded outcome: a value to return, something to throw, or an interrupt to raise again. */
export type Replayed = { events?: unknown[]; resumed: number; custom?: RecordedCustom[] } & (
  | { kind: "return"; value: unknown }
  | { kind: "throw"; error: unknown }
  | { kind: "interrupt"; interrupt: RecordedInterrupt }
  | { kind: "command"; command: RecordedCommand }
);

/** Encodes a body's return value. Throws `UnrecordableValue` for what cannot replay faithfully. */
export function encodeResult(value: unknown, events: unknown[] | undefined, currentCallId: string | undefined): ToolResponse {
  const ev = encodeEvents(events);
  if (ToolMessage.isInstance(value)) return { toolMessage: encodeToolMessage(value, currentCallId), ...ev };
  if (isCommand(value)) return { command: encodeCommand(value, currentCallId), ...ev };
  if (isDirectOutput(value)) {
    const cls = (value as object).constructor?.name ?? "object";
    throw new UnrecordableValue("result", `a ${cls} (a direct tool output other than a ToolMessage or a LangGraph Command)`);
  }
  return { result: toTagged(value, { path: "result", currentCallId }), ...ev };
}

/** Encodes what a body threw. Throws `UnrecordableValue` for a non-Error that cannot replay faithfully. */
export function encodeThrow(thrown: unknown, events: unknown[] | undefined): ToolResponse {
  const ev = encodeEvents(events);
  if (!isErrorLike(thrown)) return { thrown: toTagged(thrown, { path: "thrown" }), ...ev };
  const error: RecordedError = { name: thrown.name, message: thrown.message };
  const cls = (thrown as object).constructor?.name;
  if (cls && cls !== thrown.name) error.class = cls;
  const code = (thrown as { code?: unknown }).code;
  if (typeof code === "string" || (typeof code === "number" && Number.isFinite(code))) error.code = code;
  const output = (thrown as { output?: unknown }).output;
  if (isToolInputParsingException(thrown) && typeof output === "string") error.output = output;
  let fields: Record<string, ErrorField> | undefined;
  try {
    fields = plainFields(thrown);
  } catch {
    // a getter that throws, a proxy: the fields are left out, as before they were kept
  }
  if (fields) error.fields = fields;
  return { error, ...ev };
}

/** Decodes a fixture response. Throws a plain Error (the caller adds the file) when it is malformed. */
export function decodeResponse(response: unknown, currentCallId: string | undefined): Replayed {
  if (response === null || typeof response !== "object" || Array.isArray(response)) throw new Error("the response is not an object");
  const r = response as Record<string, unknown>;
  const events = r.events === undefined ? undefined : (fromTagged(r.events) as unknown[]);
  if (events !== undefined && !Array.isArray(events)) throw new Error(`"events" is not an array`);
  const resumed = r.resumed ?? 0;
  if (typeof resumed !== "number" || !Number.isInteger(resumed) || resumed < 0) throw new Error(`"resumed" is not a count`);
  const custom = decodeCustom(r.custom);
  const extra = { events, resumed, ...(custom ? { custom } : {}) };
  if ("result" in r) return { kind: "return", value: fromTagged(r.result, { currentCallId }), ...extra };
  if ("toolMessage" in r) return { kind: "return", value: decodeToolMessage(r.toolMessage as RecordedToolMessage, currentCallId), ...extra };
  if ("error" in r) return { kind: "throw", error: rebuildError(r.error as RecordedError), ...extra };
  if ("thrown" in r) return { kind: "throw", error: fromTagged(r.thrown), ...extra };
  if ("interrupt" in r) return { kind: "interrupt", interrupt: decodeInterrupt(r.interrupt), ...extra };
  if ("command" in r) return { kind: "command", command: decodeCommand(r.command, currentCallId), ...extra };
  throw new Error(`the response has none of "result", "toolMessage", "error", "thrown", "interrupt", "command" (it may come from a newer langchain-vcr)`);
}

function decodeInterrupt(i: unknown): RecordedInterrupt {
  if (i === null || typeof i !== "object" || !("value" in i)) throw new Error(`"interrupt" needs a "value"`);
  const rec = i as RecordedInterrupt;
  const out: RecordedInterrupt = { value: fromTagged(rec.value) };
  if (rec.response_schema !== undefined) out.response_schema = fromTagged(rec.response_schema);
  return out;
}

function encodeEvents(events: unknown[] | undefined): { events?: unknown[] } {
  if (events === undefined) return {};
  return { events: events.map((e, i) => toTagged(e, { path: `events[${i}]` })) };
}

function encodeToolMessage(m: ToolMessage, currentCallId: string | undefined): RecordedToolMessage {
  const out: RecordedToolMessage = { content: toTagged(m.content, { path: "result.content" }) };
  if (m.artifact !== undefined) out.artifact = toTagged(m.artifact, { path: "result.artifact" });
  if (m.status !== undefined) out.status = m.status;
  if (m.name !== undefined) out.name = m.name;
  if (m.id !== undefined) out.id = m.id;
  if (m.metadata !== undefined) out.metadata = toTagged(m.metadata, { path: "result.metadata" });
  if (nonEmpty(m.additional_kwargs)) out.additional_kwargs = toTagged(m.additional_kwargs, { path: "result.additional_kwargs" });
  if (nonEmpty(m.response_metadata)) out.response_metadata = toTagged(m.response_metadata, { path: "result.response_metadata" });
  if (currentCallId === undefined && m.tool_call_id) out.tool_call_id = m.tool_call_id;
  return out;
}

function decodeToolMessage(m: RecordedToolMessage, currentCallId: string | undefined): ToolMessage {
  if (m === null || typeof m !== "object") throw new Error(`"toolMessage" is not an object`);
  const fields: Record<string, unknown> = {
    content: fromTagged(m.content),
    tool_call_id: currentCallId ?? m.tool_call_id ?? "",
  };
  if (m.artifact !== undefined) fields.artifact = fromTagged(m.artifact);
  if (m.status !== undefined) fields.status = m.status;
  if (m.name !== undefined) fields.name = m.name;
  if (m.id !== undefined) fields.id = m.id;
  if (m.metadata !== undefined) fields.metadata = fromTagged(m.metadata);
  if (m.additional_kwargs !== undefined) fields.additional_kwargs = fromTagged(m.additional_kwargs);
  if (m.response_metadata !== undefined) fields.response_metadata = fromTagged(m.response_metadata);
  return new ToolMessage(fields as unknown as ConstructorParameters<typeof ToolMessage>[0]);
}

/** An error with the recorded name, class name, message (and code / output when recorded). */
export function rebuildError(rec: RecordedError): Error {
  if (rec === null || typeof rec !== "object" || typeof rec.name !== "string" || typeof rec.message !== "string") {
    throw new Error(`"error" needs a string "name" and "message"`);
  }
  const cls = rec.class ?? rec.name;
  let err: Error;
  if (cls === "ToolInputParsingException") {
    err = new ToolInputParsingException(rec.message, rec.output);
  } else {
    const Base = builtinError(cls) ?? builtinError(rec.name) ?? Error;
    const Ctor = Base.name === cls ? Base : namedSubclass(Base, cls);
    err = new Ctor(rec.message);
  }
  if (err.name !== rec.name) Object.defineProperty(err, "name", { value: rec.name, writable: true, configurable: true, enumerable: false });
  if (rec.code !== undefined) (err as Error & { code?: unknown }).code = rec.code;
  if (rec.fields !== undefined) {
    if (rec.fields === null || typeof rec.fields !== "object" || Array.isArray(rec.fields)) throw new Error(`"error.fields" is not an object`);
    for (const [k, v] of Object.entries(rec.fields)) {
      if (NOT_FIELDS.has(k)) throw new Error(`"error.fields" holds "${k}", which the error keeps on its own`);
      if (v !== null && !["string", "number", "boolean"].includes(typeof v))
        throw new Error(`"error.fields.${k}" is not a string, a number, a boolean or null`);
      Object.defineProperty(err, k, { value: v, writable: true, enumerable: true, configurable: true }); // "__proto__" too, as a field
    }
  }
  return err;
}

function namedSubclass(Base: ErrorConstructor, name: string): ErrorConstructor {
  // The computed key names the class expression, so `err.constructor.name === name`.
  const holder = { [name]: class extends Base {} };
  return holder[name] as unknown as ErrorConstructor;
}

function isErrorLike(x: unknown): x is Error {
  return typeof x === "object" && x !== null && typeof (x as Error).message === "string" && typeof (x as Error).name === "string";
}

/**
 * True for core's `ToolInputParsingException` (or a subclass) from either copy of core: an
 * ESM process throws the ESM class, which `instanceof` against the CommonJS one this build
 * imports does not see. So the prototype chain is read by class name.
 */
function isToolInputParsingException(x: object): boolean {
  if (x instanceof ToolInputParsingException) return true;
  for (let p = Object.getPrototypeOf(x); p !== null && p !== Error.prototype; p = Object.getPrototypeOf(p)) {
    if (Object.hasOwn(p, "constructor") && p.constructor?.name === "ToolInputParsingException") return true;
  }
  return false;
}

function isDirectOutput(x: unknown): boolean {
  return typeof x === "object" && x !== null && (x as { lc_direct_tool_output?: unknown }).lc_direct_tool_output === true;
}

function nonEmpty(x: unknown): boolean {
  return typeof x === "object" && x !== null && Object.keys(x).length > 0;
}
