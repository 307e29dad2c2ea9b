/**
 * Two OpenAI-compatible clients the provider table knows by their answers (src/adapters/chat/answeredBy.ts):
 * ChatDeepSeek (its answers say "deepseek" from @langchain/deepseek 1.0.5; its ls_provider is OpenAI's) and
 * ChatXAI (its answers say OpenAI's converter's "openai"), each against a loopback chat-completions fake.
 * Asked the same model name and parameters, one provider's answer is not handed to the other's client (trial 48).
 */
import { expect } from "chai";
import { ChatDeepSeek } from "@langchain/deepseek";
import { ChatXAI, ChatXAIResponses } from "@langchain/xai";
import { ownProviderRequest } from "../../src/adapters/chat/answeredBy";
import { ChatOpenAI } from "@langchain/openai";
import { Vcr } from "../../src/index";
import { fixtureFiles, readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { startChatCompletionsFake } from "./fakes/chatCompletions";
import type { Fake } from "./fakes/base";

const MODEL = "shared-chat-model";

function startCompatibleFake(name: string): Promise<Fake> {
  return startChatCompletionsFake({
    path: "/v1/chat/completions",
    streamUsage: "chunk",
    idPrefix: `chatcmpl-${name}-fake-`,
    toolCallId: (serial, i) => `call_${name}_${serial}_${i}`,
    errorBody: (status) => ({ error: { message: `fake ${status}`, type: "invalid_request_error", code: String(status) } }),
  });
}

describe("OpenAI-compatible clients asking the same model name: ChatDeepSeek, ChatXAI, ChatOpenAI", () => {
  let deepseekFake: Fake;
  let xaiFake: Fake;
  let openaiFake: Fake;
  before(async () => {
    [deepseekFake, xaiFake, openaiFake] = await Promise.all([startCompatibleFake("deepseek"), startCompatibleFake("xai"), startCompatibleFake("openai")]);
  });
  after(async () => {
    await Promise.all([deepseekFake, xaiFake, openaiFake].map((f) => f.close()));
    removeTmpDirs();
  });
  const deepseek = (vcr: Vcr) =>
    new ChatDeepSeek({ model: MODEL, temperature: 0, apiKey: "unused", maxRetries: 0, configuration: { baseURL: `${deepseekFake.url}/v1` }, cache: vcr.cache });
  const xai = (vcr: Vcr) => new ChatXAI({ model: MODEL, temperature: 0, apiKey: "unused", maxRetries: 0, baseURL: `${xaiFake.url}/v1`, cache: vcr.cache });
  const openai = (vcr: Vcr) =>
    new ChatOpenAI({ model: MODEL, temperature: 0, apiKey: "unused", maxRetries: 0, configuration: { baseURL: `${openaiFake.url}/v1` }, cache: vcr.cache });
  const counts = () => [deepseekFake.count(), xaiFake.count(), openaiFake.count()];
  const delta = (before: number[]) => counts().map((n, i) => n - before[i]);

  it("ChatDeepSeek, then ChatXAI and ChatOpenAI: each records its own answer (before: both replayed DeepSeek's, 0 requests to them); a sealed replay 0 requests", async () => {
    const dir = tmpDir();
    const before = counts();
    deepseekFake.enqueue({ text: "DeepSeek here." });
    xaiFake.enqueue({ text: "Grok here." });
    openaiFake.enqueue({ text: "OpenAI here." });
    const ask = async (vcr: Vcr) => [
      (await deepseek(vcr).invoke("Who answers?")).text,
      (await xai(vcr).invoke("Who answers?")).text,
      (await openai(vcr).invoke("Who answers?")).text,
    ];
    const recorded = await ask(new Vcr({ dir, mode: "record_or_replay" }));
    expect(recorded).to.deep.equal(["DeepSeek here.", "Grok here.", "OpenAI here."]);
    expect(delta(before)).to.deep.equal([1, 1, 1]);
    expect(
      readFixtures(dir)
        .map((f) => (f.request as { provider?: string }).provider ?? "(plain key)")
        .sort(),
    ).to.deep.equal(["(plain key)", "openai", "xai"]);
    const sealed = new Vcr({ dir, mode: "replay_only" });
    expect(await ask(sealed)).to.deep.equal(recorded);
    expect(sealed.stats()).to.include({ replayed: 3, missed: 0 });
    expect(delta(before), "no request on replay").to.deep.equal([1, 1, 1]);
  });

  it("ChatXAI first: its answer says \"openai\", as ChatOpenAI's and older ChatDeepSeek's do, so ChatDeepSeek and ChatOpenAI replay it (their fixtures keep replaying)", async () => {
    const dir = tmpDir();
    const before = counts();
    xaiFake.enqueue({ text: "Grok here." });
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    expect((await xai(vcr).invoke("Who answers first?")).text).to.equal("Grok here.");
    expect((await deepseek(vcr).invoke("Who answers first?")).text).to.equal("Grok here.");
    expect((await openai(vcr).invoke("Who answers first?")).text).to.equal("Grok here.");
    expect(delta(before)).to.deep.equal([0, 1, 0]);
    expect(fixtureFiles(dir)).to.have.length(1);
  });
});

describe('ChatXAIResponses\' answers (model_provider "xai") in the provider table', () => {
  const fixture = (provider: string) =>
    ({ response: { generations: [{ text: "x", message: { response_metadata: { model_provider: provider } } }] } }) as unknown as Parameters<
      typeof ownProviderRequest
    >[2];
  const request = () => ({ model: MODEL, messages: [] });

  it('replay to ChatXAI (either API) only: a ChatOpenAI or ChatDeepSeek call is keyed with its own provider (review 57 L2: "xai" was not in the table, so any caller replayed them)', () => {
    const xaiResponses = new ChatXAIResponses({ model: MODEL, apiKey: "unused" });
    const xaiCompletions = new ChatXAI({ model: MODEL, apiKey: "unused" });
    expect(ownProviderRequest(xaiResponses, {}, fixture("xai"), request)).to.equal(undefined);
    expect(ownProviderRequest(xaiCompletions, {}, fixture("xai"), request)).to.equal(undefined);
    expect(ownProviderRequest(new ChatOpenAI({ model: MODEL, apiKey: "unused" }), {}, fixture("xai"), request)).to.deep.include({ provider: "openai" });
    expect(ownProviderRequest(new ChatDeepSeek({ model: MODEL, apiKey: "unused" }), {}, fixture("xai"), request)).to.deep.include({ provider: "deepseek" });
    // and the Chat Completions answers ChatXAI records ("openai") replay to ChatXAIResponses
    expect(ownProviderRequest(xaiResponses, {}, fixture("openai"), request)).to.equal(undefined);
  });
});
