/**
 * What a chat or LLM fixture's `response` holds, and how it becomes LangChain generations
 * again. Unlike core's own `serializeGeneration`, this keeps `generationInfo` and
 * `usage_metadata` (which core zeroes on every cache hit; `ModelCall.end` gives the caller copies
 * with it put back).
 */
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import { defineMember, plainDeep, sortDeep } from "../../canonical/json";
import { TOOL_CALLS } from "../../store/format";
import { copyJson } from "../../canonical/copy";
import { isStoredMember } from "../../store/members";
import { answerId } from "./answerIds";
import { pointer } from "../../store/undefinedMembers";
import { recordedFields, restoreShape, setAfter, shapeOf, type StoredShape } from "./shape";

export interface StoredMessage {
  type: string;
  content: unknown;
  name?: string;
  id?: string;
  tool_calls?: unknown[];
  invalid_tool_calls?: unknown[];
  usage_metadata?: Record<string, unknown>;
  response_metadata?: Record<string, unknown>;
  additional_kwargs?: Record<string, unknown>;
  /**
   * Members of `additional_kwargs` the message had with the value undefined, which JSON cannot
   * hold (ChatOpenAI's `function_call` and `tool_calls` on every chat-completions answer):
   * core's `getBufferString` asks `"function_call" in additional_kwargs` and writes "undefined"
   * after the text when it is, so a replay gives them back. Not written by 0.2.0 and earlier (docs/upgrading.md).
   */
  undefined_kwargs?: string[];
}

export interface StoredGeneration {
  text: string;
  message?: StoredMessage;
  generationInfo?: Record<string, unknown>;
  /** What JSON does not hold of the live generation (./shape.ts). Not written by 0.3.0 and earlier (docs/upgrading.md). */
  shape?: StoredShape;
}

export interface GenerationsResponse {
  generations: StoredGeneration[];
}

type GenerationLike = { text: string; message?: BaseMessage & Record<string, unknown>; generationInfo?: Record<string, unknown> };

export function storeGenerations(generations: readonly GenerationLike[]): GenerationsResponse {
  return {
    generations: generations.map((g) => {
      const out: StoredGeneration = { text: g.text };
      if (g.message) out.message = storeMessage(g.message);
      if (g.generationInfo && Object.keys(g.generationInfo).length) out.generationInfo = sortDeep(g.generationInfo) as Record<string, unknown>;
      const listed = new Set((out.message?.undefined_kwargs ?? []).map((k) => pointer("/message/additional_kwargs", k)));
      const shape = shapeOf(g.message, OBJECT_MEMBERS, g.generationInfo, listed);
      if (shape) out.shape = shape;
      return out;
    }),
  };
}

/** The members of a stored message that hold objects (whose undefined members the shape names). */
const OBJECT_MEMBERS = ["content", "tool_calls", "invalid_tool_calls", "usage_metadata", "response_metadata", "additional_kwargs"] as const;

function storeMessage(m: BaseMessage & Record<string, unknown>): StoredMessage {
  const out: StoredMessage = { type: m.getType(), content: m.content };
  for (const k of ["name", "id", "tool_calls", "invalid_tool_calls", "usage_metadata", "response_metadata", "additional_kwargs"] as const) {
    const v = TOOL_CALLS.has(k) ? plainDeep(m[k]) : sortDeep(m[k]);
    if (isStoredMember(v)) (out as unknown as Record<string, unknown>)[k] = v;
  }
  const kwargs = m.additional_kwargs as Record<string, unknown> | undefined;
  const undefinedKwargs = kwargs ? Object.keys(kwargs).filter((k) => kwargs[k] === undefined) : [];
  if (undefinedKwargs.length) out.undefined_kwargs = undefinedKwargs;
  return out;
}

/** What is wrong with a chat/llm fixture's `response`, or undefined when replay can use it. */
export function generationsProblem(response: unknown): string | undefined {
  const gens = (response as { generations?: unknown } | null)?.generations;
  if (!Array.isArray(gens)) return `has no "response.generations" array`;
  for (const [i, g] of gens.entries()) {
    if (!g || typeof g !== "object" || typeof (g as StoredGeneration).text !== "string") return `has a "response.generations[${i}]" without a "text" string`;
    const m = (g as StoredGeneration).message;
    if (m !== undefined && (!m || typeof m !== "object" || typeof m.type !== "string")) return `has a "response.generations[${i}].message" without a "type"`;
  }
  return undefined;
}

/**
 * The generations of a chat/llm fixture's response, as new LangChain objects. `shared`: the
 * response is the store's kept one (`isSharedFixture`), shared with every later replay, so
 * every object taken from it is copied; else it was parsed for this replay alone (or cloned
 * for one waiter on a shared recording), and the generations may own its objects. `answer`:
 * which answer from the fixture this is in the test (`answerIds.ts`).
 */
export function loadGenerations(
  response: unknown,
  { shared = false, answer = 1 }: { shared?: boolean; answer?: number } = {},
): { text: string; message?: AIMessage; generationInfo?: Record<string, unknown> }[] {
  const r = response as GenerationsResponse;
  const own = shared ? copyJson : same;
  return r.generations.map((g) => {
    const out: { text: string; message?: AIMessage; generationInfo?: Record<string, unknown> } = { text: g.text };
    if (g.generationInfo) out.generationInfo = own(g.generationInfo);
    if (g.message) out.message = loadMessage(g.message, own, g.shape, out.generationInfo, answer);
    else restoreShape(g.shape, {}, out.generationInfo);
    return out;
  });
}

function same<T>(value: T): T {
  return value;
}

/**
 * The message, as the live one was when the fixture records how (`shape`: its constructor
 * fields, the metadata core merged in after, the members it had as undefined); else (a fixture
 * written by 0.3.0 or earlier) from every stored member, as before. It is constructed from every
 * stored member and then given the recorded constructor fields as its `lc_kwargs` (what
 * `toJSON()` and deep equality read): the same object as constructing it from those fields and
 * setting the rest after, as the provider and core did, for less work on the replay hot path (BENCHMARKS.md).
 */
function loadMessage(s: StoredMessage, own: <T>(value: T) => T, shape: unknown, generationInfo: unknown, answer: number): AIMessage {
  const values: Record<string, unknown> = {
    content: own(s.content),
    name: own(s.name), // strings, unless the file was edited: the kind's rule does not check them
    id: answerId(own(s.id), answer), // the n-th answer from this fixture in a test: an id of its own (./answerIds.ts)
    tool_calls: own(s.tool_calls) ?? [],
    invalid_tool_calls: own(s.invalid_tool_calls) ?? [],
    usage_metadata: own(s.usage_metadata),
    response_metadata: own(s.response_metadata) ?? {},
    additional_kwargs: withUndefined(own(s.additional_kwargs) ?? {}, s.undefined_kwargs),
  };
  restoreShape(shape, values, generationInfo);
  const fields = recordedFields(values, s.type, shape);
  if (fields && isV1(values.response_metadata)) {
    // the constructor turns a v1 answer's fields into content blocks (outputVersion "v1"): only building from them gives that lc_kwargs
    const built = new AIMessage(fields as ConstructorParameters<typeof AIMessage>[0] & object);
    setAfter(built, values, fields);
    return built;
  }
  const message = new AIMessage(values as ConstructorParameters<typeof AIMessage>[0] & object);
  if (fields) message.lc_kwargs = fields;
  return message;
}

function isV1(metadata: unknown): boolean {
  return typeof metadata === "object" && metadata !== null && (metadata as { output_version?: unknown }).output_version === "v1";
}

/** `kwargs` (the replay's own) with the members the message had as undefined (`undefined_kwargs`) put back; a member with a value wins. */
function withUndefined(kwargs: Record<string, unknown>, names: unknown): Record<string, unknown> {
  if (!Array.isArray(names)) return kwargs;
  for (const k of names) if (typeof k === "string" && !Object.prototype.hasOwnProperty.call(kwargs, k)) defineMember(kwargs, k, undefined);
  return kwargs;
}
