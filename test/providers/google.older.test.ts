/**
 * ChatGoogleGenerativeAI before @langchain/google-genai 2.2.0 (2.1.31 here, a devDependency under
 * the alias google-genai-2-1; 1.0.0 to 2.1.x have the same code): its invocationParams() returns
 * the tools only, and temperature, topP, topK, maxOutputTokens, stopSequences, json and
 * thinkingConfig sit on its SDK client (`client.generationConfig`), where invocationParams() also
 * puts a call's response schema. A user trial on 2.1.31 and 1.0.0 saw three temperatures share one
 * fixture (1 request, even when recording) and two structured-output schemas replay each other.
 */
import { expect } from "chai";
import { HumanMessage } from "@langchain/core/messages";
import { ChatGoogleGenerativeAI as Current } from "@langchain/google-genai";
import { ChatGoogleGenerativeAI as Older } from "google-genai-2-1";
import { z } from "zod";
import { Vcr } from "../../src/index";
import { fixtureFiles, readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { startGoogleFake } from "./fakes/google";
import { GOOGLE_KEY } from "./specs/google";

type Client = typeof Current | typeof Older;
const make = (C: Client, url: string, vcr: Vcr, fields: Record<string, unknown> = {}) =>
  new C({ model: "gemini-2.5-flash", apiKey: GOOGLE_KEY, baseUrl: url, maxRetries: 0, cache: vcr.cache as never, ...fields });

const CONFIGS: Record<string, Record<string, unknown>> = {
  none: {},
  "temperature 0": { temperature: 0 },
  "temperature 0.9": { temperature: 0.9 },
  maxOutputTokens: { maxOutputTokens: 10 },
  "topP, topK": { topP: 0.5, topK: 5 },
  stopSequences: { stopSequences: ["END"] },
  json: { json: true },
  thinkingConfig: { thinkingConfig: { thinkingBudget: 128 } },
};

describe("ChatGoogleGenerativeAI before @langchain/google-genai 2.2.0: the generation config its SDK client holds is in the key", function () {
  this.timeout(30000);
  after(removeTmpDirs);

  it("three temperatures asked the same thing: 3 requests and 3 fixtures, then each replays its own answer with 0 requests (before: 1 request, 1 fixture)", async () => {
    const fake = await startGoogleFake();
    try {
      const dir = tmpDir();
      const record = new Vcr({ dir, mode: "record_or_replay" });
      fake.enqueue({ text: "cold" }, { text: "warm" }, { text: "hot" });
      const temps = [0, 0.5, 0.9];
      const live = [];
      for (const t of temps) live.push((await make(Older, fake.url, record, { temperature: t }).invoke("name a river")).content);
      expect(live).to.deep.equal(["cold", "warm", "hot"]);
      expect(fake.count()).to.equal(3);
      expect(fixtureFiles(dir)).to.have.length(3);
      expect(
        readFixtures(dir)
          .map((f) => f.request.generationConfig.temperature)
          .sort(),
      ).to.deep.equal(temps);
      const replay = new Vcr({ dir, mode: "replay_only" });
      const replayed = [];
      for (const t of temps) replayed.push((await make(Older, fake.url, replay, { temperature: t }).invoke("name a river")).content);
      expect(replayed).to.deep.equal(live);
      expect(fake.count()).to.equal(3);
    } finally {
      await fake.close();
    }
  });

  it("two structured-output schemas (withStructuredOutput's jsonSchema: the response schema invocationParams() sets on the client) each get their own fixture", async () => {
    const fake = await startGoogleFake();
    try {
      const dir = tmpDir();
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      fake.enqueue({ text: '{"city":"Paris"}' }, { text: '{"population":2100000,"mayor":"Hidalgo"}' });
      const model = make(Older, fake.url, vcr);
      const city = await model.withStructuredOutput(z.object({ city: z.string() })).invoke("which city?");
      const facts = await model.withStructuredOutput(z.object({ population: z.number(), mayor: z.string() })).invoke("which city?");
      expect(city).to.deep.equal({ city: "Paris" });
      expect(facts).to.deep.equal({ population: 2100000, mayor: "Hidalgo" });
      expect(fake.count()).to.equal(2);
      expect(fixtureFiles(dir)).to.have.length(2);
      // and a plain call of the same model after them is not keyed with the last schema (the client's config is reset per call)
      await model.invoke([new HumanMessage("which city?")]);
      expect(fixtureFiles(dir)).to.have.length(3);
      expect(readFixtures(dir).filter((f) => f.request.generationConfig === undefined)).to.have.length(1);
    } finally {
      await fake.close();
    }
  });

  it("a fixture the previous release wrote for such a model (no generationConfig in its request): with none set it still replays; with a temperature set it misses once, naming generationConfig, 0 requests", async () => {
    const fake = await startGoogleFake();
    try {
      const dir = tmpDir();
      await make(Older, fake.url, new Vcr({ dir, mode: "record_or_replay" })).invoke("name a river");
      const [old] = readFixtures(dir);
      expect(old.request).not.to.have.property("generationConfig"); // what 0.3.0 keyed every 2.1.31 call on
      const replay = new Vcr({ dir, mode: "replay_only" });
      await make(Older, fake.url, replay).invoke("name a river");
      const miss = await make(Older, fake.url, replay, { temperature: 0 })
        .invoke("name a river")
        .catch((e: unknown) => e);
      expect((miss as Error).message).to.include('generationConfig: (absent) → {"temperature":0}');
      expect(fake.count()).to.equal(1);
    } finally {
      await fake.close();
    }
  });

  for (const [name, fields] of Object.entries(CONFIGS)) {
    it(`${name}: 2.1.31 and 2.3.2 key the same request alike (an upgrade past 2.2.0 misses nothing)`, async () => {
      const fake = await startGoogleFake();
      try {
        const files = [];
        for (const C of [Older, Current]) {
          const dir = tmpDir();
          await make(C, fake.url, new Vcr({ dir, mode: "record_or_replay" }), fields).invoke("name a river");
          files.push(fixtureFiles(dir));
        }
        expect(files[0]).to.have.length(1);
        expect(files[0]).to.deep.equal(files[1]);
      } finally {
        await fake.close();
      }
    });
  }
});
