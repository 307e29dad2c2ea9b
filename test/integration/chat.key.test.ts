import { expect } from "chai";
import { createHash } from "node:crypto";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "langchain";
import { z } from "zod";
import { Vcr } from "../../src/index";
import { paramsMemoCounts } from "../../src/canonical/paramsMemo";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { ollama, openai } from "../helpers/models";
import { fixtureFiles, readFixtures } from "../helpers/tmp";

const PNG_A = "data:image/png;base64," + Buffer.from("image-a-bytes").toString("base64");
const PNG_B = "data:image/png;base64," + Buffer.from("image-b-bytes").toString("base64");
const weather = (description = "Weather for a city", field = "city") =>
  tool(async () => "sunny", { name: "get_weather", description, schema: z.object({ [field]: z.string() }) });

const conversation = (callId: string, args: Record<string, unknown> = { city: "Paris" }, result = "sunny") => [
  new HumanMessage("weather?"),
  new AIMessage({ content: "", tool_calls: [{ id: callId, name: "get_weather", args, type: "tool_call" }] }),
  new ToolMessage({ content: result, tool_call_id: callId }),
];

type Call = (fake: FakeProvider, cache: unknown) => Promise<unknown>;

/** Pairs of calls that ask different things: each pair must give two fixtures. */
const BUSTS: Record<string, [Call, Call]> = {
  "message text (one character)": [(f, c) => openai(f, c).invoke("hello"), (f, c) => openai(f, c).invoke("hellO")],
  "message role": [(f, c) => openai(f, c).invoke([new HumanMessage("x")]), (f, c) => openai(f, c).invoke([new SystemMessage("x")])],
  "message order": [
    (f, c) => openai(f, c).invoke([new SystemMessage("a"), new HumanMessage("b")]),
    (f, c) => openai(f, c).invoke([new HumanMessage("b"), new SystemMessage("a")]),
  ],
  "a message that looks like two messages": [
    (f, c) => openai(f, c).invoke([new HumanMessage("a\nAI: b")]),
    (f, c) => openai(f, c).invoke([new HumanMessage("a"), new AIMessage("b")]),
  ],
  "message name": [
    (f, c) => openai(f, c).invoke([new HumanMessage({ content: "x", name: "alice" })]),
    (f, c) => openai(f, c).invoke([new HumanMessage({ content: "x", name: "bob" })]),
  ],
  "tool-call args": [(f, c) => openai(f, c).invoke(conversation("a", { city: "Paris" })), (f, c) => openai(f, c).invoke(conversation("a", { city: "Rome" }))],
  "tool result": [(f, c) => openai(f, c).invoke(conversation("a", undefined, "sunny")), (f, c) => openai(f, c).invoke(conversation("a", undefined, "rain"))],
  "two different images": [
    (f, c) =>
      openai(f, c).invoke([
        new HumanMessage({
          content: [
            { type: "text", text: "what?" },
            { type: "image_url", image_url: { url: PNG_A } },
          ],
        }),
      ]),
    (f, c) =>
      openai(f, c).invoke([
        new HumanMessage({
          content: [
            { type: "text", text: "what?" },
            { type: "image_url", image_url: { url: PNG_B } },
          ],
        }),
      ]),
  ],
  "model name": [(f, c) => openai(f, c).invoke("x"), (f, c) => openai(f, c, { model: "gpt-4o" }).invoke("x")],
  "two Ollama models": [(f, c) => ollama(f, c).invoke("x"), (f, c) => ollama(f, c, { model: "mistral" }).invoke("x")],
  temperature: [(f, c) => openai(f, c, { temperature: 0 }).invoke("x"), (f, c) => openai(f, c, { temperature: 0.5 }).invoke("x")],
  "Ollama temperature": [(f, c) => ollama(f, c, { temperature: 0 }).invoke("x"), (f, c) => ollama(f, c, { temperature: 0.5 }).invoke("x")],
  top_p: [(f, c) => openai(f, c, { topP: 0.5 }).invoke("x"), (f, c) => openai(f, c, { topP: 0.9 }).invoke("x")],
  "Ollama top_k": [(f, c) => ollama(f, c, { topK: 5 }).invoke("x"), (f, c) => ollama(f, c, { topK: 50 }).invoke("x")],
  "max tokens": [(f, c) => openai(f, c, { maxTokens: 10 }).invoke("x"), (f, c) => openai(f, c, { maxTokens: 20 }).invoke("x")],
  "stop sequences": [(f, c) => openai(f, c).invoke("x", { stop: ["a"] }), (f, c) => openai(f, c).invoke("x", { stop: ["b"] })],
  "frequency penalty": [(f, c) => openai(f, c, { frequencyPenalty: 0.1 }).invoke("x"), (f, c) => openai(f, c, { frequencyPenalty: 0.2 }).invoke("x")],
  "presence penalty": [(f, c) => openai(f, c, { presencePenalty: 0.1 }).invoke("x"), (f, c) => openai(f, c, { presencePenalty: 0.2 }).invoke("x")],
  seed: [(f, c) => openai(f, c).invoke("x", { seed: 1 } as never), (f, c) => openai(f, c).invoke("x", { seed: 2 } as never)],
  "tool description": [
    (f, c) =>
      openai(f, c)
        .bindTools([weather("Weather for a city")])
        .invoke("x"),
    (f, c) =>
      openai(f, c)
        .bindTools([weather("Weather for a town")])
        .invoke("x"),
  ],
  "tool schema": [
    (f, c) =>
      openai(f, c)
        .bindTools([weather(undefined, "city")])
        .invoke("x"),
    (f, c) =>
      openai(f, c)
        .bindTools([weather(undefined, "town")])
        .invoke("x"),
  ],
  "tool choice": [
    (f, c) => openai(f, c).bindTools([weather()], { tool_choice: "auto" }).invoke("x"),
    (f, c) => openai(f, c).bindTools([weather()], { tool_choice: "required" }).invoke("x"),
  ],
  "response schema": [
    (f, c) =>
      openai(f, c)
        .withStructuredOutput(z.object({ a: z.string() }))
        .invoke("x"),
    (f, c) =>
      openai(f, c)
        .withStructuredOutput(z.object({ b: z.string() }))
        .invoke("x"),
  ],
  "another provider parameter (logprobs)": [(f, c) => openai(f, c).invoke("x"), (f, c) => openai(f, c, { logprobs: true }).invoke("x")],
};

/** Pairs that differ only in who asked or how it travelled: each pair must give one fixture. */
const SAME: Record<string, [Call, Call]> = {
  "two API keys": [(f, c) => openai(f, c, { apiKey: "key-one-aaaaaaaa" }).invoke("x"), (f, c) => openai(f, c, { apiKey: "key-two-bbbbbbbb" }).invoke("x")],
  "with and without timeout": [(f, c) => openai(f, c).invoke("x"), (f, c) => openai(f, c, { timeout: 5000 }).invoke("x", { timeout: 4000 })],
  "retries and organization": [
    (f, c) => openai(f, c).invoke("x"),
    (f, c) => openai(f, c, { maxRetries: 1, configuration: { organization: "org-1", defaultHeaders: { "x-team": "a" } } }).invoke("x"),
  ],
  "a custom fetch and an abort signal": [
    (f, c) => openai(f, c).invoke("x"),
    (f, c) =>
      openai(f, c, { configuration: { fetch: (url: string, init: RequestInit) => fetch(url, init) } }).invoke("x", { signal: new AbortController().signal }),
  ],
  "callbacks, tags, metadata, run name, run id": [
    (f, c) => openai(f, c).invoke("x"),
    (f, c) =>
      openai(f, c).invoke("x", {
        tags: ["t"],
        metadata: { m: 1 },
        runName: "named",
        runId: "0d5ab7e4-5a6b-4f55-9d0e-5a1c1b2c3d4e",
        callbacks: [{ handleLLMStart: () => undefined }],
      }),
  ],
  "message ids and response metadata": [
    (f, c) => openai(f, c).invoke([new HumanMessage({ content: "x", id: "m1" }), new AIMessage({ content: "y", id: "a1" }), new HumanMessage("z")]),
    (f, c) =>
      openai(f, c).invoke([
        new HumanMessage({ content: "x", id: "m2" }),
        new AIMessage({
          content: "y",
          id: "a2",
          response_metadata: { model_name: "other" },
          usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
        }),
        new HumanMessage("z"),
      ]),
  ],
  "fresh tool-call ids": [(f, c) => openai(f, c).invoke(conversation("call_abc")), (f, c) => openai(f, c).invoke(conversation("call_xyz"))],
  "the same image twice": [
    (f, c) => openai(f, c).invoke([new HumanMessage({ content: [{ type: "image_url", image_url: { url: PNG_A } }] })]),
    (f, c) => openai(f, c).invoke([new HumanMessage({ content: [{ type: "image_url", image_url: { url: PNG_A } }] })]),
  ],
  "CRLF vs LF in a tool description": [
    (f, c) =>
      openai(f, c)
        .bindTools([weather("line one\nline two")])
        .invoke("x"),
    (f, c) =>
      openai(f, c)
        .bindTools([weather("line one\r\nline two")])
        .invoke("x"),
  ],
};

describe("what enters the key", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  for (const [name, [a, b]] of Object.entries(BUSTS)) {
    it(`${name} → two fixtures`, async () => {
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      await a(fake, vcr.cache);
      await b(fake, vcr.cache);
      expect(fixtureFiles(dir)).to.have.length(2);
      expect(vcr.stats().recorded).to.equal(2);
    });
  }

  for (const [name, [a, b]] of Object.entries(SAME)) {
    it(`${name} → one fixture, the second call replays`, async () => {
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      await a(fake, vcr.cache);
      const requests = fake.count();
      await b(fake, vcr.cache);
      expect(fake.count()).to.equal(requests);
      expect(fixtureFiles(dir)).to.have.length(1);
    });
  }

  it("a repeated request's hash is found again without building it; another request under the same prompt string is hashed in full (counted)", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const cold = openai(fake, vcr.cache, { temperature: 0 });
    const warm = openai(fake, vcr.cache, { temperature: 0.5 });
    const recorded = [(await cold.invoke("x")).content, (await warm.invoke("x")).content];
    const replayed = [(await cold.invoke("x")).content, (await warm.invoke("x")).content, (await cold.invoke("x")).content];
    expect(replayed).to.deep.equal([...recorded, recorded[0]]);
    const hashes = (vcr.cache as unknown as { recorder: { hashes: { counts: object } } }).recorder.hashes.counts;
    // the prompt string "x" is asked first by cold (remembered as asked), then by warm (remembered), then cold (remembered)
    expect(hashes).to.deep.equal({ computed: 3, hits: 2 });
    const paramsBuilt = paramsMemoCounts.hits + paramsMemoCounts.computed;
    for (const m of [warm, cold, warm]) await m.invoke("x");
    expect(paramsMemoCounts.hits + paramsMemoCounts.computed, "a remembered request is never built").to.equal(paramsBuilt);
    expect(hashes).to.deep.equal({ computed: 3, hits: 5 });
    expect(fake.count()).to.equal(2);
    expect(fixtureFiles(dir)).to.have.length(2);
    expect(vcr.stats()).to.include({ recorded: 2, replayed: 6 });
  });

  it("a Date inside a message (an invalid tool call's args) enters the key as JSON sends it: another Date misses", async () => {
    const history = (at: Date) => [
      new HumanMessage("q"),
      new AIMessage({ content: "", invalid_tool_calls: [{ name: "t", id: "1", error: "bad json", args: at as unknown as string }] }),
      new HumanMessage("go on"),
    ];
    await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke(history(new Date(0)));
    const replay = new Vcr({ dir, mode: "replay_only" });
    for (let i = 0; i < 2; i++) expect((await openai(fake, replay.cache).invoke(history(new Date(0)))).content).to.be.a("string");
    const err = await openai(fake, replay.cache)
      .invoke(history(new Date(86_400_000)))
      .catch((e: unknown) => e);
    expect((err as { code?: string }).code).to.equal("VCR_MISS");
    expect(replay.stats()).to.include({ replayed: 2, missed: 1 });
    expect(fake.count()).to.equal(1);
  });

  it("two ports (two servers) → one fixture", async () => {
    const other = await startFakeProvider();
    try {
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      await openai(fake, vcr.cache).invoke("x");
      await openai(other, vcr.cache).invoke("x");
      expect(fake.count() + other.count()).to.equal(1);
      expect(fixtureFiles(dir)).to.have.length(1);
    } finally {
      await other.close();
    }
  });

  it("images are stored as mime + sha256, never as bytes; tool-call ids as placeholders", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    await openai(fake, vcr.cache).invoke([new HumanMessage({ content: [{ type: "image_url", image_url: { url: PNG_A } }] })]);
    await openai(fake, vcr.cache).invoke(conversation("call_live_123"));
    const [img, conv] = readFixtures(dir).sort((x) => (JSON.stringify(x.request).includes("sha256") ? -1 : 1));
    expect(img.request.messages[0].content[0].image_url.url).to.deep.equal({
      mime: "image/png",
      sha256: createHash("sha256").update("image-a-bytes").digest("hex"),
    });
    expect(JSON.stringify(img)).not.to.include(Buffer.from("image-a-bytes").toString("base64"));
    expect(conv.request.messages[1].tool_calls[0].id).to.equal("call_1");
    expect(conv.request.messages[2].tool_call_id).to.equal("call_1");
    expect(JSON.stringify(conv)).not.to.include("call_live_123");
  });
});
