/**
 * What a `chat_stream` fixture's `response` holds, and how its chunks become LangChain
 * `ChatGenerationChunk`s again. Each chunk is stored as the provider yielded it (before core
 * stamps run ids or merges metadata into it), with the `handleLLMNewToken` call the provider
 * made for it, so a replay fires the same callbacks in the same places.
 */
import { plainDeep, sortDeep } from "../../canonical/json";
import { isStoredMember } from "../../store/members";
import { recordedFields, restoreShape, setAfter, shapeOf, type StoredShape } from "../chat/shape";
import { answerId } from "../chat/answerIds";

export interface StoredMessageChunk {
  /** Only written when the chunk is not an AI message chunk (rebuilt as one anyway). */
  type?: string;
  content: unknown;
  id?: string;
  name?: string;
  /** The provider's fragments: tool-call names, ids and argument text pieces. */
  tool_call_chunks?: unknown[];
  /** Only when there are no `tool_call_chunks` (e.g. Ollama sends whole calls). */
  tool_calls?: unknown[];
  invalid_tool_calls?: unknown[];
  usage_metadata?: Record<string, unknown>;
  response_metadata?: Record<string, unknown>;
  additional_kwargs?: Record<string, unknown>;
}

/** One `handleLLMNewToken(token, idx, ..., { chunk })` the provider made for this chunk. */
export interface StoredNewToken {
  /** Omitted when it equals the chunk's `text`. */
  token?: string;
  idx?: unknown;
  /**
   * The call carried no chunk (`handleLLMNewToken(text)`, as ChatGoogleGenerativeAI makes it right
   * after yielding each chunk): replayed the same way, with no chunk, so a handler that builds
   * its own message from the text (LangGraph's "messages" mode) sees what it saw live.
   */
  bare?: true;
}

export interface StoredChunk {
  text: string;
  message: StoredMessageChunk;
  generationInfo?: Record<string, unknown>;
  /** Present when the provider called `handleLLMNewToken` with this chunk (ChatOllama skips its last one). */
  newToken?: StoredNewToken;
  /** What JSON does not hold of the live chunk (../chat/shape.ts). Not written by 0.3.0 and earlier (docs/upgrading.md). */
  shape?: StoredShape;
}

export interface StreamResponse {
  chunks: StoredChunk[];
}

/** The parts of a `ChatGenerationChunk` this module reads. */
export interface GenerationChunkLike {
  text?: string;
  message: object;
  generationInfo?: Record<string, unknown>;
}

interface MessageChunkLike {
  getType?(): string;
  [key: string]: unknown;
}

/** The chunk classes of the copy of @langchain/core the model belongs to. */
export interface ChunkClasses {
  AIMessageChunk: new (fields: Record<string, unknown>) => unknown;
  ChatGenerationChunk: new (fields: { text: string; message: unknown; generationInfo?: Record<string, unknown> }) => GenerationChunkLike;
}

export function storeChunk(chunk: GenerationChunkLike): StoredChunk {
  const m = chunk.message as MessageChunkLike;
  const message: StoredMessageChunk = { content: sortDeep(m.content) };
  const type = typeof m.getType === "function" ? m.getType() : undefined;
  if (type && type !== "ai") message.type = type;
  const hasChunks = isStoredMember(m.tool_call_chunks);
  for (const k of ["id", "name", "tool_call_chunks", "usage_metadata", "response_metadata", "additional_kwargs"] as const) {
    if (isStoredMember(m[k])) (message as unknown as Record<string, unknown>)[k] = sortDeep(m[k]);
  }
  if (!hasChunks) {
    // in the order the model gave them (the file keeps it: store/format.ts), as core's getBufferString writes them out
    if (isStoredMember(m.tool_calls)) message.tool_calls = plainDeep(m.tool_calls) as unknown[];
    if (isStoredMember(m.invalid_tool_calls)) message.invalid_tool_calls = plainDeep(m.invalid_tool_calls) as unknown[];
  }
  const out: StoredChunk = { text: chunk.text ?? "", message };
  if (isStoredMember(chunk.generationInfo)) out.generationInfo = sortDeep(chunk.generationInfo) as Record<string, unknown>;
  const shape = shapeOf(m, hasChunks ? CHUNK_MEMBERS : WHOLE_CALL_MEMBERS, chunk.generationInfo);
  if (shape) out.shape = shape;
  return out;
}

/** The members of a stored chunk that hold objects (whose undefined members the shape names): a chunk with tool-call fragments stores no tool calls. */
const CHUNK_MEMBERS = ["content", "tool_call_chunks", "usage_metadata", "response_metadata", "additional_kwargs"] as const;
const WHOLE_CALL_MEMBERS = ["content", "tool_calls", "invalid_tool_calls", "usage_metadata", "response_metadata", "additional_kwargs"] as const;

export function storeNewToken(chunk: StoredChunk, token: unknown, idx: unknown, bare = false): void {
  const t: StoredNewToken = {};
  if (token !== chunk.text) t.token = String(token ?? "");
  if (idx !== undefined && idx !== null) t.idx = sortDeep(idx);
  if (bare) t.bare = true;
  chunk.newToken = t;
}

/** `answer`: which answer from the fixture this stream is in the test; its chunks' id is numbered past the first (../chat/answerIds.ts). */
export function loadChunk(stored: StoredChunk, classes: ChunkClasses, answer = 1): GenerationChunkLike {
  // `stored` belongs to a fixture parsed for this replay alone (the recorder clones a shared
  // one per waiter), so the chunk may own its objects: no copy here.
  const s = stored;
  const m = s.message;
  const values: Record<string, unknown> = {
    content: m.content,
    additional_kwargs: m.additional_kwargs ?? {},
    response_metadata: m.response_metadata ?? {},
  };
  if (m.id !== undefined) values.id = answerId(m.id, answer);
  if (m.name !== undefined) values.name = m.name;
  if (m.usage_metadata !== undefined) values.usage_metadata = m.usage_metadata;
  if (m.tool_call_chunks?.length) values.tool_call_chunks = m.tool_call_chunks;
  else {
    values.tool_calls = m.tool_calls ?? [];
    if (m.invalid_tool_calls?.length) values.invalid_tool_calls = m.invalid_tool_calls;
  }
  restoreShape(s.shape, values, s.generationInfo);
  // as the live chunk was built when the fixture records how, else (0.3.0 and earlier) from the stored members
  const fields = recordedFields(values, m.type ?? "ai", s.shape);
  const message = new classes.AIMessageChunk(fields ?? values);
  if (m.invalid_tool_calls?.length && !m.tool_call_chunks?.length) {
    // AIMessageChunk's constructor drops invalid_tool_calls when given no tool_call_chunks.
    (message as Record<string, unknown>).invalid_tool_calls = m.invalid_tool_calls;
  }
  if (fields) setAfter(message as object, values, fields);
  const init: { text: string; message: unknown; generationInfo?: Record<string, unknown> } = { text: s.text, message };
  if (s.generationInfo) init.generationInfo = s.generationInfo;
  return new classes.ChatGenerationChunk(init);
}

/** Checks the shape of a `chat_stream` response read from disk; returns what is wrong, if anything. */
export function streamResponseProblem(response: unknown): string | undefined {
  const r = response as Partial<StreamResponse> | null;
  if (!r || typeof r !== "object" || !Array.isArray(r.chunks)) return `has no "response.chunks" array`;
  const bad = r.chunks.findIndex((c) => !c || typeof c !== "object" || typeof c.text !== "string" || !c.message || typeof c.message !== "object");
  if (bad >= 0) return `has a "response.chunks[${bad}]" that is not a chunk ({ text, message })`;
  return undefined;
}
