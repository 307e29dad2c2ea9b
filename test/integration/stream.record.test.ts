import { expect } from "chai";
import { inOwnTest } from "../helpers/ownTest";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessageChunk, type BaseMessageChunk } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { StringOutputParser } from "@langchain/core/output_parsers";
import { createAgent, tool } from "langchain";
import { ChatOpenAI } from "@langchain/openai";
import type { CallbackManagerForLLMRun } from "@langchain/core/callbacks/manager";
import type { BaseMessage } from "@langchain/core/messages";
import { z } from "zod";
import * as fs from "node:fs";
import * as path from "node:path";
import { Vcr, VcrFixtureError, VcrMissError, isVcrError, normalizers, withVcr } from "../../src/index";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { ollama, openai } from "../helpers/models";
import { fixtureFiles, readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { stderrOf } from "../helpers/notes";

const weatherTool = {
  type: "function" as const,
  function: {
    name: "get_weather",
    description: "Weather for a city",
    parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  },
};

async function collect(stream: AsyncIterable<BaseMessageChunk>): Promise<AIMessageChunk[]> {
  const out: AIMessageChunk[] = [];
  for await (const c of stream) out.push(c as AIMessageChunk);
  return out;
}

/** JSON's view of a value: what a fixture can hold (members set to undefined are absent). */
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

/** What a chunk says, without the run id core stamps on id-less chunks. */
function view(c: AIMessageChunk) {
  return json({
    content: c.content,
    id: c.id?.startsWith("run-") ? "run-*" : c.id,
    tool_call_chunks: c.tool_call_chunks,
    usage_metadata: c.usage_metadata,
    response_metadata: c.response_metadata,
    additional_kwargs: c.additional_kwargs,
  });
}

function aggregate(chunks: AIMessageChunk[]): AIMessageChunk {
  return chunks.reduce((a, b) => a.concat(b) as AIMessageChunk);
}

interface TokenLog {
  tokens: { token: string; idx: unknown; chunkText: string | undefined }[];
  ends: { text: string; content: unknown; toolCalls: unknown; usage: unknown }[];
}

function tokenHandler(log: TokenLog) {
  return {
    handleLLMNewToken(token: string, idx: unknown, _runId: string, _p?: string, _t?: string[], fields?: { chunk?: ChatGenerationChunk }) {
      log.tokens.push({ token, idx, chunkText: fields?.chunk?.text });
    },
    handleLLMEnd(output: { generations: { text: string; message?: AIMessageChunk }[][] }) {
      const g = output.generations[0][0];
      log.ends.push({ text: g.text, content: g.message?.content, toolCalls: g.message?.tool_calls, usage: g.message?.usage_metadata });
    },
  };
}

describe("stream: recording and replay in one process", () => {
  let fake: FakeProvider;
  let dir: string;
  let vcr: Vcr;
  beforeEach(async () => {
    fake = await startFakeProvider();
    dir = tmpDir();
    vcr = new Vcr({ dir, mode: "record_or_replay" });
  });
  afterEach(async () => {
    await fake.close();
    removeTmpDirs();
  });

  for (const [name, make] of [
    ["ChatOpenAI (SSE)", openai],
    ["ChatOllama (NDJSON)", ollama],
  ] as const) {
    it(`${name}: records a chat_stream fixture, then replays the same chunks with 0 requests`, async () => {
      const live = await collect(await make(fake, vcr.cache).stream("Tell me a short story"));
      expect(fake.count()).to.equal(1);
      const t0 = Date.now();
      const replayed = await collect(await make(fake, vcr.cache).stream("Tell me a short story"));
      expect(Date.now() - t0).to.be.lessThan(5000); // a hang guard (a tokenizer download takes minutes), not a speed test
      expect(fake.count()).to.equal(1);
      expect(live.length).to.be.greaterThan(3);
      expect(replayed.map(view)).to.deep.equal(live.map(view));
      expect(view(aggregate(replayed))).to.deep.equal(view(aggregate(live)));
      expect(aggregate(replayed).content).to.equal("echo: Tell me a short story");
      expect(aggregate(replayed).usage_metadata?.total_tokens).to.be.greaterThan(0);
      expect(vcr.stats()).to.deep.equal({ replayed: 1, recorded: 1, bypassed: 0, missed: 0 });
      const [fx] = readFixtures(dir);
      expect(fx.kind).to.equal("chat_stream");
      expect(fx.response.chunks).to.have.length(live.length);
      expect(fx.response.chunks.map((c: { text: string }) => c.text).join("")).to.equal("echo: Tell me a short story");
    });

    it(`${name}: a streamed tool call replays the same argument fragments (tool_call_chunks)`, async () => {
      fake.enqueue({ toolCalls: [{ name: "get_weather", args: { city: "Paris" } }] });
      const live = await collect(await make(fake, vcr.cache).bindTools([weatherTool]).stream("Weather in Paris?"));
      const replayed = await collect(await make(fake, vcr.cache).bindTools([weatherTool]).stream("Weather in Paris?"));
      expect(fake.count()).to.equal(1);
      const fragments = (cs: AIMessageChunk[]) => json(cs.flatMap((c) => c.tool_call_chunks ?? []));
      expect(fragments(live).length).to.be.greaterThan(0);
      expect(fragments(replayed)).to.deep.equal(fragments(live));
      expect(replayed.map(view)).to.deep.equal(live.map(view));
      const calls = aggregate(replayed).tool_calls!;
      expect(calls.map((c) => [c.name, c.args])).to.deep.equal([["get_weather", { city: "Paris" }]]);
      expect(calls[0].id).to.equal(aggregate(live).tool_calls![0].id);
      expect(readFixtures(dir)[0].request.tools[0].name).to.equal("get_weather");
    });

    it(`${name}: handleLLMNewToken fires per chunk with the chunk, and handleLLMEnd with the aggregate, as live`, async () => {
      const liveLog: TokenLog = { tokens: [], ends: [] };
      const replayLog: TokenLog = { tokens: [], ends: [] };
      await collect(await make(fake, vcr.cache).stream("count my tokens", { callbacks: [tokenHandler(liveLog)] }));
      await collect(await make(fake, vcr.cache).stream("count my tokens", { callbacks: [tokenHandler(replayLog)] }));
      expect(fake.count()).to.equal(1);
      expect(liveLog.tokens.length).to.be.greaterThan(2);
      expect(replayLog.tokens).to.deep.equal(liveLog.tokens);
      expect(replayLog.tokens.every((t) => t.chunkText === t.token)).to.equal(true);
      expect(replayLog.ends).to.have.length(1);
      expect(json(replayLog.ends)).to.deep.equal(json(liveLog.ends));
      expect(replayLog.ends[0].text).to.equal("echo: count my tokens");
    });
  }

  it("a plain invoke and a stream of the same prompt are two fixtures (chat and chat_stream)", async () => {
    const model = openai(fake, vcr.cache);
    await model.invoke("same prompt");
    await collect(await model.stream("same prompt"));
    expect(fake.count()).to.equal(2);
    await model.invoke("same prompt");
    await collect(await model.stream("same prompt"));
    expect(fake.count()).to.equal(2);
    const fixtures = readFixtures(dir);
    expect(fixtures.map((f) => f.kind).sort()).to.deep.equal(["chat", "chat_stream"]);
    expect(fixtures[0].request).to.deep.equal(fixtures[1].request);
  });

  it("replay_only: a stream of a request recorded only as a plain call (and the reverse) misses naming that fixture", async () => {
    const model = openai(fake, vcr.cache);
    await model.invoke("asked plainly");
    await collect(await model.stream("asked streamed"));
    const [plainFile] = readFixtures(dir)
      .filter((f) => f.kind === "chat")
      .map((f) => path.join(dir, `${f.hash}.json`));
    const [streamFile] = readFixtures(dir)
      .filter((f) => f.kind === "chat_stream")
      .map((f) => path.join(dir, `${f.hash}.json`));
    const streamed = await withVcr({ mode: "replay_only" }, async () => collect(await model.stream("asked plainly"))).catch((e: Error) => e);
    const plain = await withVcr({ mode: "replay_only" }, () => model.invoke("asked streamed")).catch((e: Error) => e);
    const other = await withVcr({ mode: "replay_only" }, async () => collect(await model.stream("asked otherwise"))).catch((e: Error) => e);
    expect(streamed).to.be.instanceOf(VcrMissError);
    expect((streamed as Error).message).to.contain(
      `this very request is recorded as a chat fixture, ${plainFile}: it answers a plain call of it (invoke, batch), and this call streams`,
    );
    expect(plain).to.be.instanceOf(VcrMissError);
    expect((plain as Error).message).to.contain(`this very request is recorded as a chat_stream fixture, ${streamFile}: it answers a stream of it`);
    for (const e of [streamed, plain]) {
      expect((e as Error).message).not.to.contain("nearest recorded"); // another prompt's fixture: beside the point
      expect((e as Error).message).not.to.contain("is recorded in this directory yet");
      expect((e as Error).message).not.to.contain("A stream is written only once");
    }
    expect(other).to.be.instanceOf(VcrMissError);
    expect((other as Error).message).not.to.contain("this very request is recorded");
    expect(fake.count()).to.equal(2);
  });

  it("a stream recorded without callbacks still replays the provider's token callbacks (ChatOllama: one per chunk but the last)", async () => {
    const live = await collect(await ollama(fake, vcr.cache).stream("no callbacks here"));
    const log: TokenLog = { tokens: [], ends: [] };
    await collect(await ollama(fake, vcr.cache).stream("no callbacks here", { callbacks: [tokenHandler(log)] }));
    expect(fake.count()).to.equal(1);
    expect(log.tokens).to.have.length(live.length - 1);
  });

  it("replay_only: a miss throws VcrMissError before any chunk, with 0 requests", async () => {
    const model = openai(fake, vcr.cache);
    const got: unknown[] = [];
    let error: unknown;
    await withVcr({ mode: "replay_only" }, async () => {
      try {
        for await (const c of await model.stream("never recorded")) got.push(c);
      } catch (e) {
        error = e;
      }
    });
    expect(got).to.have.length(0);
    expect(error).to.be.instanceOf(VcrMissError);
    expect(isVcrError(error) && error.code).to.equal("VCR_MISS");
    expect((error as VcrMissError).kind).to.equal("chat_stream");
    expect((error as Error).message).to.contain('no recorded fixture for this chat_stream request from ChatOpenAI (model "gpt-4o-mini"), streamed');
    expect(fake.count()).to.equal(0);
    expect(fixtureFiles(dir)).to.have.length(0);
    expect(vcr.stats().missed).to.equal(1);
  });

  it("a chat_stream fixture whose response is damaged fails with VcrFixtureError naming the file and the fix, before any chunk", async function () {
    const title = this.test!.fullTitle(); // the message names the test and the command that re-records just it
    await collect(await openai(fake, vcr.cache).stream("to be damaged"));
    const [file] = fixtureFiles(dir);
    const full = path.join(dir, file);
    const fx = JSON.parse(fs.readFileSync(full, "utf8"));
    fx.response = { generations: [] };
    fs.writeFileSync(full, JSON.stringify(fx));
    const got: unknown[] = [];
    let error: unknown;
    try {
      for await (const c of await openai(fake, vcr.cache).stream("to be damaged")) got.push(c);
    } catch (e) {
      error = e;
    }
    expect(got).to.have.length(0);
    expect(error).to.be.instanceOf(VcrFixtureError);
    expect((error as VcrFixtureError).file).to.equal(full);
    expect((error as Error).message).to.equal(
      `langchain-vcr: the chat_stream fixture ${full} has no "response.chunks" array, so replay refuses it.\n` +
        `  hash:     ${fx.hash}\n` +
        `  test:     ${title}\n` +
        `  A chat_stream fixture's response is { "chunks": [ { "text", "message", "generationInfo"?, "newToken"? } ] }; ` +
        `this one was edited by hand, merged badly, written by something else, or recorded by an earlier langchain-vcr from a provider answer replay cannot use (an error body sent with status 200). ` +
        `It was not treated as a miss and was not overwritten (npx langchain-vcr validate lists every such fixture).\n` +
        `  Fix it: restore it from git (git checkout -- "${full}"), or delete it and re-record it: ` +
        `rm "${full}" && LANGCHAIN_VCR_MODE=record_or_replay npx mocha --grep "${title}"`,
    );
    expect(fake.count()).to.equal(1);
  });

  it("an aborted stream (AbortController after the first chunk) writes nothing; the next one records", async () => {
    const controller = new AbortController();
    const model = openai(fake, vcr.cache);
    let seen = 0;
    let error: unknown;
    try {
      for await (const _ of await model.stream("abort me", { signal: controller.signal })) {
        seen++;
        controller.abort();
      }
    } catch (e) {
      error = e;
    }
    expect(seen).to.equal(1);
    expect(error).to.be.instanceOf(Error);
    expect(fixtureFiles(dir)).to.have.length(0);
    expect(vcr.stats().recorded).to.equal(0);
    await collect(await model.stream("abort me"));
    expect(fixtureFiles(dir)).to.have.length(1);
    expect(fake.count()).to.equal(2);
  });

  it("breaking out of the loop after one chunk writes nothing, warns once that the request can never replay, and releases the request: the same stream then records", async () => {
    const warned: string[] = [];
    for (const make of [openai, ollama]) {
      const model = make(fake, vcr.cache);
      warned.push(
        await stderrOf(async () => {
          for await (const _ of await model.stream("break early")) break;
        }),
      );
      expect(fixtureFiles(dir)).to.have.length(0);
    }
    expect(fake.count()).to.equal(2);
    for (const [i, text] of warned.entries()) {
      expect(text, `warning ${i}: ${text}`).to.match(
        /^langchain-vcr: the stream from ChatOpenAI \(model "gpt-4o-mini"\) was stopped by its caller before its end|^langchain-vcr: the stream from ChatOllama .+ was stopped by its caller before its end/,
      );
      expect(text).to.match(/\n {2}hash: {5}[0-9a-f]{64}\n/);
      expect(text).to.include("under replay_only (CI=true) this request misses in every run");
      expect(text.match(/langchain-vcr: /g), "one warning").to.have.length(1);
    }
    const again = await stderrOf(async () => {
      for await (const _ of await openai(fake, vcr.cache).stream("break early")) break;
    });
    expect(again, "said once per request").to.equal("");
    expect(fake.count()).to.equal(3);
    const missed = await withVcr({ mode: "replay_only" }, async () => {
      for await (const _ of await openai(fake, vcr.cache).stream("break early")) break;
    }).then(
      () => undefined,
      (e: Error) => e,
    );
    expect(missed).to.be.instanceOf(VcrMissError);
    expect(missed!.message).to.include("A stream is written only once it has been read to its end");
    const done = await collect(await openai(fake, vcr.cache).stream("break early"));
    expect(done.length).to.be.greaterThan(1);
    expect(fixtureFiles(dir)).to.have.length(1);
    expect(vcr.stats()).to.deep.include({ recorded: 1, replayed: 0 });
    // a miss the nearest fixture explains (an edit of a fixture no request of this run used: an old form
    // of this one) is not also told about streams read part way; one whose nearest is a sibling's still is
    const missOf = (v: Vcr) =>
      withVcr({ mode: "replay_only" }, async () => collect(await openai(fake, v.cache).stream("break early!"))).then(
        () => undefined,
        (e: Error) => e,
      );
    const sibling = await missOf(vcr);
    expect(sibling).to.be.instanceOf(VcrMissError);
    expect(sibling!.message).to.include(`messages[0].content: "break early" → "break early!"`);
    expect(sibling!.message).to.include("read to its end");
    const earlier = tmpDir();
    for (const f of fixtureFiles(dir)) fs.copyFileSync(path.join(dir, f), path.join(earlier, f));
    const edited = await missOf(new Vcr({ dir: earlier }));
    expect(edited).to.be.instanceOf(VcrMissError);
    expect(edited!.message).to.include(`messages[0].content: "break early" → "break early!"`);
    expect(edited!.message).not.to.include("read to its end");
  });

  it("an iterator dropped half-way (next() once, never closed) writes nothing and blocks nothing: the same stream then records", async () => {
    const iter = (await openai(fake, vcr.cache).stream("dropped"))[Symbol.asyncIterator]();
    const first = await iter.next();
    expect(first.done).to.equal(false);
    await new Promise((r) => setTimeout(r, 50));
    expect(fixtureFiles(dir)).to.have.length(0);
    const again = await collect(await openai(fake, vcr.cache).stream("dropped"));
    expect(again.length).to.be.greaterThan(1);
    expect(fixtureFiles(dir)).to.have.length(1);
    expect(fake.count()).to.equal(2);
    await iter.return?.();
    expect(fixtureFiles(dir)).to.have.length(1);
  });

  for (const [name, make] of [
    ["ChatOpenAI", openai],
    ["ChatOllama", ollama],
  ] as const) {
    it(`${name}: a stream that errors (HTTP 500, maxRetries 0) writes nothing; the retry records`, async () => {
      fake.enqueue({ status: 500 });
      let error: unknown;
      try {
        await collect(await make(fake, vcr.cache).stream("fails once"));
      } catch (e) {
        error = e;
      }
      expect(error).to.be.instanceOf(Error);
      expect(isVcrError(error)).to.equal(false);
      expect(fixtureFiles(dir)).to.have.length(0);
      await collect(await make(fake, vcr.cache).stream("fails once"));
      expect(fixtureFiles(dir)).to.have.length(1);
      expect(fake.count()).to.equal(2);
    });
  }

  it("identical streams at once each stream live (nothing waits on a stream); one fixture is written and replays", async () => {
    const [a, b] = await Promise.all([openai(fake, vcr.cache).stream("concurrent").then(collect), openai(fake, vcr.cache).stream("concurrent").then(collect)]);
    expect(fake.count()).to.equal(2);
    expect(b.map((c) => c.content)).to.deep.equal(a.map((c) => c.content));
    expect(fixtureFiles(dir)).to.have.length(1);
    const c = await collect(await openai(fake, vcr.cache).stream("concurrent"));
    expect(fake.count()).to.equal(2);
    expect([a.map(view), b.map(view)]).to.deep.include(c.map(view));
  });

  it("withConfig, withStructuredOutput and a prompt | model | parser chain stream through the same fixtures", async () => {
    const run = async () => {
      const bound = await collect(
        await openai(fake, vcr.cache)
          .withConfig({ stop: ["END"] })
          .stream("with config"),
      );
      const structured: unknown[] = [];
      const so = openai(fake, vcr.cache).withStructuredOutput(z.object({ city: z.string() }), { method: "functionCalling", name: "answer" });
      for await (const s of await so.stream("Give me a city")) structured.push(s);
      const chain = ChatPromptTemplate.fromMessages([["human", "Say {word}"]])
        .pipe(ollama(fake, vcr.cache))
        .pipe(new StringOutputParser());
      const pieces: string[] = [];
      for await (const p of await chain.stream({ word: "hi" })) pieces.push(p);
      return { bound: bound.map(view), structured, pieces };
    };
    const live = await run();
    expect(fake.count()).to.equal(3);
    const replayed = await run();
    expect(fake.count()).to.equal(3);
    expect(replayed).to.deep.equal(live);
    expect(live.structured.at(-1)).to.deep.equal({ city: "x" });
    expect(live.pieces.join("")).to.equal("echo: Say hi");
    const requests = readFixtures(dir).map((f) => f.request);
    expect(requests.some((r) => JSON.stringify(r.stop) === '["END"]')).to.equal(true);
    expect(readFixtures(dir).every((f) => f.kind === "chat_stream")).to.equal(true);
  });

  it("modes apply to streams: record_always re-records, bypass writes nothing, a withVcr scope overrides", async () => {
    const always = new Vcr({ dir, mode: "record_always" });
    await collect(await openai(fake, always.cache).stream("modes"));
    await collect(await openai(fake, always.cache).stream("modes"));
    expect(fake.count()).to.equal(2);
    expect(always.stats()).to.deep.include({ recorded: 2, replayed: 0 });
    const bypass = new Vcr({ dir, mode: "bypass" });
    await collect(await openai(fake, bypass.cache).stream("bypassed prompt"));
    expect(bypass.stats()).to.deep.include({ bypassed: 1, recorded: 0 });
    expect(fixtureFiles(dir)).to.have.length(1);
    await withVcr({ mode: "bypass" }, async () => collect(await openai(fake, vcr.cache).stream("scoped bypass")));
    expect(fixtureFiles(dir)).to.have.length(1);
    expect(fake.count()).to.equal(4);
    await withVcr({ mode: "replay_only" }, async () => collect(await openai(fake, vcr.cache).stream("modes")));
    expect(fake.count()).to.equal(4);
  });

  it("normalizers key the stream request and redactors change what is written, as for plain calls", async () => {
    const nvcr = new Vcr({
      dir,
      mode: "record_or_replay",
      normalizers: [normalizers.isoDate],
      redactors: [
        (f) => {
          const r = f.response as { chunks: { text: string; message: { content: string } }[] };
          for (const c of r.chunks) {
            c.text = c.text.replace("Paris", "[CITY]");
            c.message.content = c.message.content.replace("Paris", "[CITY]");
          }
          return f;
        },
      ],
    });
    const live = await collect(await openai(fake, nvcr.cache).stream("Paris on 2024-05-01"));
    expect(aggregate(live).content).to.equal("echo: Paris on 2024-05-01");
    const replayed = await collect(await openai(fake, nvcr.cache).stream("Paris on 2031-12-24"));
    expect(fake.count()).to.equal(1);
    expect(aggregate(replayed).content).to.equal("echo: [CITY] on 2024-05-01");
    const [fx] = readFixtures(dir);
    expect(fx.redacted).to.equal(true);
    expect(JSON.stringify(fx.request)).to.contain("Paris on <ISO_DATE>").and.not.contain("2024-05-01");
  });

  describe("which calls are streams", () => {
    const getOrder = tool(async ({ orderId }) => `order ${orderId} shipped`, {
      name: "get_order",
      description: "Order status",
      schema: z.object({ orderId: z.string() }),
    });
    const agentReplies = () => fake.enqueue({ toolCalls: [{ name: "get_order", args: { orderId: "7" } }] }, { content: "Order 7 shipped." });

    it('agent.invoke() stays a plain call (chat fixtures); the same agent streamed with streamMode "messages" records chat_stream', async () => {
      agentReplies();
      await createAgent({ model: openai(fake, vcr.cache), tools: [getOrder] }).invoke({ messages: [{ role: "user", content: "Order 7?" }] });
      expect(readFixtures(dir).map((f) => f.kind)).to.deep.equal(["chat", "chat"]);
      agentReplies();
      const agent = createAgent({ model: openai(fake, vcr.cache), tools: [getOrder] });
      for await (const _ of await agent.stream({ messages: [{ role: "user", content: "Order 7?" }] }, { streamMode: "messages" })) void _;
      expect(
        readFixtures(dir)
          .map((f) => f.kind)
          .sort(),
      ).to.deep.equal(["chat", "chat", "chat_stream", "chat_stream"]);
      expect(fake.count()).to.equal(4);
    });

    it('LangGraph\'s new stream protocol (streamMode "messages", version "v3") replays the same events', async () => {
      const run = async () => {
        agentReplies();
        const agent = createAgent({ model: openai(fake, vcr.cache), tools: [getOrder] });
        const events: unknown[] = [];
        const stream = await agent.stream({ messages: [{ role: "user", content: "Order 7?" }] }, { streamMode: "messages", version: "v3" } as never);
        for await (const ev of stream as AsyncIterable<unknown>) if (Array.isArray(ev)) events.push(json(ev[0]));
        return events;
      };
      const live = await run();
      fake.reset();
      // the replay as the next run makes it: in one test, a graph's second answer from a fixture gets an id of its own (src/adapters/chat/answerIds.ts)
      const replayed = await inOwnTest({}, run);
      expect(fake.count()).to.equal(0);
      expect(live.length).to.be.greaterThan(8);
      expect(replayed).to.deep.equal(live);
      expect(readFixtures(dir).every((f) => f.kind === "chat_stream")).to.equal(true);
    });

    it("invoke() with a token-streaming handler given to the constructor records a stream and replays its tokens", async () => {
      const make = (log: TokenLog) => openai(fake, vcr.cache, { callbacks: [{ lc_prefer_streaming: true, ...tokenHandler(log) }] });
      const liveLog: TokenLog = { tokens: [], ends: [] };
      const replayLog: TokenLog = { tokens: [], ends: [] };
      const live = await make(liveLog).invoke("stream me inside invoke");
      const replayed = await make(replayLog).invoke("stream me inside invoke");
      expect(fake.count()).to.equal(1);
      expect(readFixtures(dir).map((f) => f.kind)).to.deep.equal(["chat_stream"]);
      expect(replayed.content).to.equal(live.content);
      expect(replayLog.tokens.length).to.be.greaterThan(2);
      expect(replayLog.tokens).to.deep.equal(liveLog.tokens);
    });

    it("invoke() of a streaming: true model (and ChatOllama's) with a per-call token handler marked lc_prefer_streaming replays the live tokens (docs/streaming.md)", async () => {
      for (const make of [() => openai(fake, vcr.cache, { streaming: true }), () => ollama(fake, vcr.cache)]) {
        const run = async () => {
          const log: TokenLog = { tokens: [], ends: [] };
          const answer = await make().invoke("tokens of a plain invoke", { callbacks: [{ lc_prefer_streaming: true, ...tokenHandler(log) } as never] });
          return { log, content: answer.content };
        };
        fake.reset();
        const live = await run();
        const replayed = await run();
        expect(fake.count()).to.equal(1);
        expect(replayed.content).to.equal(live.content);
        expect(live.log.tokens.length).to.be.greaterThan(2);
        expect(replayed.log.tokens).to.deep.equal(live.log.tokens);
      }
      expect(readFixtures(dir).map((f) => f.kind)).to.deep.equal(["chat_stream", "chat_stream"]);
    });

    it("a subclass whose _streamResponseChunks calls super records once and replays", async () => {
      let bodyRuns = 0;
      class MyChat extends ChatOpenAI {
        async *_streamResponseChunks(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun) {
          bodyRuns++;
          for await (const c of super._streamResponseChunks(messages, options, runManager)) yield c;
        }
      }
      const make = () =>
        new MyChat({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: fake.openaiBaseURL } });
      const live = await collect(await make().stream("subclass"));
      const replayed = await collect(await make().stream("subclass"));
      expect(bodyRuns).to.equal(1);
      expect(fake.count()).to.equal(1);
      expect(replayed.map(view)).to.deep.equal(live.map(view));
      expect(readFixtures(dir)).to.have.length(1);
    });

    it("a model that cannot stream answers .stream() with invoke(): one chat fixture", async () => {
      class EchoChat extends BaseChatModel {
        calls = 0;
        _llmType() {
          return "echo";
        }
        async _generate(messages: BaseMessage[]) {
          this.calls++;
          const text = `echo: ${messages.at(-1)?.content}`;
          return { generations: [{ text, message: new AIMessageChunk(text) }] };
        }
      }
      const model = new EchoChat({ cache: vcr.cache });
      const first = await collect(await model.stream("no native stream"));
      const second = await collect(await model.stream("no native stream"));
      expect(model.calls).to.equal(1);
      expect(second.map((c) => c.content)).to.deep.equal(first.map((c) => c.content));
      expect(readFixtures(dir).map((f) => f.kind)).to.deep.equal(["chat"]);
    });

    it("one ChatOllama instance: an invoke (which streams inside _generate) and a .stream() at the same time are a chat and a chat_stream fixture", async () => {
      const model = ollama(fake, vcr.cache);
      const both = () => Promise.all([model.invoke("plain, concurrently"), model.stream("streamed, concurrently").then(collect)]);
      const [liveMessage, liveChunks] = await both();
      expect(fake.count()).to.equal(2);
      const kinds = readFixtures(dir)
        .map((f) => f.kind)
        .sort();
      expect(kinds).to.deep.equal(["chat", "chat_stream"]);
      const [message, chunks] = await both();
      expect(fake.count()).to.equal(2);
      expect(message.content).to.equal(liveMessage.content).and.equal("echo: plain, concurrently");
      expect(chunks.map(view)).to.deep.equal(liveChunks.map(view));
      expect(readFixtures(dir)).to.have.length(2);
    });

    it("a provider whose _generate streams through a copy of its call options stays one chat fixture", async () => {
      let streamed = 0;
      class CopyingChat extends BaseChatModel {
        _llmType() {
          return "copying";
        }
        async *_streamResponseChunks(messages: BaseMessage[], _options?: unknown, _runManager?: CallbackManagerForLLMRun) {
          streamed++;
          for (const word of ["echo: ", String(messages.at(-1)?.content)]) yield new ChatGenerationChunk({ text: word, message: new AIMessageChunk(word) });
        }
        async _generate(messages: BaseMessage[], options: this["ParsedCallOptions"], runManager?: CallbackManagerForLLMRun) {
          let text = "";
          for await (const c of this._streamResponseChunks(messages, { ...options, providerExtra: true } as never, runManager)) text += c.text;
          return { generations: [{ text, message: new AIMessageChunk(text) }] };
        }
      }
      const model = new CopyingChat({ cache: vcr.cache });
      expect((await model.invoke("copied options")).content).to.equal("echo: copied options");
      expect((await model.invoke("copied options")).content).to.equal("echo: copied options");
      expect(streamed).to.equal(1);
      expect(readFixtures(dir).map((f) => f.kind)).to.deep.equal(["chat"]);
    });

    it("a model whose cache is not a VcrCache is left untouched", async () => {
      const model = openai(fake, undefined);
      const chunks = await collect(await model.stream("plain model"));
      expect(chunks.length).to.be.greaterThan(1);
      expect(Object.getOwnPropertyNames(model)).to.not.include("_streamResponseChunks");
      expect(Object.getOwnPropertySymbols(model)).to.have.length(0);
      expect(fixtureFiles(dir)).to.have.length(0);
    });
  });
});
