/**
 * The stand-in provider: a deterministic loopback HTTP server that speaks the OpenAI and
 * Ollama wire formats. It is NOT a model — it answers from a fixed script — and exists so that
 * the examples can record on any machine with no key and no network, and so that the
 * project's own tests can drive the REAL LangChain clients (ChatOpenAI, OpenAI,
 * OpenAIEmbeddings, ChatOllama, OllamaEmbeddings) over HTTP on 127.0.0.1. Only node:http /
 * node:crypto are used.
 *
 *   const fake = await startFakeProvider();
 *   const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key",
 *     configuration: { baseURL: fake.openaiBaseURL } });
 *   const ollama = new ChatOllama({ model: "llama3.2", baseUrl: fake.ollamaBaseUrl });
 *   fake.enqueue({ toolCalls: [{ name: "get_weather", args: { city: "Paris" } }] });
 *   ...
 *   await fake.close();
 *
 * Endpoints: POST /v1/chat/completions (JSON or SSE), POST /v1/responses (JSON or SSE,
 * ./responses.ts), POST /v1/embeddings,
 * POST /v1/completions, POST /api/chat (always NDJSON), POST /api/embed, GET /api/version.
 * Anything else: 404 JSON (still recorded in `requests`).
 *
 * What a chat request gets, first match wins: the next `enqueue`d reply; a canned answer
 * (`options.answers`, see ./canned.ts — the examples pass their table, tests pass none); a
 * structured-output request gets a trivially valid object for its schema; otherwise the echo
 * `"echo: <last user text>"`.
 *
 * Determinism: ids come from per-server counters (chatcmpl-fake-1, call_fake_1,
 * cmpl-fake-1, ...; NOT reset by reset(), so ids stay unique for the server's
 * lifetime), `created` / `created_at` / Ollama durations are fixed constants,
 * token counts are word counts, vectors come from sha256 of the text (or `options.vector`).
 */
import * as http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { createHash } from "node:crypto";
import { cannedReply, contentText, type CannedAnswer } from "./canned";
import { openaiResponses, type ResponsesContext } from "./responses";

export type { CannedAnswer, CannedToolCall } from "./canned";

export interface ScriptedReply {
  /** assistant text */
  content?: string;
  toolCalls?: { name: string; args: Record<string, unknown> }[];
  /** e.g. 500 or 429: reply with that HTTP error (OpenAI-style error JSON body; Ollama: {error}) */
  status?: number;
  /** optional override of the reported token usage */
  usage?: { prompt: number; completion: number };
}

export interface RecordedRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  /** JSON-parsed body; the raw string when it is not JSON; undefined when empty */
  body: any;
}

export interface FakeProviderOptions {
  /** Delay before every response, in ms. @default 0 */
  latencyMs?: number;
  /** Canned answers keyed by question (./canned.ts), consulted after the `enqueue` queue. @default [] */
  answers?: readonly CannedAnswer[];
  /** Vector for an embedding input. @default fakeVector (sha256 of the text) */
  vector?: (text: string, dims: number) => number[];
  /** Vector length when the request names none. @default 8 */
  dims?: number;
  /** Do not let the listening socket keep the process alive (for a server shared by a whole run). @default false */
  unref?: boolean;
}

export interface FakeProvider {
  /** http://127.0.0.1:PORT */
  url: string;
  /** url + "/v1" (ChatOpenAI configuration.baseURL / OpenAIEmbeddings / OpenAI LLM) */
  openaiBaseURL: string;
  /** url (ChatOllama baseUrl / OllamaEmbeddings baseUrl) */
  ollamaBaseUrl: string;
  /** every request received, in order, body JSON-parsed */
  requests: RecordedRequest[];
  /** number of requests (optionally only those whose path starts with prefix) */
  count(pathPrefix?: string): number;
  /** next chat replies (FIFO) for /v1/chat/completions, /v1/responses and /api/chat; default reply when empty */
  enqueue(...replies: ScriptedReply[]): void;
  /** clear requests and queue (id counters keep running so ids stay unique) */
  reset(): void;
  /** stop server, destroy open sockets */
  close(): Promise<void>;
}

/** Fixed timestamps so that recorded responses are byte-for-byte reproducible. */
const CREATED = 1700000000;
const CREATED_AT = "2024-01-01T00:00:00.000Z";
const DEFAULT_DIMS = 8;
const OLLAMA_DIMS = 8;

/**
 * Deterministic vector for `text`: values in [-1, 1], each exactly
 * Float32-representable (Math.fround), so a base64 Float32 round trip is lossless.
 */
export function fakeVector(text: string, dims: number): number[] {
  const out: number[] = [];
  let block = 0;
  while (out.length < dims) {
    const digest = createHash("sha256").update(`${block}:${text}`).digest();
    for (let i = 0; i + 1 < digest.length && out.length < dims; i += 2) {
      const u16 = digest.readUInt16LE(i); // 0..65535
      out.push(Math.fround(u16 / 32767.5 - 1));
    }
    block += 1;
  }
  return out;
}

// ---------------------------------------------------------------------------
// helpers

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function countWords(text: string): number {
  const m = text.match(/\S+/g);
  return m ? m.length : 0;
}

function lastUserText(messages: unknown): string {
  if (!Array.isArray(messages)) return "";
  for (let i = messages.length - 1; i >= 0; i -= 1) {
    const m = messages[i];
    if (m && typeof m === "object" && (m as any).role === "user") return contentText((m as any).content);
  }
  return "";
}

function promptWords(messages: unknown): number {
  if (!Array.isArray(messages)) return 0;
  return messages.reduce((n: number, m: any) => n + countWords(contentText(m?.content)), 0);
}

/** Split text into small pieces (one word plus its trailing whitespace each); concatenation is exact. */
function splitWords(text: string): string[] {
  return (text.match(/\S*\s*/g) ?? []).filter((piece) => piece.length > 0);
}

function splitFixed(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/**
 * A trivially matching value for a JSON schema: every required property filled with a
 * default of the right type (string "x", number/integer 1, boolean true, array [],
 * object {} recursively filled), enum/const -> first allowed value, anyOf/oneOf -> first branch.
 */
export function fillSchema(schema: any, depth = 0): unknown {
  if (!schema || typeof schema !== "object" || depth > 8) return {};
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ("default" in schema && schema.default !== undefined) return schema.default;
  const branches = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(branches) && branches.length > 0) {
    const nonNull = branches.find((b: any) => b?.type !== "null") ?? branches[0];
    return fillSchema(nonNull, depth + 1);
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return fillSchema(Object.assign({}, ...schema.allOf), depth + 1);
  }
  let type = schema.type;
  if (Array.isArray(type)) type = type.find((t: string) => t !== "null") ?? type[0];
  if (type === undefined && schema.properties) type = "object";
  switch (type) {
    case "string":
      return "x";
    case "number":
    case "integer":
      return 1;
    case "boolean":
      return true;
    case "array":
      return [];
    case "null":
      return null;
    case "object": {
      const obj: Record<string, unknown> = {};
      const props = schema.properties ?? {};
      for (const key of Array.isArray(schema.required) ? schema.required : []) {
        obj[key] = fillSchema(props[key], depth + 1);
      }
      return obj;
    }
    default:
      return {};
  }
}

interface ResolvedReply {
  content: string;
  toolCalls: { name: string; args: Record<string, unknown> }[];
  status?: number;
  usage: { prompt: number; completion: number };
}

function resolveUsage(
  scripted: ScriptedReply | undefined,
  promptCount: number,
  content: string,
  toolCalls: { name: string; args: Record<string, unknown> }[],
): { prompt: number; completion: number } {
  if (scripted?.usage) return { ...scripted.usage };
  const completion = countWords(content) + toolCalls.reduce((n, tc) => n + countWords(JSON.stringify(tc.args)), 0);
  return { prompt: Math.max(1, promptCount), completion: Math.max(1, completion) };
}

// ---------------------------------------------------------------------------

export function startFakeProvider(options: FakeProviderOptions = {}): Promise<FakeProvider> {
  const latencyMs = options.latencyMs ?? 0;
  const answers = options.answers ?? [];
  const vector = options.vector ?? fakeVector;
  const openaiDims = options.dims ?? DEFAULT_DIMS;
  const ollamaDims = options.dims ?? OLLAMA_DIMS;
  const requests: RecordedRequest[] = [];
  let queue: ScriptedReply[] = [];
  const sockets = new Set<Socket>();
  let chatSeq = 0;
  let callSeq = 0;
  let cmplSeq = 0;
  let moderationSerial = 0;

  const nextChatId = () => `chatcmpl-fake-${++chatSeq}`;
  const nextCallId = () => `call_fake_${++callSeq}`;

  function sendJson(res: http.ServerResponse, status: number, payload: unknown): void {
    const text = JSON.stringify(payload);
    res.writeHead(status, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
    });
    res.end(text);
  }

  function openaiError(res: http.ServerResponse, status: number): void {
    sendJson(res, status, { error: { message: "fake error", type: "server_error", code: null } });
  }

  /** Take the next scripted reply (if any) and fill in the defaults. */
  function resolveChat(
    scripted: ScriptedReply | undefined,
    defaultContent: string,
    defaultToolCalls: { name: string; args: Record<string, unknown> }[],
    promptCount: number,
  ): ResolvedReply {
    if (scripted) {
      const content = scripted.content ?? "";
      const toolCalls = scripted.toolCalls ?? [];
      return {
        content,
        toolCalls,
        status: scripted.status,
        usage: resolveUsage(scripted, promptCount, content, toolCalls),
      };
    }
    return {
      content: defaultContent,
      toolCalls: defaultToolCalls,
      usage: resolveUsage(undefined, promptCount, defaultContent, defaultToolCalls),
    };
  }

  // ---- OpenAI: POST /v1/chat/completions -----------------------------------
  function openaiChat(body: any, res: http.ServerResponse): void {
    const scripted = queue.shift();
    if (scripted?.status) return openaiError(res, scripted.status);

    // Defaults: structured output (json_schema / json_object), forced tool choice, else echo.
    let defaultContent = "echo: " + lastUserText(body?.messages);
    let defaultToolCalls: { name: string; args: Record<string, unknown> }[] = [];
    const rf = body?.response_format;
    if (rf?.type === "json_schema") {
      defaultContent = JSON.stringify(fillSchema(rf.json_schema?.schema ?? {}));
    } else if (rf?.type === "json_object") {
      defaultContent = "{}";
    }
    const forced = body?.tool_choice?.type === "function" ? body.tool_choice.function?.name : undefined;
    if (forced) {
      const tool = (body?.tools ?? []).find((t: any) => t?.function?.name === forced);
      defaultContent = "";
      defaultToolCalls = [{ name: forced, args: fillSchema(tool?.function?.parameters ?? {}) as Record<string, unknown> }];
    }
    const canned = scripted ? undefined : cannedReply(answers, body);
    if (canned) {
      defaultContent = canned.content;
      defaultToolCalls = canned.toolCalls;
    }

    const reply = resolveChat(scripted, defaultContent, defaultToolCalls, promptWords(body?.messages));
    const id = nextChatId();
    const model = body?.model ?? "fake-model";
    const calls = reply.toolCalls.map((tc) => ({ id: nextCallId(), name: tc.name, args: JSON.stringify(tc.args ?? {}) }));
    const finishReason = calls.length > 0 ? "tool_calls" : "stop";
    const usage = {
      prompt_tokens: reply.usage.prompt,
      completion_tokens: reply.usage.completion,
      total_tokens: reply.usage.prompt + reply.usage.completion,
    };

    if (!body?.stream) {
      const message: Record<string, unknown> = {
        role: "assistant",
        content: calls.length > 0 && reply.content === "" ? null : reply.content,
        refusal: null,
      };
      if (calls.length > 0) {
        message.tool_calls = calls.map((c) => ({
          id: c.id,
          type: "function",
          function: { name: c.name, arguments: c.args },
        }));
      }
      return sendJson(res, 200, {
        id,
        object: "chat.completion",
        created: CREATED,
        model,
        choices: [{ index: 0, message, finish_reason: finishReason, logprobs: null }],
        usage,
        system_fingerprint: null,
      });
    }

    // SSE stream
    const includeUsage = !!body?.stream_options?.include_usage;
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
    });
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => {
      const payload: Record<string, unknown> = {
        id,
        object: "chat.completion.chunk",
        created: CREATED,
        model,
        system_fingerprint: null,
        choices,
        ...extra,
      };
      if (includeUsage && !("usage" in payload)) payload.usage = null;
      res.write(`data: ${JSON.stringify(payload)}\n\n`);
    };
    const delta = (d: Record<string, unknown>, finish: string | null = null) => chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);

    delta({ role: "assistant", content: calls.length > 0 && reply.content === "" ? null : "", refusal: null });
    for (const piece of splitWords(reply.content)) delta({ content: piece });
    calls.forEach((c, index) => {
      delta({
        tool_calls: [{ index, id: c.id, type: "function", function: { name: c.name, arguments: "" } }],
      });
      for (const frag of splitFixed(c.args, 4)) {
        delta({ tool_calls: [{ index, function: { arguments: frag } }] });
      }
    });
    delta({}, finishReason);
    if (includeUsage) chunk([], { usage });
    res.write("data: [DONE]\n\n");
    res.end();
  }

  // ---- OpenAI: POST /v1/responses (./responses.ts) ---------------------------
  const idSeq = new Map<string, number>();
  const responsesContext: ResponsesContext = {
    answers,
    resolve: (content, toolCalls, words) => resolveChat(queue.shift(), content, toolCalls, words),
    fillSchema: (schema) => fillSchema(schema),
    nextId: (prefix) => {
      const n = (idSeq.get(prefix) ?? 0) + 1;
      idSeq.set(prefix, n);
      return `${prefix}${n}`;
    },
    created: CREATED,
    sendJson,
    error: openaiError,
  };

  // ---- OpenAI: POST /v1/embeddings -----------------------------------------
  /**
   * OpenAI's moderation endpoint: an input is flagged for "violence" when it holds the word "attack"
   * (a lookup, not a classifier); an input holding "answer 500" gets a server error.
   */
  function openaiModerations(body: any, res: http.ServerResponse): void {
    const raw = body?.input;
    const inputs: string[] = (Array.isArray(raw) ? raw : [raw]).map((x: unknown) => (typeof x === "string" ? x : JSON.stringify(x)));
    if (inputs.some((t) => t.includes("answer 500"))) {
      return sendJson(res, 500, { error: { message: "fake provider: moderation failed", type: "server_error", code: null } });
    }
    sendJson(res, 200, {
      id: `modr-fake-${++moderationSerial}`,
      model: body?.model ?? "omni-moderation-latest",
      results: inputs.map((text) => {
        const violent = /\battack\b/i.test(text);
        return {
          flagged: violent,
          categories: { harassment: false, hate: false, violence: violent },
          category_scores: { harassment: 0.0001, hate: 0.0001, violence: violent ? 0.97 : 0.0002 },
          category_applied_input_types: { harassment: ["text"], hate: ["text"], violence: ["text"] },
        };
      }),
    });
  }

  function openaiEmbeddings(body: any, res: http.ServerResponse): void {
    const raw = body?.input;
    let inputs: string[];
    if (typeof raw === "string") inputs = [raw];
    else if (Array.isArray(raw) && raw.length > 0 && raw.every((x) => typeof x === "number")) inputs = [JSON.stringify(raw)];
    else if (Array.isArray(raw)) inputs = raw.map((x) => (typeof x === "string" ? x : JSON.stringify(x)));
    else inputs = [];
    const dims = typeof body?.dimensions === "number" && body.dimensions > 0 ? body.dimensions : openaiDims;
    const base64 = body?.encoding_format === "base64";
    const tokens = inputs.reduce((n, t) => n + countWords(t), 0);
    sendJson(res, 200, {
      object: "list",
      data: inputs.map((text, index) => {
        const vec = vector(text, dims);
        let embedding: number[] | string = vec;
        if (base64) {
          const buf = Buffer.alloc(vec.length * 4);
          vec.forEach((v, i) => buf.writeFloatLE(v, i * 4)); // Float32 little-endian
          embedding = buf.toString("base64");
        }
        return { object: "embedding", index, embedding };
      }),
      model: body?.model ?? "fake-embedding",
      usage: { prompt_tokens: tokens, total_tokens: tokens },
    });
  }

  // ---- OpenAI: POST /v1/completions ----------------------------------------
  function openaiCompletions(body: any, res: http.ServerResponse): void {
    const raw = body?.prompt;
    const prompts: string[] = Array.isArray(raw)
      ? raw.map((p: unknown) => (typeof p === "string" ? p : JSON.stringify(p)))
      : [typeof raw === "string" ? raw : raw === undefined ? "" : JSON.stringify(raw)];
    const texts = prompts.map((p) => "echo: " + p);
    const prompt = Math.max(
      1,
      prompts.reduce((n, p) => n + countWords(p), 0),
    );
    const completion = Math.max(
      1,
      texts.reduce((n, t) => n + countWords(t), 0),
    );
    sendJson(res, 200, {
      id: `cmpl-fake-${++cmplSeq}`,
      object: "text_completion",
      created: CREATED,
      model: body?.model ?? "fake-instruct",
      choices: texts.map((text, index) => ({ text, index, finish_reason: "stop", logprobs: null })),
      usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion },
    });
  }

  // ---- Ollama: POST /api/chat (always NDJSON) ------------------------------
  function ollamaChat(body: any, res: http.ServerResponse): void {
    const scripted = queue.shift();
    if (scripted?.status) return sendJson(res, scripted.status, { error: "fake error" });

    let defaultContent = "echo: " + lastUserText(body?.messages);
    if (body?.format && typeof body.format === "object") defaultContent = JSON.stringify(fillSchema(body.format));
    else if (body?.format === "json") defaultContent = "{}";
    const canned = scripted ? undefined : cannedReply(answers, body);
    const reply = resolveChat(scripted, canned?.content ?? defaultContent, canned?.toolCalls ?? [], promptWords(body?.messages));
    const model = body?.model ?? "fake-model";

    res.writeHead(200, { "content-type": "application/x-ndjson" });
    for (const piece of splitWords(reply.content)) {
      res.write(JSON.stringify({ model, created_at: CREATED_AT, message: { role: "assistant", content: piece }, done: false }) + "\n");
    }
    const finalMessage: Record<string, unknown> = { role: "assistant", content: "" };
    if (reply.toolCalls.length > 0) {
      finalMessage.tool_calls = reply.toolCalls.map((tc) => ({ function: { name: tc.name, arguments: tc.args ?? {} } }));
    }
    res.write(
      JSON.stringify({
        model,
        created_at: CREATED_AT,
        message: finalMessage,
        done: true,
        done_reason: "stop",
        total_duration: 1000000,
        load_duration: 100000,
        prompt_eval_count: reply.usage.prompt,
        prompt_eval_duration: 200000,
        eval_count: reply.usage.completion,
        eval_duration: 700000,
      }) + "\n",
    );
    res.end();
  }

  // ---- Ollama: POST /api/embed ---------------------------------------------
  function ollamaEmbed(body: any, res: http.ServerResponse): void {
    const raw = body?.input;
    const inputs: string[] = Array.isArray(raw) ? raw.map((x: unknown) => String(x)) : [typeof raw === "string" ? raw : ""];
    sendJson(res, 200, {
      model: body?.model ?? "fake-embedding",
      embeddings: inputs.map((t) => vector(t, ollamaDims)),
      total_duration: 1000000,
      load_duration: 100000,
      prompt_eval_count: inputs.reduce((n, t) => n + countWords(t), 0),
    });
  }

  // ---------------------------------------------------------------------------
  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: any = undefined;
    if (text.length > 0) {
      try {
        body = JSON.parse(text);
      } catch {
        body = text;
      }
    }
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    requests.push({ method, path, headers: { ...req.headers }, body });
    if (latencyMs > 0) await sleep(latencyMs);

    const route = path.split("?")[0];
    if (method === "GET" && route === "/api/version") return sendJson(res, 200, { version: "0.0.0-stand-in" });
    if (method === "POST") {
      switch (route) {
        case "/v1/chat/completions":
          return openaiChat(body, res);
        case "/v1/responses":
          return openaiResponses(body, res, responsesContext);
        case "/v1/embeddings":
          return openaiEmbeddings(body, res);
        case "/v1/moderations":
          return openaiModerations(body, res);
        case "/v1/completions":
          return openaiCompletions(body, res);
        case "/api/chat":
          return ollamaChat(body, res);
        case "/api/embed":
          return ollamaEmbed(body, res);
      }
    }
    sendJson(res, 404, {
      error: { message: `fake provider: no route for ${method} ${path}`, type: "invalid_request_error", code: "not_found" },
    });
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (!res.headersSent) {
        sendJson(res, 500, { error: { message: `fake provider crashed: ${String(err)}`, type: "server_error", code: null } });
      } else {
        res.destroy(err);
      }
    });
  });
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  return new Promise<FakeProvider>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      server.off("error", reject);
      if (options.unref) server.unref();
      const { port } = server.address() as AddressInfo;
      const url = `http://127.0.0.1:${port}`;
      let closed: Promise<void> | undefined;
      resolve({
        url,
        openaiBaseURL: `${url}/v1`,
        ollamaBaseUrl: url,
        requests,
        count(pathPrefix?: string): number {
          if (pathPrefix === undefined) return requests.length;
          return requests.filter((r) => r.path.startsWith(pathPrefix)).length;
        },
        enqueue(...replies: ScriptedReply[]): void {
          queue.push(...replies);
        },
        reset(): void {
          requests.length = 0;
          queue = [];
        },
        close(): Promise<void> {
          if (!closed) {
            closed = new Promise<void>((done) => {
              server.close(() => done());
              for (const s of sockets) s.destroy();
              sockets.clear();
            });
          }
          return closed;
        },
      });
    });
  });
}
