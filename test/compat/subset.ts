/**
 * The compatibility subset: the few things every supported @langchain/core must do, through
 * the real ChatOpenAI / OpenAIEmbeddings / tool() against the loopback fake provider. It runs
 * inside a scratch project that has one core/openai pair installed and the packed
 * langchain-vcr (test/compat/matrix.mjs sets it up); esm.mjs and cjs.cjs hand it the modules
 * as an ESM or a CommonJS user gets them, so both entry points are checked against that core.
 */
import * as assert from "node:assert/strict";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type * as VcrModule from "../../src/index";
import { startFakeProvider } from "../../examples/provider/server";

/** What the subset uses, as the scratch project's langchain-vcr, @langchain/openai, core and zod give it. */
export interface CompatModules {
  vcr: Pick<typeof VcrModule, "Vcr" | "withVcr" | "isVcrError">;
  ChatOpenAI: new (fields: Record<string, unknown>) => {
    invoke(input: string): Promise<{ content: unknown; usage_metadata?: { total_tokens?: number } }>;
    stream(input: string): Promise<AsyncIterable<{ content: unknown }>>;
  };
  OpenAIEmbeddings: new (fields: Record<string, unknown>) => { embedQuery(text: string): Promise<number[]> };
  tool: (body: (args: { orderId: string }) => Promise<string>, fields: Record<string, unknown>) => unknown;
  z: { object(shape: Record<string, unknown>): unknown; string(): unknown };
}

const KEY = "compat-test-key-1";

/** Runs every check; throws an AssertionError on the first that fails. Returns what it counted. */
export async function runSubset(m: CompatModules, label: string): Promise<Record<string, number>> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `vcr-compat-${label}-`));
  const fake = await startFakeProvider();
  try {
    const vcr = new m.vcr.Vcr({ dir });
    const chat = () => new m.ChatOpenAI({ model: "gpt-4o-mini", apiKey: KEY, maxRetries: 0, cache: vcr.cache, configuration: { baseURL: fake.openaiBaseURL } });
    const record = <T>(fn: () => Promise<T>) => m.vcr.withVcr({ mode: "record_or_replay" }, fn);
    const replay = <T>(fn: () => Promise<T>) => m.vcr.withVcr({ mode: "replay_only" }, fn);
    const streamText = async () => {
      let text = "";
      for await (const chunk of await chat().stream("compat stream")) text += typeof chunk.content === "string" ? chunk.content : "";
      return text;
    };
    const embeddings = vcr.embeddings(
      new m.OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } }) as never,
    );
    let bodyRuns = 0;
    const status = vcr.tool(
      m.tool(async ({ orderId }) => `order ${orderId}: shipped (run ${++bodyRuns})`, {
        name: "get_order_status",
        description: "Status of an order.",
        schema: m.z.object({ orderId: m.z.string() }),
      }) as never,
    ) as unknown as { invoke(args: { orderId: string }): Promise<unknown> };

    // record: one live request per call, one fixture per kind
    const recorded = {
      chat: (await record(() => chat().invoke("compat question"))).content,
      stream: await record(streamText),
      vector: await record(() => embeddings.embedQuery("compat text")),
      tool: await record(() => status.invoke({ orderId: "A-1" })),
    };
    assert.equal(recorded.chat, "echo: compat question");
    assert.equal(recorded.stream, "echo: compat stream");
    assert.equal(recorded.tool, "order A-1: shipped (run 1)");
    const liveRequests = fake.count();
    assert.equal(liveRequests, 3, "chat, stream and embedding each reach the provider once while recording");
    const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));
    const kinds = files.map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")).kind).sort();
    assert.deepEqual(kinds, ["chat", "chat_stream", "embedding", "tool"]);

    // replay_only: the same answers, 0 requests, the tool body not run again
    fake.reset();
    const replayed = await replay(() => chat().invoke("compat question"));
    assert.equal(replayed.content, "echo: compat question");
    assert.ok((replayed.usage_metadata?.total_tokens ?? 0) > 0, "usage is restored on replay");
    assert.equal(await replay(streamText), "echo: compat stream");
    assert.deepEqual(await replay(() => embeddings.embedQuery("compat text")), recorded.vector);
    assert.equal(await replay(() => status.invoke({ orderId: "A-1" })), "order A-1: shipped (run 1)");
    assert.equal(fake.count(), 0, "replay_only made no HTTP request");
    assert.equal(bodyRuns, 1, "the tool body ran once (while recording)");

    // a miss under replay_only is a VcrMissError, never a live call
    const miss = await replay(() => chat().invoke("never recorded")).catch((e: unknown) => e);
    assert.ok(m.vcr.isVcrError(miss), `a miss is a langchain-vcr error (got ${String(miss)})`);
    assert.equal((miss as { code?: string }).code, "VCR_MISS");
    assert.equal(fake.count(), 0, "a miss made no HTTP request");
    return { liveRequests, fixtures: files.length, replayRequests: fake.count(), bodyRuns };
  } finally {
    await fake.close();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
