/**
 * What JSON does not hold of a live generation or stream chunk, recorded beside it (`"shape"`)
 * so that a replay builds the same objects, not just the same values.
 *
 * LangChain keeps the object a message's constructor received as its `lc_kwargs`. `toJSON()`
 * (what JSON.stringify and vitest/jest snapshots print: one member per key of `lc_kwargs`) and
 * deep equality (`toEqual` compares `lc_kwargs` member by member) both read it, and providers
 * build their messages differently: ChatOpenAI passes `type: "ai"` and `name` (undefined),
 * ChatAnthropic neither, ChatGroq no `id`. After the provider built the message, core merges the
 * call's `generationInfo` and `llmOutput` (`finish_reason`, `tokenUsage`) into a new
 * `response_metadata`, so `lc_kwargs.response_metadata` keeps only what the provider gave. And
 * members whose value is undefined (`input_token_details: { audio: undefined }`) are lost to JSON
 * (store/undefinedMembers.ts).
 */
import { defineMember } from "../../canonical/json";
import { restoreUndefined, undefinedPointers } from "../../store/undefinedMembers";

type Rec = Record<string, unknown>;

export interface StoredShape {
  /** The message's constructor fields (its `lc_kwargs`' keys), in their order. */
  fields?: string[];
  /** The members of `response_metadata` the message was constructed with, when core merged more in after. */
  metadata?: string[];
  /** JSON pointers, from the generation or chunk, of the members that held undefined (`/message/usage_metadata/…`, `/generationInfo/…`). */
  undefined?: string[];
}

/** The message members a replay can give a constructor. */
const BUILDABLE: ReadonlySet<string> = new Set([
  "content",
  "name",
  "id",
  "type",
  "tool_calls",
  "invalid_tool_calls",
  "tool_call_chunks",
  "usage_metadata",
  "response_metadata",
  "additional_kwargs",
]);

/**
 * The shape of a live generation or chunk, or undefined when JSON holds all of it. `members`:
 * the message members the file holds (their undefined members are named); `listed`: pointers
 * another field names already (a message's `undefined_kwargs`).
 */
export function shapeOf(
  message: object | undefined,
  members: readonly string[],
  generationInfo: unknown,
  listed?: ReadonlySet<string>,
): StoredShape | undefined {
  const shape: StoredShape = {};
  const m = message as Rec | undefined;
  const given = m?.lc_kwargs;
  if (isRec(given)) {
    shape.fields = Object.keys(given);
    const meta = given.response_metadata;
    const own = m!.response_metadata;
    if (isRec(meta) && isRec(own) && meta !== own && !Object.keys(own).every((k) => Object.hasOwn(meta, k))) shape.metadata = Object.keys(meta);
  }
  const pointers: string[] = [];
  for (const k of members) undefinedPointers(m?.[k], `/message/${k}`, pointers);
  undefinedPointers(generationInfo, "/generationInfo", pointers);
  const kept = listed ? pointers.filter((p) => !listed.has(p)) : pointers;
  if (kept.length) shape.undefined = kept;
  return Object.keys(shape).length ? shape : undefined;
}

/** Puts back in `message` (the stored message's members, the replay's own objects) and `generationInfo` the members `shape` names as undefined. */
export function restoreShape(shape: unknown, message: Rec, generationInfo: unknown): void {
  if (isRec(shape)) restoreUndefined({ message, generationInfo }, shape.undefined);
}

/**
 * The constructor fields the live message was built with, from `values` (the stored members,
 * with LangChain's defaults) and its `type`: undefined when `shape` records none (a fixture
 * written before them), for the caller's own. A field replay cannot rebuild is left out.
 */
export function recordedFields(values: Rec, type: unknown, shape: unknown): Rec | undefined {
  const keys = isRec(shape) ? buildableFields(shape.fields) : undefined;
  if (!keys) return undefined;
  const out: Rec = {};
  for (const k of keys) out[k] = k === "type" ? type : k === "response_metadata" ? givenMetadata(values.response_metadata, (shape as Rec).metadata) : values[k];
  return out;
}

/** The recorded fields a replay can build, worked out once per list: a kept fixture's list is the same array on every replay. */
const buildable = new WeakMap<readonly unknown[], string[]>();
function buildableFields(fields: unknown): string[] | undefined {
  if (!Array.isArray(fields)) return undefined;
  let out = buildable.get(fields);
  if (!out) {
    out = fields.filter((k): k is string => typeof k === "string" && BUILDABLE.has(k));
    buildable.set(fields, out);
  }
  return out;
}

/** Sets on `message` what it was not constructed with, as the provider and core set it after: a member of `values` the fields lack, the merged `response_metadata`. */
export function setAfter(message: object, values: Rec, fields: Rec): void {
  for (const k in values) {
    const v = values[k];
    if (v !== undefined && (fields[k] !== v || !Object.hasOwn(fields, k))) (message as Rec)[k] = v;
  }
}

/** The response_metadata the message was constructed with: the members `names` lists (a copy), or all of it. */
function givenMetadata(metadata: unknown, names: unknown): unknown {
  if (!isRec(metadata) || !Array.isArray(names)) return metadata;
  const out: Rec = {};
  for (const k of names) {
    if (typeof k !== "string" || !Object.hasOwn(metadata, k)) continue;
    if (k === "__proto__") defineMember(out, k, metadata[k]);
    else out[k] = metadata[k]; // a plain assignment keeps the object's fast shape (a replay's hot path)
  }
  return out;
}

function isRec(v: unknown): v is Rec {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}
