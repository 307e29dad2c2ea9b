/**
 * A fixture recorded through one provider replays through another only when the canonical
 * request is the same: it names the model and the parameters, not the provider (so ChatOpenAI
 * and ChatOllama asking the same model the same thing share one, by design).
 */
import { expect } from "chai";
import { Vcr } from "../../src/index";
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

  it("the same model name and the same parameters on Groq and Mistral: truly the same request, one fixture (the key does not name the provider)", async () => {
    const dir = tmpDir();
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const same = { model: "open-mixtral-8x7b", temperature: 0.3, topP: 0.9, maxTokens: 50 };
    await chat(groq, vcr, same).invoke("x");
    const groqRequest = readFixtures(dir)[0].request;
    const mistralRequests = fakes.get(mistral)!.count();
    await chat(mistral, vcr, same).invoke("x");
    expect(fakes.get(mistral)!.count()).to.equal(mistralRequests);
    expect(fixtureFiles(dir)).to.have.length(1);
    expect(groqRequest).to.deep.equal({ model: "open-mixtral-8x7b", temperature: 0.3, top_p: 0.9, max_tokens: 50, messages: groqRequest.messages });
  });
});
