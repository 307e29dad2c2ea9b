/**
 * OpenAI's moderation endpoint under `vcr.install()`: `openAIModerationMiddleware` (from
 * `langchain`) and `ChatOpenAI.moderateContent()` call the model's SDK client directly, outside
 * any model call, so install() records and replays them through the SDK client's fetch
 * (src/adapters/moderation/). Real clients against the loopback fake, which counts requests.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent, openAIModerationMiddleware } from "langchain";
import { Vcr, validateFixtures, withVcr } from "../../src/index";
import { testScope } from "../../src/scope";
import { cli } from "../helpers/cliRun";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai, TEST_KEY } from "../helpers/models";
import { allBytes, fixtureFiles, readFixtures } from "../helpers/tmp";

/** What a call that must fail threw (the SDK's error: its status and code), or undefined when it did not fail. */
type HttpError = Error & { status?: number; code?: string };
const NO_ERROR = () => undefined;
const asHttpError = (e: unknown) => e as HttpError;

describe("vcr.install(): OpenAI's moderation endpoint, called outside any model call", () => {
  let fake: FakeProvider;
  let dir: string;
  const undo: (() => void)[] = [];
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));
  afterEach(() => undo.splice(0).forEach((u) => u()));

  function install(mode: "record_or_replay" | "replay_only"): Vcr {
    const vcr = new Vcr({ dir, mode });
    undo.push(vcr.install());
    return vcr;
  }
  const uninstall = () => undo.splice(0).forEach((u) => u());
  const moderations = () => fake.requests.filter((r) => r.path === "/v1/moderations").length;

  /** An agent whose input and output go through openAIModerationMiddleware (models built per run, as app code would). */
  async function ask(question: string): Promise<string> {
    const agent = createAgent({
      model: openai(fake, undefined),
      tools: [],
      middleware: [openAIModerationMiddleware({ model: openai(fake, undefined), checkInput: true, checkOutput: true })],
    });
    const { messages } = await agent.invoke({ messages: [{ role: "user", content: question }] });
    return messages.at(-1)!.text;
  }

  it("openAIModerationMiddleware: recorded (input and output checks, a flagged input), then replayed with 0 requests", async () => {
    install("record_or_replay");
    const recorded = [await ask("hello there"), await ask("plan an attack")];
    expect(recorded[1]).to.match(/flagged for violence/);
    expect(moderations(), "moderation requests while recording").to.equal(3); // input + output, then the flagged input
    const kinds = readFixtures(dir).map((f) => f.kind);
    expect(kinds.filter((k) => k === "moderation")).to.have.length(3);
    expect(kinds.filter((k) => k === "chat")).to.have.length(1);
    uninstall();

    const before = fake.requests.length;
    const vcr = install("replay_only");
    const replayed = [await ask("hello there"), await ask("plan an attack")];
    expect(replayed).to.deep.equal(recorded);
    expect(fake.requests.length - before, "requests on replay").to.equal(0);
    expect(vcr.stats()).to.include({ replayed: 4, missed: 0 });
    expect(allBytes(dir)).to.not.include(TEST_KEY);
  });

  it("replay_only with no fixture: the SDK's BadRequestError (400) carrying the miss, 0 requests, counted as missed", async () => {
    const vcr = install("replay_only");
    const model = openai(fake, undefined);
    const err = await model.moderateContent("never recorded").then(NO_ERROR, asHttpError);
    expect(err?.status).to.equal(400);
    expect(err?.message).to.include(
      'langchain-vcr: no recorded fixture for this moderation request from OpenAI\'s moderation endpoint (model "omni-moderation-latest"), and mode replay_only never calls the real model.',
    );
    expect(err?.message).to.match(/expected: .+\.json/);
    expect(fake.requests.length).to.equal(0);
    expect(vcr.stats()).to.include({ missed: 1, recorded: 0 });
  });

  it("ChatOpenAI.moderateContent() of several inputs: one fixture, replayed; withVcr bypass stays live; after uninstall nothing is recorded", async () => {
    install("record_or_replay");
    const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } });
    const first = await model.moderateContent(["a calm sentence", "an attack plan"]);
    expect(first.results.map((r) => r.flagged)).to.deep.equal([false, true]);
    expect(await model.moderateContent(["a calm sentence", "an attack plan"])).to.deep.equal(first);
    expect(moderations(), "the second call replayed").to.equal(1);
    await withVcr({ mode: "bypass" }, () => model.moderateContent(["a calm sentence", "an attack plan"]));
    expect(moderations(), "bypass is live").to.equal(2);
    uninstall();
    await model.moderateContent("after uninstall");
    expect(moderations()).to.equal(3);
    expect(readFixtures(dir).map((f) => f.kind)).to.deep.equal(["moderation"]);
  });

  it("a damaged moderation fixture: validate reports it, replay refuses it (0 requests), show renders a good one", async () => {
    install("record_or_replay");
    await openai(fake, undefined).moderateContent("an attack plan");
    uninstall();
    const file = path.join(dir, fixtureFiles(dir)[0]);
    const good = await cli(["show", file, "--ledger-dir", path.join(dir, "no-ledgers")]);
    expect(good.code, good.stderr).to.equal(0);
    expect(good.stdout).to.include("kind:     moderation");
    expect(good.stdout).to.include('input:\n  "an attack plan"');
    expect(good.stdout).to.include("flagged: violence");
    const fixture = JSON.parse(fs.readFileSync(file, "utf8"));
    fs.writeFileSync(file, JSON.stringify({ ...fixture, response: { results: "none" } }, null, 2) + "\n");
    for (const [response, problem] of [
      [{ ...fixture.response, results: [] }, 'has 0 "response.results" for 1 input(s)'],
      [
        { results: [{ flagged: "yes", category_scores: {} }] },
        'has a "response.results[0]" without a boolean "flagged" and "categories" and "category_scores" objects',
      ],
    ] as const) {
      fs.writeFileSync(file, JSON.stringify({ ...fixture, response }, null, 2) + "\n");
      expect((await validateFixtures(dir)).map((p) => p.problem.split(", so replay")[0])).to.deep.equal([problem]);
    }
    fs.writeFileSync(file, JSON.stringify({ ...fixture, response: { results: "none" } }, null, 2) + "\n");
    const problems = await validateFixtures(dir);
    expect(problems.map((p) => p.problem)).to.deep.equal([
      'has no "response.results" array of objects, so replay refuses it (a moderation fixture\'s response is the moderation endpoint\'s answer: { "results": [ { "flagged", "categories", "category_scores", … } ], … }). Fix it: restore it from git (git checkout -- ' +
        JSON.stringify(file) +
        "), or delete it and re-record it: rm " +
        JSON.stringify(file) +
        " && LANGCHAIN_VCR_MODE=record_or_replay npm test", // this repository's package.json has a test script
    ]);
    const before = fake.requests.length;
    install("replay_only");
    const err = await openai(fake, undefined).moderateContent("an attack plan").then(NO_ERROR, asHttpError);
    expect(err?.status).to.equal(400);
    expect(err?.message).to.include('has no "response.results" array of objects, so replay refuses it');
    expect(fake.requests.length - before).to.equal(0);
  });

  it("a key in the input is refused before it is sent (the SDK's 400 carrying VCR_SECRET), nothing written; a provider error passes through, nothing written, counted", async () => {
    const vcr = install("record_or_replay");
    const model = openai(fake, undefined);
    const refused = await model.moderateContent(`my key is ${TEST_KEY}`).then(NO_ERROR, asHttpError);
    expect(refused?.status).to.equal(400);
    expect(refused?.code).to.equal("VCR_SECRET");
    const failed = await model.moderateContent("please answer 500").then(NO_ERROR, asHttpError);
    expect(failed?.status, "the provider's own error").to.equal(500);
    expect(fixtureFiles(dir)).to.have.length(0);
    expect(vcr.stats()).to.include({ recorded: 0 });
    expect(moderations(), "the client's key was refused before it was sent; the 500 was sent").to.equal(1);
    await model.moderateContent("a fine sentence"); // the failed request left nothing waiting
    expect(fixtureFiles(dir)).to.have.length(1);
  });

  it("a fetch wrapper put on top of langchain-vcr's, kept over uninstall() and install(): recorded once, no wait on itself; then replayed", async () => {
    const original = globalThis.fetch;
    try {
      install("record_or_replay");
      const ours = globalThis.fetch;
      let through = 0;
      globalThis.fetch = (...args: Parameters<typeof fetch>) => (through++, ours(...args)); // a spy or an interceptor
      uninstall(); // ours is no longer on top: it stays, under the spy
      install("record_or_replay"); // wraps the spy again
      const model = openai(fake, undefined);
      const first = await Promise.race([model.moderateContent("stacked"), new Promise((_, no) => setTimeout(() => no(new Error("no answer in 5 s")), 5000))]);
      expect(first).to.have.property("results");
      expect(moderations()).to.equal(1);
      expect(fixtureFiles(dir)).to.have.length(1);
      expect(await model.moderateContent("stacked")).to.deep.equal(first);
      expect(moderations(), "replayed").to.equal(1);
      expect(through).to.equal(1);
    } finally {
      uninstall();
      globalThis.fetch = original;
    }
  });

  it("a fetch put back after install() (a test runner restoring mocks) is wrapped again as the next test begins", async () => {
    const original = globalThis.fetch;
    install("replay_only");
    globalThis.fetch = original; // what jest's restoreMocks or vi.unstubAllGlobals would do to a fetch stubbed before install()
    testScope("the next test"); // every runner plugin makes one as a test begins
    const err = await openai(fake, undefined).moderateContent("never recorded").then(NO_ERROR, asHttpError);
    expect(err?.status).to.equal(400);
    expect(moderations(), "nothing sent").to.equal(0);
  });

  it("leaves every other request alone, and puts globalThis.fetch back at uninstall", async () => {
    const original = globalThis.fetch;
    install("replay_only");
    expect(globalThis.fetch).to.not.equal(original);
    // the same path without the OpenAI SDK's headers: not the SDK's call, so it is not langchain-vcr's either
    const plain = await fetch(`${fake.openaiBaseURL}/moderations`, {
      method: "POST",
      body: JSON.stringify({ input: "x" }),
      headers: { "content-type": "application/json" },
    });
    expect(plain.status).to.equal(200);
    expect(moderations()).to.equal(1);
    uninstall();
    expect(globalThis.fetch).to.equal(original);
  });
});
