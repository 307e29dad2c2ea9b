/**
 * A fixture recorded through one provider replays through another only when the canonical
 * request is the same: it names the model and the parameters, not the provider. A fixture whose
 * answer names another provider (`model_provider`) is not handed to a call of a provider that
 * answers otherwise: that call is keyed with `provider` added (src/adapters/chat/answeredBy.ts).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { Vcr } from "../../src/index";
import { renderFixture } from "../../src/cli/render";
import { Usage } from "../../src/runner/usage";
import { otherFormRequest } from "../../src/adapters/chat/answeredBy";
import { fixtureFiles, readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";
import type { Fake } from "./fakes/base";
import type { ProviderSpec } from "./spec";
import { spec as anthropic } from "./specs/anthropic";
import { spec as bedrock } from "./specs/bedrock";
import { spec as google } from "./specs/google";
import { spec as groq } from "./specs/groq";
import { spec as mistral } from "./specs/mistral";

const SPECS: ProviderSpec[] = [anthropic, google, bedrock, groq, mistral];

describe("across providers", () => {
  const fakes = new Map<ProviderSpec, Fake>();
  before(async () => {
    for (const s of SPECS) fakes.set(s, await s.start());
  });
  after(async () => {
    for (const f of fakes.values()) await f.close();
    removeTmpDirs();
  });
  const chat = (s: ProviderSpec, vcr: Vcr, fields?: Record<string, unknown>) => s.chat(fakes.get(s)!.url, vcr.cache, fields);

  it("the same prompt through the five clients: five fixtures, each naming its own model, none replayed", async () => {
    const dir = tmpDir();
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    for (const s of SPECS) await chat(s, vcr).invoke("the same prompt");
    expect(vcr.stats()).to.include({ recorded: 5, replayed: 0 });
    expect(fixtureFiles(dir)).to.have.length(5);
    expect(new Set(readFixtures(dir).map((f) => f.request.model)).size).to.equal(5);
    for (const s of SPECS) expect(fakes.get(s)!.count()).to.equal(1);
  });

  it("Claude on Anthropic and on Bedrock: the model ids differ, so two fixtures", async () => {
    const dir = tmpDir();
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    await chat(anthropic, vcr, { maxTokens: 100, temperature: 0 }).invoke("x");
    await chat(bedrock, vcr, { maxTokens: 100, temperature: 0 }).invoke("x");
    expect(fixtureFiles(dir)).to.have.length(2);
  });

  const same = { model: "open-mixtral-8x7b", temperature: 0.3, topP: 0.9, maxTokens: 50 };
  const counts = () => [fakes.get(groq)!.count(), fakes.get(mistral)!.count()];
  const delta = (before: number[]) => counts().map((n, i) => n - before[i]);

  it("the same model name and parameters on Groq, then Mistral: one request, but Groq's answer is not Mistral's: the Mistral call records beside it, keyed with provider (trial 43)", async () => {
    const dir = tmpDir();
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const before = counts();
    fakes.get(groq)!.enqueue({ text: "groq says" });
    fakes.get(mistral)!.enqueue({ text: "mistral says" });
    const g = await chat(groq, vcr, same).invoke("x");
    const groqFile = fixtureFiles(dir)[0];
    const groqBytes = fs.readFileSync(path.join(dir, groqFile), "utf8");
    const groqRequest = readFixtures(dir)[0].request;
    expect(groqRequest).to.deep.equal({ model: "open-mixtral-8x7b", temperature: 0.3, top_p: 0.9, max_tokens: 50, messages: groqRequest.messages });
    const m = await chat(mistral, vcr, same).invoke("x");
    expect(delta(before), "requests to Groq, Mistral").to.deep.equal([1, 1]);
    expect([g.content, m.content]).to.deep.equal(["groq says", "mistral says"]);
    expect(m.response_metadata.model_provider).to.not.equal("groq");
    expect(fixtureFiles(dir)).to.have.length(2);
    const mistralFixture = readFixtures(dir).find((f) => f.request.provider !== undefined)!;
    expect(mistralFixture.request).to.deep.equal({ ...groqRequest, provider: "mistral" });
    expect(fs.readFileSync(path.join(dir, groqFile), "utf8"), "Groq's file is left as it was").to.equal(groqBytes);
    // show says whose answer each is, where the answer says it (ChatMistralAI's does not)
    const answerLines = (f: (typeof mistralFixture)[]) =>
      f.map((x) =>
        renderFixture(x, "f.json")
          .split("\n")
          .filter((l) => l.startsWith("  answer:")),
      );
    expect(answerLines([readFixtures(dir).find((f) => f !== mistralFixture && f.request.provider === undefined)!, mistralFixture])).to.deep.equal([
      ["  answer:   from groq"],
      [],
    ]);

    // sealed: each replays its own answer, 0 requests; the Mistral call uses Groq's file too, which it finds its key
    // through (prune keeps it while the Mistral call is made, even when no Groq call is)
    const sealed = new Vcr({ dir, mode: "replay_only" });
    const replayed = counts();
    expect((await chat(groq, sealed, same).invoke("x")).content).to.equal("groq says");
    const usage = new Usage("mistral only").start();
    expect((await chat(mistral, sealed, same).invoke("x")).content).to.equal("mistral says");
    usage.stop();
    expect([...usage.used].map((f) => path.basename(f)).sort()).to.deep.equal(fixtureFiles(dir).sort());
    expect(delta(replayed)).to.deep.equal([0, 0]);
    expect(sealed.stats()).to.include({ replayed: 2, missed: 0 });

    // record_always re-records Mistral's beside Groq's, never over it
    fakes.get(mistral)!.enqueue({ text: "mistral again" });
    await chat(mistral, new Vcr({ dir, mode: "record_always" }), same).invoke("x");
    expect(fixtureFiles(dir)).to.have.length(2);
    expect(fs.readFileSync(path.join(dir, groqFile), "utf8")).to.equal(groqBytes);
    expect((await chat(mistral, sealed, same).invoke("x")).content).to.equal("mistral again");
    expect((await chat(groq, sealed, same).invoke("x")).content).to.equal("groq says");
  });

  it("streams too: Groq's streamed answer is not handed to a Mistral stream of the same request", async () => {
    const dir = tmpDir();
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const text = async (s: ProviderSpec, v: Vcr) => {
      let out = "";
      for await (const c of await chat(s, v, same).stream("x")) out += String(c.content);
      return out;
    };
    const before = counts();
    fakes.get(groq)!.enqueue({ text: "groq streams" });
    fakes.get(mistral)!.enqueue({ text: "mistral streams" });
    expect([await text(groq, vcr), await text(mistral, vcr)]).to.deep.equal(["groq streams", "mistral streams"]);
    expect(delta(before)).to.deep.equal([1, 1]);
    expect(
      readFixtures(dir)
        .map((f) => [f.kind, f.request.provider])
        .sort(),
    ).to.deep.equal([
      ["chat_stream", undefined],
      ["chat_stream", "mistral"],
    ]);
    const sealed = new Vcr({ dir, mode: "replay_only" });
    const replayed = counts();
    expect([await text(groq, sealed), await text(mistral, sealed)]).to.deep.equal(["groq streams", "mistral streams"]);
    expect(delta(replayed)).to.deep.equal([0, 0]);
  });

  it("a request parameter named provider (OpenRouter's routing object through modelKwargs) is not taken for the member", () => {
    expect(otherFormRequest({ model: "m", provider: { order: ["a"] } })).to.equal(undefined);
    expect(otherFormRequest({ model: "m", provider: "mistral" })).to.deep.equal({ model: "m" });
  });

  it("under replay_only, Mistral finding only Groq's answer misses, its nearest that fixture, differing at provider, with a hint", async () => {
    const dir = tmpDir();
    await chat(groq, new Vcr({ dir, mode: "record_or_replay" }), same).invoke("x");
    const before = counts();
    const err = await chat(mistral, new Vcr({ dir, mode: "replay_only" }), same)
      .invoke("x")
      .then(
        () => undefined,
        (e: Error) => e,
      );
    expect(err?.name).to.equal("VcrMissError");
    expect(err?.message).to.include('provider: (absent) → "mistral"').and.include("holds another provider's answer");
    expect(delta(before)).to.deep.equal([0, 0]);
  });

  it("Mistral first, then Groq: ChatMistralAI's answer names no provider, so Groq replays it (the one pair left provider-neutral; docs/providers.md)", async () => {
    const dir = tmpDir();
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    fakes.get(mistral)!.enqueue({ text: "mistral says" });
    await chat(mistral, vcr, same).invoke("x");
    expect(readFixtures(dir)[0].response).to.not.have.nested.property("generations[0].message.response_metadata.model_provider");
    const before = counts();
    expect((await chat(groq, vcr, same).invoke("x")).content).to.equal("mistral says");
    expect(delta(before)).to.deep.equal([0, 0]);
    expect(fixtureFiles(dir)).to.have.length(1);
  });
});
