/**
 * A replayed answer is the live one, object for object, as a test compares it: vitest's and
 * jest's `toEqual` and `toStrictEqual`, a snapshot, chai's `deep.equal`. The live answer is
 * the same client's with no cache, against a fake of its own in the same state. Before, a
 * ChatOpenAI answer replayed without the `type` its constructor was given (so `toEqual`, a
 * snapshot and JSON.stringify differed), with the `response_metadata` core merges in after
 * construction in its constructor fields, and without the members it had as undefined
 * (`input_token_details: { audio: undefined }`, a chunk's `service_tier: undefined`).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import type { AIMessageChunk, BaseMessage } from "@langchain/core/messages";
import { concat } from "@langchain/core/utils/stream";
import { Vcr } from "../../src/index";
import { startFakeProvider, type FakeProvider, type ScriptedReply } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { ollama, openai } from "../helpers/models";
import { expectSameObjects, expectSameStream, toEqual, type Streamed } from "../helpers/sameObjects";
import { fixtureFiles } from "../helpers/tmp";

const REFUND = {
  type: "function",
  function: { name: "issue_refund", description: "Refund an order", parameters: { type: "object", properties: { orderId: { type: "string" } } } },
};
const ANSWERS: Record<string, ScriptedReply> = {
  "a text answer": { content: "Hello there, how can I help?" },
  "a tool call": { toolCalls: [{ name: "issue_refund", args: { orderId: "9", amount: 12 } }] },
};
const APIS = { "chat completions": {}, "the Responses API": { useResponsesApi: true } };

type Call = (fake: FakeProvider, cache: unknown) => Promise<unknown>;

const invoke =
  (fields: Record<string, unknown>): Call =>
  (fake, cache) =>
    openai(fake, cache, fields).bindTools([REFUND]).invoke("Refund order 9, or say hello.");

/** A stream's chunks and what they add up to, from ChatOpenAI with the tool bound, or ChatOllama. */
const stream =
  (client: typeof openai | typeof ollama, fields: Record<string, unknown>): Call =>
  async (fake, cache) => {
    const chunks: AIMessageChunk[] = [];
    const model = client === openai ? openai(fake, cache, fields).bindTools([REFUND]) : ollama(fake, cache, fields);
    for await (const c of await model.stream("Refund order 9, or say hello.")) chunks.push(c);
    return { chunks, aggregate: chunks.reduce((a, b) => concat(a, b)) };
  };

/** Dates every file in `dir` an hour back, as a committed fixture is: kept from its second replay on (store/parsedCache.ts). */
function datedBack(dir: string): void {
  const then = new Date(Date.now() - 3600_000);
  for (const f of fs.readdirSync(dir)) fs.utimesSync(`${dir}/${f}`, then, then);
}

describe("a replayed answer is the live one, object for object (toEqual, toStrictEqual, snapshots, deep.equal)", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  /** The answer `call` gets live (no cache, from a fake of its own in the same state as `fake`), recorded (from `fake`), and replayed three times with 0 requests. */
  async function liveAndReplayed(reply: ScriptedReply, call: Call): Promise<{ live: unknown; replays: unknown[] }> {
    const own = await startFakeProvider();
    let live: unknown;
    try {
      own.enqueue(reply);
      live = await call(own, undefined);
    } finally {
      await own.close();
    }
    fake.enqueue(reply);
    await call(fake, new Vcr({ dir, mode: "record_or_replay" }).cache);
    expect(fake.count()).to.equal(1);
    const replays = [await call(fake, new Vcr({ dir, mode: "replay_only" }).cache)];
    datedBack(dir);
    const cache = new Vcr({ dir, mode: "replay_only" }).cache;
    for (let i = 0; i < 2; i++) replays.push(await call(fake, cache));
    expect(fake.count(), "0 requests on replay").to.equal(1);
    return { live, replays };
  }

  for (const [api, fields] of Object.entries(APIS)) {
    for (const [answer, reply] of Object.entries(ANSWERS)) {
      it(`ChatOpenAI over ${api}, ${answer}: invoke() gives the live message, on the first replay and on kept ones`, async () => {
        const { live, replays } = await liveAndReplayed(reply, invoke(fields));
        for (const [i, replayed] of replays.entries()) expectSameObjects(replayed, live, `replay ${i + 1}`);
      });

      it(`ChatOpenAI over ${api}, ${answer}: stream() gives the live chunks and the live aggregate`, async () => {
        const { live, replays } = await liveAndReplayed(reply, stream(openai, fields));
        for (const [i, replayed] of replays.entries()) expectSameStream(replayed as Streamed, live as Streamed, `replay ${i + 1}`);
      });
    }
  }

  it("ChatOllama, a text answer: invoke() and stream() give the live message, chunks and aggregate", async () => {
    const reply = ANSWERS["a text answer"];
    const inv = await liveAndReplayed(reply, (f, cache) => ollama(f, cache).invoke("Say hello."));
    for (const [i, replayed] of inv.replays.entries()) expectSameObjects(replayed, inv.live, `invoke, replay ${i + 1}`);
    fake.reset();
    const str = await liveAndReplayed(reply, stream(ollama, {}));
    for (const [i, replayed] of str.replays.entries()) expectSameStream(replayed as Streamed, str.live as Streamed, `stream, replay ${i + 1}`);
  });

  it("a fixture written without a shape (0.3.0 and earlier) replays as it did: the recorded values, 0 requests", async () => {
    const reply = ANSWERS["a tool call"];
    fake.enqueue(reply, reply);
    const live = (await invoke({})(fake, new Vcr({ dir, mode: "record_or_replay" }).cache)) as BaseMessage;
    const { chunks } = (await stream(openai, {})(fake, new Vcr({ dir, mode: "record_or_replay" }).cache)) as { chunks: AIMessageChunk[] };
    for (const name of fixtureFiles(dir)) {
      const file = path.join(dir, name);
      const fixture = JSON.parse(fs.readFileSync(file, "utf8"));
      for (const g of fixture.response.generations ?? []) delete g.shape;
      for (const c of fixture.response.chunks ?? []) delete c.shape;
      delete fixture.response.common?.shape;
      fs.writeFileSync(file, JSON.stringify(fixture, null, 2) + "\n");
      expect(fs.readFileSync(file, "utf8")).not.to.include('"shape"');
    }
    const requests = fake.count();
    const replayed = (await invoke({})(fake, new Vcr({ dir, mode: "replay_only" }).cache)) as BaseMessage;
    const streamed = (await stream(openai, {})(fake, new Vcr({ dir, mode: "replay_only" }).cache)) as { chunks: AIMessageChunk[] };
    expect(fake.count()).to.equal(requests);
    // the values are the live ones; the constructor fields are those 0.3.0 gave every replayed message
    const values = (m: BaseMessage) => JSON.parse(JSON.stringify({ ...m, lc_kwargs: undefined }));
    expect(toEqual(values(replayed), values(live))).to.equal(true);
    expect(Object.keys(replayed.lc_kwargs)).to.deep.equal([
      "content",
      "name",
      "id",
      "tool_calls",
      "invalid_tool_calls",
      "usage_metadata",
      "response_metadata",
      "additional_kwargs",
    ]);
    expect(streamed.chunks.map((c) => JSON.stringify(c.content))).to.deep.equal(chunks.map((c) => JSON.stringify(c.content)));
    expect(streamed.chunks.map((c) => c.tool_call_chunks?.length ?? 0)).to.deep.equal(chunks.map((c) => c.tool_call_chunks?.length ?? 0));
  });
});
