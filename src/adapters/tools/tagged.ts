/**
 * Tagged serialization: turns a tool's result into plain JSON that replays as an equal value,
 * and back. Plain JSON passes through unchanged, so most fixtures read as ordinary JSON; what
 * JSON cannot hold as-is becomes a tagged object `{ "$vcr": <tag>, ... }`:
 *
 * | value                         | tagged form                                              |
 * |-------------------------------|----------------------------------------------------------|
 * | `undefined` (also array holes) | `{ "$vcr": "undefined" }`                               |
 * | `NaN`, `±Infinity`, `-0`      | `{ "$vcr": "number", "value": "NaN" }`                   |
 * | bigint                        | `{ "$vcr": "bigint", "value": "123" }`                   |
 * | Date                          | `{ "$vcr": "Date", "value": "<ISO>" }` (`null` if invalid) |
 * | Map                           | `{ "$vcr": "Map", "entries": [[k, v], ...] }`            |
 * | Set                           | `{ "$vcr": "Set", "values": [...] }`                     |
 * | object with a `$vcr` key, or whose key order a sorted fixture would lose | `{ "$vcr": "object", "value": {...}, "keys"?: [...] }` |
 * | a LangChain message (a `ToolMessage` in a LangGraph `Command`'s update) | `{ "$vcr": "message", "type": "tool", "data": {...}, "toolCall"?: "current" }` |
 *
 * Key order matters: fixtures are written with sorted keys, yet `JSON.stringify(result)` —
 * which is what LangChain sends back to the model — depends on the order. An object whose
 * order would not survive is tagged with its `keys` in order.
 *
 * A message is kept as core's `toDict()` gives it and rebuilt with core's
 * `mapStoredMessagesToChatMessages`. A `ToolMessage` answering the tool call being recorded
 * (`currentCallId`) is written without its id (`"toolCall": "current"`) and replayed with the id
 * of the call being replayed, as a returned ToolMessage is: another test's model may give the same
 * call another id.
 *
 * Anything else (functions, symbols, class instances, cycles) cannot be replayed faithfully:
 * `toTagged` throws `UnrecordableValue` with the path of the first such value.
 */
import { isBaseMessage, mapStoredMessagesToChatMessages, RemoveMessage, type BaseMessage, type StoredMessage } from "@langchain/core/messages";
import { defineMember } from "../../canonical/json";

export const TAG = "$vcr";

/** A value that cannot be recorded faithfully, found at `path` (e.g. `result[1].callback`). */
export class UnrecordableValue extends Error {
  constructor(
    readonly path: string,
    readonly what: string,
  ) {
    super(`${what} at ${path}`);
    this.name = "UnrecordableValue";
  }
}

export interface TaggedOptions {
  /** Where the value sits, for error paths. Default `"value"`. */
  path?: string;
  /**
   * For request keys: drop `undefined` object members (as canonical JSON does) and don't
   * record key order, so `{a, b}` and `{b, a}` are the same key. Default false.
   */
  forKey?: boolean;
  /** The id of the tool call being recorded (or replayed): a ToolMessage answering it is written (and rebuilt) with the call's own id. */
  currentCallId?: string;
}

interface Context {
  forKey: boolean;
  currentCallId?: string;
}

/** The JSON form of `value`. Throws `UnrecordableValue` for what cannot replay faithfully. */
export function toTagged(value: unknown, options: TaggedOptions = {}): unknown {
  return encode(value, options.path ?? "value", new Map(), { forKey: options.forKey === true, currentCallId: options.currentCallId });
}

/** The value a tagged JSON form stands for. Throws on an unknown or malformed tag. */
export function fromTagged(json: unknown, options: Pick<TaggedOptions, "currentCallId"> = {}): unknown {
  return decode(json, options.currentCallId);
}

/** `fromTagged`, with the current call's id passed down (no closure per value: a tool replay decodes every value of its fixture). */
function decode(json: unknown, callId: string | undefined): unknown {
  if (json === null || typeof json !== "object") return json;
  if (Array.isArray(json)) {
    const out: unknown[] = new Array(json.length);
    for (let i = 0; i < json.length; i++) out[i] = decode(json[i], callId);
    return out;
  }
  const o = json as Record<string, unknown>;
  if (!Object.prototype.hasOwnProperty.call(o, TAG)) return decodeMembers(o, callId);
  switch (o[TAG]) {
    case "undefined":
      return undefined;
    case "number":
      return decodeNumber(o.value);
    case "bigint":
      return BigInt(expectString(o.value, "bigint"));
    case "Date":
      return o.value === null ? new Date(NaN) : new Date(expectString(o.value, "Date"));
    case "Map":
      return new Map(
        expectArray(o.entries, "Map").map((e) => {
          const pair = expectArray(e, "Map entry");
          return [decode(pair[0], callId), decode(pair[1], callId)] as [unknown, unknown];
        }),
      );
    case "Set":
      return new Set(expectArray(o.values, "Set").map((v) => decode(v, callId)));
    case "object":
      return decodeObject(o, callId);
    case "message":
      return decodeMessage(o, callId);
    default:
      throw new Error(`unknown tag ${JSON.stringify(o[TAG])} (this fixture may come from a newer langchain-vcr)`);
  }
}

function encode(value: unknown, path: string, ancestors: Map<object, string>, ctx: Context): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return Number.isFinite(value) && !Object.is(value, -0) ? value : { [TAG]: "number", value: numberName(value) };
    case "undefined":
      return { [TAG]: "undefined" };
    case "bigint":
      return { [TAG]: "bigint", value: value.toString() };
    case "function":
      throw new UnrecordableValue(path, "a function");
    case "symbol":
      throw new UnrecordableValue(path, "a symbol");
  }
  if (value === null) return null;
  const obj = value as object;
  const seen = ancestors.get(obj);
  if (seen !== undefined) throw new UnrecordableValue(path, `a cyclic reference (back to ${seen})`);
  ancestors.set(obj, path);
  try {
    return encodeObject(obj, path, ancestors, ctx);
  } finally {
    ancestors.delete(obj);
  }
}

function encodeObject(obj: object, path: string, ancestors: Map<object, string>, ctx: Context): unknown {
  const sub = (v: unknown, p: string) => encode(v, p, ancestors, ctx);
  const forKey = ctx.forKey;
  const proto = Object.getPrototypeOf(obj);
  if (Array.isArray(obj) && proto === Array.prototype) {
    const extra = Object.keys(obj).find((k) => !/^(0|[1-9]\d*)$/.test(k));
    if (extra !== undefined) throw new UnrecordableValue(path, `an array with a non-index property ${JSON.stringify(extra)}`);
    const out: unknown[] = [];
    for (let i = 0; i < obj.length; i++) out.push(sub(obj[i], `${path}[${i}]`));
    return out;
  }
  if (proto === Date.prototype) {
    const d = obj as Date;
    return { [TAG]: "Date", value: Number.isNaN(d.getTime()) ? null : d.toISOString() };
  }
  if (proto === Map.prototype) {
    const entries = [...(obj as Map<unknown, unknown>).entries()].map(([k, v], i) => [sub(k, `${path}<Map key #${i}>`), sub(v, mapPath(path, k, i))]);
    return { [TAG]: "Map", entries };
  }
  if (proto === Set.prototype) return { [TAG]: "Set", values: [...(obj as Set<unknown>)].map((v, i) => sub(v, `${path}<Set #${i}>`)) };
  if (!forKey && isBaseMessage(obj) && typeof (obj as BaseMessage).toDict === "function") return encodeMessage(obj, path, sub, ctx.currentCallId);
  if (proto !== Object.prototype && proto !== null) {
    throw new UnrecordableValue(path, describeInstance(obj, proto));
  }
  if (Object.getOwnPropertySymbols(obj).some((s) => Object.prototype.propertyIsEnumerable.call(obj, s))) {
    throw new UnrecordableValue(path, "an object with symbol-keyed properties");
  }
  const rec = obj as Record<string, unknown>;
  const keys = Object.keys(rec);
  const members: Record<string, unknown> = {};
  for (const k of keys) {
    const v = rec[k];
    if (forKey && v === undefined) continue;
    defineMember(members, k, sub(v, memberPath(path, k)));
  }
  const orderLost = !forKey && !sameOrder(keys, roundTripOrder(keys));
  if (!orderLost && !Object.prototype.hasOwnProperty.call(rec, TAG)) return members;
  const tagged: Record<string, unknown> = { [TAG]: "object", value: members };
  if (orderLost) tagged.keys = keys;
  return tagged;
}

function decodeMembers(o: Record<string, unknown>, callId: string | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) defineMember(out, k, decode(o[k], callId));
  return out;
}

/** The message types `decodeMessage` rebuilds: core's stored types, and LangGraph's RemoveMessage. */
const MESSAGE_TYPES: ReadonlySet<string> = new Set(["human", "ai", "system", "function", "tool", "generic", "remove"]);

function encodeMessage(m: BaseMessage, path: string, sub: (v: unknown, p: string) => unknown, currentCallId: string | undefined): unknown {
  const { type, data } = m.toDict();
  if (!MESSAGE_TYPES.has(type))
    throw new UnrecordableValue(path, `a ${m.constructor?.name ?? "message"} of type ${JSON.stringify(type)}, which replay could not rebuild`);
  const own = data as unknown as Record<string, unknown>;
  const fields: Record<string, unknown> = {}; // sorted: the order of a message's constructor fields matters to no one, so no "keys" list
  for (const k of Object.keys(own).sort()) defineMember(fields, k, own[k]);
  const current = type === "tool" && currentCallId !== undefined && fields.tool_call_id === currentCallId;
  if (current) delete fields.tool_call_id;
  const out: Record<string, unknown> = { [TAG]: "message", type, data: sub(fields, `${path}.data`) };
  if (current) out.toolCall = "current";
  return out;
}

function decodeMessage(o: Record<string, unknown>, callId: string | undefined): BaseMessage {
  const type = expectString(o.type, "message type");
  if (!MESSAGE_TYPES.has(type)) throw new Error(`malformed "message" tag: type ${JSON.stringify(type)} (this fixture may come from a newer langchain-vcr)`);
  const data = decode(o.data, callId);
  if (data === null || typeof data !== "object" || Array.isArray(data)) throw new Error(`malformed "message" tag: "data" is not an object`);
  const fields = data as Record<string, unknown>;
  if (o.toolCall === "current") fields.tool_call_id = callId ?? "";
  if (type === "remove") return new RemoveMessage(fields as unknown as ConstructorParameters<typeof RemoveMessage>[0]);
  return mapStoredMessagesToChatMessages([{ type, data: fields } as unknown as StoredMessage])[0];
}

function decodeObject(o: Record<string, unknown>, callId: string | undefined): Record<string, unknown> {
  const value = o.value;
  if (value === null || typeof value !== "object" || Array.isArray(value)) throw new Error(`malformed "object" tag`);
  const members = value as Record<string, unknown>;
  const keys = o.keys === undefined ? Object.keys(members) : expectArray(o.keys, "object keys").map((k) => expectString(k, "object key"));
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    if (!Object.prototype.hasOwnProperty.call(members, k)) throw new Error(`malformed "object" tag: key ${JSON.stringify(k)} has no value`);
    defineMember(out, k, decode(members[k], callId));
  }
  return out;
}

/** The key order an object with these keys has after a sorted write and a JSON.parse. */
function roundTripOrder(keys: readonly string[]): string[] {
  const probe: Record<string, unknown> = {};
  for (const k of [...keys].sort()) defineMember(probe, k, 0);
  return Object.keys(probe);
}

function sameOrder(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}

function numberName(n: number): string {
  if (Number.isNaN(n)) return "NaN";
  if (Object.is(n, -0)) return "-0";
  return n > 0 ? "Infinity" : "-Infinity";
}

function decodeNumber(v: unknown): number {
  switch (v) {
    case "NaN":
      return NaN;
    case "-0":
      return -0;
    case "Infinity":
      return Infinity;
    case "-Infinity":
      return -Infinity;
  }
  throw new Error(`malformed "number" tag: ${JSON.stringify(v)}`);
}

function expectString(v: unknown, what: string): string {
  if (typeof v !== "string") throw new Error(`malformed ${what} tag: expected a string, found ${JSON.stringify(v)}`);
  return v;
}

function expectArray(v: unknown, what: string): unknown[] {
  if (!Array.isArray(v)) throw new Error(`malformed ${what} tag: expected an array`);
  return v;
}

function describeInstance(obj: object, proto: object): string {
  const name = (proto as { constructor?: { name?: string } }).constructor?.name;
  if (name) return `an instance of ${name}`;
  const tag = Object.prototype.toString.call(obj).slice(8, -1); // e.g. "AsyncGenerator"
  return tag && tag !== "Object" ? `an instance of ${tag}` : "an object with a custom prototype";
}

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function memberPath(path: string, key: string): string {
  return IDENT.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function mapPath(path: string, key: unknown, i: number): string {
  if (typeof key === "string") return `${path}.get(${JSON.stringify(key)})`;
  if (typeof key === "number" || typeof key === "boolean") return `${path}.get(${String(key)})`;
  return `${path}<Map value #${i}>`;
}
