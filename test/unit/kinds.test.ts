/**
 * The kind registry: validate and replay judge a fixture's response by the same rule. Each
 * case records a real fixture (a real client against the loopback fake, a real tool, a real
 * embeddings wrapper), damages only its `response`, and checks that `validateFixtures`
 * reports it AND that replay refuses it with VCR_FIXTURE, with 0 requests and 0 body runs.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { Embeddings } from "@langchain/core/embeddings";
import { HumanMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { requestHash } from "../../src/canonical/json";
import { FIXTURE_KINDS, KINDS, type FixtureKind } from "../../src/kinds";
import { formatFixture } from "../../src/store/format";
import { Vcr, VcrFixtureError, isVcrError } from "../../src/index";
import { inOwnTest } from "../helpers/ownTest";
import { validateFixtures, type FixtureProblem } from "../../src/validate";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { fixtureFiles } from "../helpers/tmp";

class FixedEmbeddings extends Embeddings {
  calls = 0;
  constructor() {
    super({});
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.calls += texts.length;
    return texts.map(() => [0.25, 0.5]);
  }
  async embedQuery(): Promise<number[]> {
    this.calls++;
    return [0.25, 0.5];
  }
}

/** Rewrites the only fixture's response in place (request and hash untouched). */
/** The get_order tool the tool-fixture cases record, calling `onRun` each time its body runs. */
function orderTool(onRun: () => void) {
  return tool(
    async ({ id }: { id: string }) => {
      onRun();
      return `order ${id}`;
    },
    { name: "get_order", description: "An order.", schema: z.object({ id: z.string() }) },
  );
}

function damageResponse(dir: string, response: unknown): string {
  const files = fixtureFiles(dir);
  expect(files).to.have.length(1);
  const file = path.join(dir, files[0]);
  const f = JSON.parse(fs.readFileSync(file, "utf8"));
  f.response = response;
  fs.writeFileSync(file, JSON.stringify(f, null, 2) + "\n");
  return file;
}

/** A copy of a tool fixture filed under another call number (its request and hash changed accordingly). */
function twinForCall(file: string, call: number): string {
  const f = JSON.parse(fs.readFileSync(file, "utf8"));
  f.request = { ...f.request, call };
  f.hash = requestHash("tool", f.request);
  const twin = path.join(path.dirname(file), `${f.hash}.json`);
  fs.writeFileSync(twin, formatFixture(f));
  return twin;
}

/**
 * Replay's error and validate's line for the same damaged fixture say the same thing with the
 * same fix (src/kinds/damaged.ts): what is wrong, the kind's shape, restore-or-re-record.
 */
function expectSameWords(kind: FixtureKind, problems: FixtureProblem[], e: unknown): void {
  expect(e).to.be.instanceOf(VcrFixtureError);
  const file = (e as VcrFixtureError).file;
  const problem = problems.find((p) => p.file === file)!.problem;
  const what = problem.slice(0, problem.indexOf(", so replay refuses it"));
  const q = JSON.stringify(file);
  const fix = `Fix it: restore it from git (git checkout -- ${q}), or delete it and re-record it: rm ${q} && LANGCHAIN_VCR_MODE=record_or_replay`;
  const a = kind === "embedding" || kind === "llm" ? "an" : "a";
  expect(problem).to.equal(`${what}, so replay refuses it (${a} ${kind} fixture's response is ${KINDS[kind].shape}). ${fix} npm test`);
  const lines = (e as Error).message.split("\n");
  expect(lines[0]).to.equal(`langchain-vcr: the ${kind} fixture ${file} ${what}, so replay refuses it.`);
  expect(lines[1]).to.match(/^ {2}hash: +[0-9a-f]{64}$/);
  expect(
    lines.find((l) => l.startsWith(`  ${kind === "embedding" || kind === "llm" ? "An" : "A"} ${kind} fixture's response is ${KINDS[kind].shape}; `)),
  ).to.be.a("string");
  // at replay a test is running: the fix names the command that re-records just it
  expect(lines[lines.length - 1]).to.match(new RegExp(`^  ${fix.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} npx mocha --grep .+$`));
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error("expected a rejection");
}

describe("kinds: one registry, one rule for validate and replay", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("lists every fixture kind with its check, render, near-miss policy and shape", () => {
    expect(FIXTURE_KINDS).to.deep.equal(["chat", "chat_stream", "llm", "embedding", "tool", "moderation"]);
    for (const k of FIXTURE_KINDS) {
      expect(KINDS[k].name).to.equal(k);
      expect(KINDS[k].shape).to.be.a("string").that.is.not.empty;
    }
    expect(FIXTURE_KINDS.filter((k) => KINDS[k].noteNearMiss)).to.deep.equal(["chat", "chat_stream", "llm"]);
  });

  it("a chat fixture whose generations is a string: validate reports it and replay refuses it", async () => {
    await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke([new HumanMessage("hi")]);
    const file = damageResponse(dir, { generations: "hello" });
    const problems = await validateFixtures(dir);
    expect(problems.map((p) => p.file)).to.deep.equal([file]);
    expect(problems[0].problem).to.match(/^has no "response.generations" array, so replay refuses it/);
    const before = fake.count();
    const e = await rejection(openai(fake, new Vcr({ dir, mode: "replay_only" }).cache).invoke([new HumanMessage("hi")]));
    expect(isVcrError(e) && e.code).to.equal("VCR_FIXTURE");
    expectSameWords("chat", problems, e);
    expect(fake.count() - before).to.equal(0);
  });

  it("a chat fixture whose undefined_kwargs is not a list of names: validate reports it and replay refuses it", async () => {
    await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke([new HumanMessage("hi")]);
    const file = damageResponse(dir, { generations: [{ text: "hi", message: { type: "ai", content: "hi", undefined_kwargs: "function_call" } }] });
    const problems = await validateFixtures(dir);
    expect(problems.map((p) => p.file)).to.deep.equal([file]);
    expect(problems[0].problem).to.match(/^has a "response.generations\[0\].message.undefined_kwargs" that is not a list of names/);
    const before = fake.count();
    const e = await rejection(openai(fake, new Vcr({ dir, mode: "replay_only" }).cache).invoke([new HumanMessage("hi")]));
    expect(isVcrError(e) && e.code).to.equal("VCR_FIXTURE");
    expect(fake.count() - before).to.equal(0);
  });

  it('a tool fixture { "nothing": 1 }: validate reports it and replay refuses it without running the body', async () => {
    let runs = 0;
    const make = () => orderTool(() => runs++);
    await new Vcr({ dir, mode: "record_or_replay" }).tool(make()).invoke({ id: "7" });
    expect(runs).to.equal(1);
    const file = damageResponse(dir, { nothing: 1 });
    // the replay below is this test's second identical call: a damaged twin for call #2 as well
    const twin = twinForCall(file, 2);
    const problems = await validateFixtures(dir);
    expect(problems.map((p) => p.file).sort()).to.deep.equal([file, twin].sort());
    expect(problems[0].problem).to.match(
      /^has a "response" replay cannot use: the response has none of "result", "toolMessage", "error", "thrown", "interrupt", "command" \(it may come from a newer langchain-vcr\), so replay refuses it/,
    );
    const e = await rejection(new Vcr({ dir, mode: "replay_only" }).tool(make()).invoke({ id: "7" }));
    expect(isVcrError(e) && e.code).to.equal("VCR_FIXTURE");
    expectSameWords("tool", problems, e);
    expect((e as Error).message).to.contain("\n  tool:     get_order\n");
    expect(runs).to.equal(1);
  });

  it('a tool fixture whose "custom" is not a list: validate reports it and replay refuses it without running the body', async () => {
    let runs = 0;
    const make = () => orderTool(() => runs++);
    await inOwnTest({}, () => new Vcr({ dir, mode: "record_or_replay" }).tool(make()).invoke({ id: "7" }));
    damageResponse(dir, { result: "order 7", custom: { writer: "50%" } });
    const problems = await validateFixtures(dir);
    expect(problems).to.have.length(1);
    expect(problems[0].problem).to.match(/^has a "response" replay cannot use: "custom" is not an array, so replay refuses it/);
    const e = await rejection(inOwnTest({}, () => new Vcr({ dir, mode: "replay_only" }).tool(make()).invoke({ id: "7" })));
    expect(isVcrError(e) && e.code).to.equal("VCR_FIXTURE");
    expectSameWords("tool", problems, e);
    expect(runs).to.equal(1);
  });

  it("an embedding fixture without numbers: validate reports it and replay refuses it", async () => {
    const inner = new FixedEmbeddings();
    await new Vcr({ dir, mode: "record_or_replay" }).embeddings(inner).embedQuery("q");
    damageResponse(dir, { vector: [1, "x"] });
    const problems = await validateFixtures(dir);
    expect(problems).to.have.length(1);
    expect(problems[0].problem).to.match(/response\.vector.*index 1/);
    const e = await rejection(new Vcr({ dir, mode: "replay_only" }).embeddings(inner).embedQuery("q"));
    expect(isVcrError(e) && e.code).to.equal("VCR_FIXTURE");
    expectSameWords("embedding", problems, e);
    expect(inner.calls).to.equal(1);
  });

  it("a chat_stream fixture whose chunk text is a number: validate reports it and replay refuses it", async () => {
    const stream = async (vcr: Vcr) => {
      let text = "";
      for await (const c of await openai(fake, vcr.cache).stream([new HumanMessage("stream me")])) text += c.content;
      return text;
    };
    await stream(new Vcr({ dir, mode: "record_or_replay" }));
    damageResponse(dir, { chunks: [{ text: 5 }] });
    const problems = await validateFixtures(dir);
    expect(problems).to.have.length(1);
    expect(problems[0].problem).to.match(/chunks\[0\]/);
    const before = fake.count();
    const e = await rejection(stream(new Vcr({ dir, mode: "replay_only" })));
    expect(isVcrError(e) && e.code).to.equal("VCR_FIXTURE");
    expectSameWords("chat_stream", problems, e);
    expect(fake.count() - before).to.equal(0);
  });

  it("a base64 embedding fixture (its request asks for base64) passes validate, as replay uses it", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    await vcr.embeddings(new FixedEmbeddings()).embedQuery("q");
    const file = damageResponse(dir, { vector: "AACAPgAAAD8=" });
    expect((await validateFixtures(dir)).map((p) => p.problem)).to.deep.equal([
      `has a "response.vector" that is a string, but the request does not ask for base64 vectors (no "base64" in request.options), so replay refuses it (an embedding fixture's response is ${KINDS.embedding.shape}). ` +
        `Fix it: restore it from git (git checkout -- ${JSON.stringify(file)}), or delete it and re-record it: rm ${JSON.stringify(file)} && LANGCHAIN_VCR_MODE=record_or_replay npm test`,
    ]);
    const f = JSON.parse(fs.readFileSync(file, "utf8"));
    f.request = { ...f.request, options: { encodingFormat: "base64" } };
    f.hash = requestHash("embedding", f.request);
    fs.rmSync(file);
    fs.writeFileSync(path.join(dir, `${f.hash}.json`), formatFixture(f));
    expect(await validateFixtures(dir)).to.deep.equal([]);
  });

  it("well-formed fixtures of every recorded kind pass validate", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    await openai(fake, vcr.cache).invoke([new HumanMessage("hi")]);
    await vcr.embeddings(new FixedEmbeddings()).embedQuery("q");
    expect(fixtureFiles(dir)).to.have.length(2);
    expect(await validateFixtures(dir)).to.deep.equal([]);
  });
});
