/**
 * The OpenAI Responses API (`ChatOpenAI({ useResponsesApi: true })`, what string models in
 * createAgent use) through a VcrCache against the fake's POST /v1/responses: invoke, bound
 * function tools, structured output, `.stream()` and streamEvents record and replay with 0
 * requests; replay restores content blocks, response_metadata (id, model, status) and
 * usage_metadata, and streams replay chunk for chunk.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import type { AIMessageChunk } from "@langchain/core/messages";
import { z } from "zod";
import { Vcr, VcrMissError } from "../../src/index";
import { validateFixtures } from "../../src/validate";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { readFixtures } from "../helpers/tmp";
import { chatFixture } from "../helpers/chatFixture";
import { formatFixture } from "../../src/store/format";

const WEATHER = {
  type: "function" as const,
  function: { name: "get_weather", description: "Weather.", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } },
};
const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe("OpenAI Responses API: record and replay", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));
  const model = (vcr: Vcr) => openai(fake, vcr.cache, { useResponsesApi: true });

  /** Runs `scenario` recording, then replaying with a new replay_only Vcr: returns both results and checks 0 requests on replay. */
  async function recordThenReplay<T>(scenario: (vcr: Vcr) => Promise<T>): Promise<[T, T]> {
    const live = json(await scenario(new Vcr({ dir, mode: "record_or_replay" }))) as T;
    const requests = fake.count();
    expect(requests).to.be.greaterThan(0);
    const replayed = json(await scenario(new Vcr({ dir, mode: "replay_only" }))) as T;
    expect(fake.count()).to.equal(requests);
    return [live, replayed];
  }

  it("invoke: content blocks, response_metadata (id, model, status) and usage_metadata restored", async () => {
    const [live, replayed] = await recordThenReplay(async (vcr) => {
      const m = await model(vcr).invoke("What is the capital of France?");
      return { content: m.content, meta: m.response_metadata, usage: m.usage_metadata };
    });
    expect(replayed).to.deep.equal(live);
    expect(live.content).to.deep.equal([{ type: "text", text: "echo: What is the capital of France?", annotations: [] }]);
    expect(live.meta).to.deep.include({ id: "resp_fake_1", model: "gpt-4o-mini", status: "completed" });
    expect(live.usage).to.deep.include({ input_tokens: 6, output_tokens: 7, total_tokens: 13 });
    expect(readFixtures(dir).map((f) => f.kind)).to.deep.equal(["chat"]);
  });

  it("function_call tool calls (bound tools) and structured output", async () => {
    fake.enqueue({ toolCalls: [{ name: "get_weather", args: { city: "Paris" } }] });
    const [live, replayed] = await recordThenReplay(async (vcr) => {
      const call = await model(vcr).bindTools([WEATHER]).invoke("Weather in Paris?");
      const structured = await model(vcr)
        .withStructuredOutput(z.object({ city: z.string(), days: z.number() }))
        .invoke("Plan a trip.");
      return { toolCalls: call.tool_calls, structured };
    });
    expect(replayed).to.deep.equal(live);
    expect(live.toolCalls).to.deep.equal([{ name: "get_weather", args: { city: "Paris" }, type: "tool_call", id: "call_fake_r1" }]);
    expect(live.structured).to.deep.equal({ city: "x", days: 1 });
  });

  it(".stream() replays chunk for chunk: text deltas, tool-call chunks, metadata and usage", async () => {
    fake.enqueue({ content: "Checking the weather now.", toolCalls: [{ name: "get_weather", args: { city: "Rome" } }] });
    const [live, replayed] = await recordThenReplay(async (vcr) => {
      const chunks: AIMessageChunk[] = [];
      for await (const c of await model(vcr).bindTools([WEATHER]).stream("Weather in Rome?")) chunks.push(c);
      const merged = chunks.reduce((a, b) => a.concat(b));
      return {
        chunks: chunks.map((c) => ({ content: c.content, toolCallChunks: c.tool_call_chunks, meta: c.response_metadata, usage: c.usage_metadata })),
        merged: { text: merged.text, toolCalls: merged.tool_calls, id: merged.response_metadata.id, status: merged.response_metadata.status },
      };
    });
    expect(replayed).to.deep.equal(live);
    expect(live.chunks.length).to.be.greaterThan(8);
    expect(live.merged).to.deep.equal({
      text: "Checking the weather now.",
      toolCalls: [{ name: "get_weather", args: { city: "Rome" }, id: "call_fake_r1", type: "tool_call" }],
      id: "resp_fake_1",
      status: "completed",
    });
    expect(readFixtures(dir).map((f) => f.kind)).to.deep.equal(["chat_stream"]);
  });

  it("streamEvents (v2) replays the same on_chat_model_stream events", async () => {
    const [live, replayed] = await recordThenReplay(async (vcr) => {
      const events: unknown[] = [];
      for await (const e of model(vcr).streamEvents("Stream some events.", { version: "v2" })) {
        if (e.event === "on_chat_model_stream") events.push((e.data.chunk as AIMessageChunk).content);
      }
      return events;
    });
    expect(replayed).to.deep.equal(live);
    expect(live.length).to.be.greaterThan(4);
  });

  describe("the other OpenAI API (Chat Completions vs Responses): the same request, another answer's shape; each API gets a fixture of its own", () => {
    const API = { completions: "chat_completions", responses: "responses" } as const;
    const client = (vcr: Vcr, api: keyof typeof API) => openai(fake, vcr.cache, { useResponsesApi: api === "responses" });
    const ask = async (vcr: Vcr, api: keyof typeof API, streamed: boolean) => {
      if (!streamed) return json((await client(vcr, api).invoke("Say hello.")).content); // a live block's `phase: undefined` is not replayed
      let text = "";
      for await (const c of await client(vcr, api).stream("Say hello.")) text += c.text;
      return text;
    };

    for (const streamed of [false, true])
      for (const [first, then] of [
        ["completions", "responses"],
        ["responses", "completions"],
      ] as const) {
        it(`${streamed ? "a stream" : "invoke"} recorded through ${first}, asked through ${then}: a miss naming the difference under replay_only, recorded beside it under record_or_replay; then each replays its own, 0 requests`, async () => {
          const live = await ask(new Vcr({ dir, mode: "record_or_replay" }), first, streamed);
          const [file] = fs.readdirSync(dir);
          const bytes = fs.readFileSync(path.join(dir, file));
          const requests = fake.count();
          const err = await ask(new Vcr({ dir, mode: "replay_only" }), then, streamed).then(
            () => undefined,
            (e: unknown) => e,
          );
          expect(err).to.be.instanceOf(VcrMissError);
          const message = (err as Error).message;
          expect(message).to.include(`nearest recorded ${streamed ? "chat_stream" : "chat"} fixture: ${path.join(dir, file)}, which differs at:`);
          expect(message).to.include(`openai_api: (absent) → "${API[then]}"`);
          expect(message).to.include(
            `hint: ChatOpenAI sends this call to OpenAI's ${then === "responses" ? "Responses API" : "Chat Completions API"}, and the fixture of the same request holds the other API's answer`,
          );
          expect(fake.count()).to.equal(requests);

          const other = await ask(new Vcr({ dir, mode: "record_or_replay" }), then, streamed);
          expect(fake.count()).to.equal(requests + 1);
          expect(fs.readdirSync(dir)).to.have.length(2);
          expect(fs.readFileSync(path.join(dir, file)).equals(bytes)).to.equal(true, "the first fixture is left as it was");
          const second = fs.readdirSync(dir).find((f) => f !== file)!;
          expect(JSON.parse(fs.readFileSync(path.join(dir, second), "utf8")).request.openai_api).to.equal(API[then]);
          if (!streamed) expect(typeof live === "string").to.not.equal(typeof other === "string"); // one a string, the other content blocks

          const sealed = new Vcr({ dir, mode: "replay_only" });
          expect(await ask(sealed, first, streamed)).to.deep.equal(live);
          expect(await ask(sealed, then, streamed)).to.deep.equal(other);
          expect(sealed.stats()).to.deep.include({ replayed: 2, missed: 0 });
          expect(fake.count()).to.equal(requests + 1);
          expect(await validateFixtures(dir)).to.deep.equal([]); // the second one's name is its request's hash, openai_api included

          // record_always re-records the second API's answer beside the first's, never over it
          const secondBytes = fs.readFileSync(path.join(dir, second));
          await ask(new Vcr({ dir, mode: "record_always" }), then, streamed);
          expect(fake.count()).to.equal(requests + 2);
          expect(fs.readdirSync(dir).sort()).to.deep.equal([file, second].sort());
          expect(fs.readFileSync(path.join(dir, file)).equals(bytes)).to.equal(true, "the first API's fixture is left as it was");
          expect(fs.readFileSync(path.join(dir, second)).equals(secondBytes)).to.equal(false, "the second API's fixture was written again");
          expect(await ask(sealed, first, streamed)).to.deep.equal(live);
        });
      }

    it("beside another test's fixture that looks like an edit of it, the miss names this request's own fixture of the other API, one difference, with the hint; another request's miss gets no such hint (trial 40: the sibling was named, the hint shown anyway)", async () => {
      await client(new Vcr({ dir, mode: "record_or_replay" }), "completions").invoke("Say hello.");
      const [own] = fs.readdirSync(dir);
      // another test's fixture, from an earlier run (this process never read it): its prompt looks like an edit of this one
      const request = { ...JSON.parse(fs.readFileSync(path.join(dir, own), "utf8")).request, temperature: 0 };
      request.messages = [{ role: "user", content: "Please say hello." }];
      const sibling = chatFixture(request, "Hello!");
      fs.writeFileSync(path.join(dir, `${sibling.hash}.json`), formatFixture(sibling));
      const requests = fake.count();
      const sealed = new Vcr({ dir, mode: "replay_only" });
      const err = (await client(sealed, "responses")
        .invoke("Say hello.")
        .catch((e: unknown) => e)) as Error;
      expect(err).to.be.instanceOf(VcrMissError);
      expect(err.message).to.include(
        `nearest recorded chat fixture: ${path.join(dir, own)}, which differs at:\n    openai_api: (absent) → "responses"\n  hint: ChatOpenAI sends`,
      );
      const other = (await client(sealed, "responses")
        .invoke("Say hello!")
        .catch((e: unknown) => e)) as Error;
      expect(other).to.be.instanceOf(VcrMissError);
      expect(other.message).to.not.include("the fixture of the same request holds the other API's answer");
      expect(fake.count()).to.equal(requests);
    });
  });
});
