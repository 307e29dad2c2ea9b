/**
 * The compatibility subset: the few things every supported @langchain/core must do, through
 * the real ChatOpenAI / ChatOllama / OpenAIEmbeddings / tool() against the loopback fake provider. It runs
 * inside a scratch project that has one core/openai pair installed and the packed
 * langchain-vcr (test/compat/matrix.mjs sets it up); esm.mjs and cjs.cjs hand it the modules
 * as an ESM or a CommonJS user gets them, so both entry points are checked against that core.
 *
 * As in a user's suite, recording and replay are two runs: the entry file starts the fake,
 * then runs itself twice as a child process (VCR_COMPAT_PHASE=record, then replay) against it.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as VcrModule from "../../src/index";
import { startFakeProvider } from "../../examples/provider/server";
import { runChild } from "../helpers/child";

/** A chat model class, as far as the subset uses it. */
type ChatClass = new (fields: Record<string, unknown>) => {
  invoke(input: string): Promise<{ content: unknown; usage_metadata?: { total_tokens?: number } }>;
  stream(input: string): Promise<AsyncIterable<{ content: unknown }>>;
  streamEvents(input: string): AsyncIterable<unknown>;
};

/** What the subset uses, as the scratch project's langchain-vcr, @langchain/openai, @langchain/ollama, core and zod give it. */
export interface CompatModules {
  vcr: Pick<typeof VcrModule, "Vcr" | "withVcr" | "isVcrError">;
  ChatOpenAI: ChatClass;
  ChatOllama: ChatClass;
  OpenAIEmbeddings: new (fields: Record<string, unknown>) => { embedQuery(text: string): Promise<number[]> };
  tool: (body: (args: { orderId: string }) => Promise<string>, fields: Record<string, unknown>) => unknown;
  z: { object(shape: Record<string, unknown>): unknown; string(): unknown };
}

/** What one run saw. */
interface Observed {
  chat: unknown;
  usage: number;
  stream: string;
  /** The new-protocol streamEvents() (core 1.2+): the events, as JSON. */
  events: unknown[];
  vector: unknown;
  /** ChatOllama: invoke's content and .stream()'s text. */
  ollama: unknown;
  ollamaStream: string;
  tool: unknown;
  bodyRuns: number;
  missCode?: string;
}

const KEY = "compat-test-key-1";
const PHASE_TIMEOUT_MS = 60_000;

/** Runs the subset: the parent starts the fake and both runs, and asserts; a child (VCR_COMPAT_PHASE set) is one run. */
export async function runSubset(m: CompatModules, label: string, entryFile: string): Promise<Record<string, number> | undefined> {
  const phase = process.env.VCR_COMPAT_PHASE;
  if (phase === "record" || phase === "replay") {
    const env = process.env as Record<string, string>;
    console.log(JSON.stringify(await run(m, phase, { openai: env.VCR_COMPAT_OPENAI, ollama: env.VCR_COMPAT_OLLAMA }, env.VCR_COMPAT_DIR)));
    return undefined;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `vcr-compat-${label}-`));
  const fake = await startFakeProvider();
  try {
    const child = (p: "record" | "replay") =>
      runPhase(entryFile, { VCR_COMPAT_PHASE: p, VCR_COMPAT_OPENAI: fake.openaiBaseURL, VCR_COMPAT_OLLAMA: fake.ollamaBaseUrl, VCR_COMPAT_DIR: dir });

    // record: one live request per call, one fixture per kind
    const recorded = await child("record");
    assert.equal(recorded.chat, "echo: compat question");
    assert.equal(recorded.stream, "echo: compat stream");
    assert.equal(recorded.ollama, "echo: compat ollama");
    assert.equal(recorded.ollamaStream, "echo: compat ollama stream");
    assert.equal(recorded.tool, "order A-1: shipped");
    assert.equal(recorded.bodyRuns, 1);
    const liveRequests = fake.count();
    assert.equal(liveRequests, 6, "chat, .stream(), streamEvents(), the embedding and ChatOllama's two calls each reach the provider once while recording");
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));
    const kinds = files.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")).kind).sort();
    assert.deepEqual(kinds, ["chat", "chat", "chat_stream", "chat_stream", "chat_stream", "embedding", "tool"]);
    assert.ok(recorded.events.length > 0, "streamEvents() yielded events");

    // replay_only: the same answers, 0 requests, the tool body not run; a miss is a VcrMissError
    fake.reset();
    const replayed = await child("replay");
    const { missCode, ...answers } = replayed;
    assert.deepEqual(answers, { ...recorded, bodyRuns: 0 }, "replay gives what recording got (usage included), without running the tool body");
    assert.equal(missCode, "VCR_MISS", "an unrecorded prompt under replay_only is a VcrMissError");
    assert.ok(replayed.usage > 0, "usage is restored on replay");
    assert.equal(fake.count(), 0, "replay_only made no HTTP request");
    assert.deepEqual(
      fs.readdirSync(dir).filter((f) => f.endsWith(".json")),
      files,
      "replay wrote nothing",
    );
    return { liveRequests, fixtures: files.length, replayRequests: fake.count(), replayBodyRuns: replayed.bodyRuns };
  } finally {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** All of a .stream()'s text. */
async function streamText(model: InstanceType<ChatClass>, input: string): Promise<string> {
  let text = "";
  for await (const chunk of await model.stream(input)) text += typeof chunk.content === "string" ? chunk.content : "";
  return text;
}

/** One run (a child process): every call under record_or_replay, or under replay_only plus a miss. */
async function run(m: CompatModules, phase: "record" | "replay", urls: { openai: string; ollama: string }, dir: string): Promise<Observed> {
  const mode = phase === "record" ? "record_or_replay" : "replay_only";
  const vcr = new m.vcr.Vcr({ dir, mode });
  const baseURL = urls.openai;
  const chat = () => new m.ChatOpenAI({ model: "gpt-4o-mini", apiKey: KEY, maxRetries: 0, cache: vcr.cache, configuration: { baseURL } });
  const ollama = () => new m.ChatOllama({ model: "llama3.2", baseUrl: urls.ollama, maxRetries: 0, cache: vcr.cache });
  const embeddings = vcr.embeddings(
    new m.OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: KEY, maxRetries: 0, configuration: { baseURL } }) as never,
  );
  let bodyRuns = 0;
  const status = vcr.tool(
    m.tool(async ({ orderId }) => (bodyRuns++, `order ${orderId}: shipped`), {
      name: "get_order_status",
      description: "Status of an order.",
      schema: m.z.object({ orderId: m.z.string() }),
    }) as never,
  ) as unknown as { invoke(args: { orderId: string }): Promise<unknown> };

  const answer = await chat().invoke("compat question");
  const stream = await streamText(chat(), "compat stream");
  const events: unknown[] = [];
  for await (const e of chat().streamEvents("compat events")) events.push(JSON.parse(JSON.stringify(e)));
  const observed: Observed = {
    chat: answer.content,
    usage: answer.usage_metadata?.total_tokens ?? 0,
    stream,
    events,
    vector: await embeddings.embedQuery("compat text"),
    ollama: (await ollama().invoke("compat ollama")).content,
    ollamaStream: await streamText(ollama(), "compat ollama stream"),
    tool: await status.invoke({ orderId: "A-1" }),
    bodyRuns,
  };
  if (phase === "replay") {
    const miss = await chat()
      .invoke("never recorded")
      .catch((e: unknown) => e);
    observed.missCode = m.vcr.isVcrError(miss) ? (miss as { code: string }).code : `not a langchain-vcr error: ${String(miss)}`;
  }
  return observed;
}

/** This entry file again, in a child process with the same loader (tsx) and `env` added; its last stdout line parsed. */
async function runPhase(entryFile: string, env: Record<string, string>): Promise<Observed> {
  const out = await runChild(process.execPath, [...process.execArgv, entryFile], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    timeoutMs: PHASE_TIMEOUT_MS,
  });
  if (out.status !== 0) throw new Error(`the ${env.VCR_COMPAT_PHASE} run failed (status ${out.status}):\n${out.stdout}${out.stderr}`);
  return JSON.parse(out.stdout.trim().split("\n").pop()!) as Observed;
}
