/**
 * The model behind one name starts answering with longer vectors (a re-pulled Ollama model,
 * another server behind the base URL: trial 41, M1), and a document is added. The real
 * OllamaEmbeddings against a loopback fake whose vector length the test changes: one call never
 * returns 8- and 16-number vectors together, under record_or_replay or replay_only; validate
 * names the files by length; and each fix the error gives leaves one length.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { Embeddings } from "@langchain/core/embeddings";
import { OllamaEmbeddings } from "@langchain/ollama";
import { Vcr, VcrFixtureError, withVcr } from "../../src/index";
import type { VcrMode } from "../../src/index";
import { main } from "../../src/cli/main";
import { currentTestCommand, rerecordCommand } from "../../src/diagnose/rerecordCommand";
import { currentTest } from "../../src/scope";
import { validateFixtures } from "../../src/validate";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { fakeVector, type FakeProvider } from "../helpers/fakeProvider";
import { fixtureFiles, readFixtures } from "../helpers/tmp";

const OLD = ["Refunds take 5 days.", "Shipping is free.", "Warranty is two years."];
const ADDED = "Returns are accepted within 30 days.";
const ALL = [...OLD, ADDED];

/** The vector length the fake answers with now (the same model name throughout). */
let dims = 8;

describe("embeddings: one call never mixes vector lengths (the model behind a name changed)", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d), (dims = 8)), "vcr-emb-lengths-", { vector: (text) => fakeVector(text, dims) });

  const inMode = <T>(mode: VcrMode, fn: () => Promise<T>) => withVcr({ mode }, fn);
  const embeddings = (vcr: Vcr) => vcr.embeddings(new OllamaEmbeddings({ model: "nomic-embed-text", baseUrl: fake.ollamaBaseUrl, maxRetries: 0 }));
  const inputs = () => fake.requests.filter((r) => r.path === "/api/embed").map((r) => r.body.input as string[]);
  const fileOf = (text: string) => path.join(dir, readFixtures(dir).find((f) => f.request.text === text)!.hash + ".json");
  const lengthsOnDisk = () => ALL.map((t) => readFixtures(dir).find((f) => f.request.text === t)?.response.vector.length);
  const failed = (p: Promise<unknown>) =>
    p.then(
      (v) => expect.fail(`resolved with vectors of lengths ${(v as number[][]).map((x) => x.length).join(",")}`),
      (e: unknown) => e as VcrFixtureError,
    );

  /** Records the three documents at 8 numbers, then the server answers 16 and a fourth document is added. */
  async function recordThenGrow(): Promise<VcrFixtureError> {
    await inMode("record_or_replay", () => embeddings(new Vcr({ dir })).embedDocuments(OLD));
    dims = 16;
    return failed(inMode("record_or_replay", () => embeddings(new Vcr({ dir })).embedDocuments(ALL)));
  }

  it("record_or_replay: the partial hit fails instead of returning 8,8,8,16; the new vector is recorded; replay_only fails alike with 0 requests", async () => {
    const err = await recordThenGrow();
    expect(inputs()).to.deep.equal([OLD, [ADDED]]); // the added document alone went live
    expect(fixtureFiles(dir)).to.have.length(4);
    expect(lengthsOnDisk()).to.deep.equal([8, 8, 8, 16]); // the live answer was written: it is the model's now
    expect(err).to.be.instanceOf(VcrFixtureError);
    expect(err.code).to.equal("VCR_FIXTURE");
    const [a, b, c] = OLD.map(fileOf);
    const d = fileOf(ADDED);
    expect(err.file).to.equal(a);
    const command = currentTestCommand();
    const always = command.replace("LANGCHAIN_VCR_MODE=record_or_replay", "LANGCHAIN_VCR_MODE=record_always");
    expect(command).to.include("LANGCHAIN_VCR_MODE=record_or_replay");
    expect(err.message).to.equal(
      [
        `langchain-vcr: embedDocuments of OllamaEmbeddings (model "nomic-embed-text") got vectors of 2 lengths in one call (3 of 8 numbers, 1 of 16), so it failed rather than return them mixed: a vector store would compare them without complaint.`,
        `  8 numbers:  replayed from 3 fixtures: ${a}, ${b}, ${c}`,
        `  16 numbers: just recorded from the live model: ${d}`,
        `  test:     ${currentTest()!.title}`,
        `  One model's vectors all have one length: the model behind "nomic-embed-text" changed since the 8-number vectors were recorded (a model pulled again, another server behind the base URL), so its fixtures hold two models' answers. The 16-number vector is the live model's answer now.`,
        `  Fix it: record the 8-number vectors again. Delete them and run the test again, which records only those texts: rm ${JSON.stringify(a)} ${JSON.stringify(b)} ${JSON.stringify(c)} && ${command}; ` +
          `or record this test anew (each other test that embeds with this model needs the same): ${always}. npx langchain-vcr validate ${JSON.stringify(dir)} lists this model's fixtures of each length, other tests' too.`,
      ].join("\n"),
    );

    // the next run, sealed: the same four fixtures, replayed, still never returned together
    const vcr = new Vcr({ dir });
    const sealed = await failed(inMode("replay_only", () => embeddings(vcr).embedDocuments(ALL)));
    expect(fake.count()).to.equal(2);
    expect(sealed).to.be.instanceOf(VcrFixtureError);
    const lines = sealed.message.split("\n");
    expect(lines[1]).to.equal(`  8 numbers:  replayed from 3 fixtures: ${a}, ${b}, ${c}`);
    expect(lines[2]).to.equal(`  16 numbers: replayed from 1 fixture: ${d}`);
    const newest = readFixtures(dir).find((f) => f.request.text === ADDED)!.recordedAt as string;
    expect(lines[4]).to.match(/changed since the 8-number vectors were recorded .*The newest recording has 16 numbers \((.+)\)\.$/);
    expect(lines[4]).to.include(`(${newest}).`);
    // the old documents alone (a test that never added one) still replay
    const old = await inMode("replay_only", () => embeddings(vcr).embedDocuments(OLD));
    expect(old.map((v) => v.length)).to.deep.equal([8, 8, 8]);
    expect(fake.count()).to.equal(2);
    expect(fixtureFiles(dir)).to.have.length(4);
  });

  it("validate names the files of each length (exit 1); the error's first fix (delete the 8s, run again) records only those texts", async () => {
    await recordThenGrow();
    const [a, b, c] = OLD.map(fileOf);
    const d = fileOf(ADDED);
    const problems = await validateFixtures(dir);
    expect(problems).to.have.length(1);
    expect(problems[0].file).to.equal([a, b, c].sort()[0]);
    expect(problems[0].problem).to.equal(
      `holds a vector of 8 numbers, but the embedding fixtures of ollama model "nomic-embed-text" (options {"truncate":false}) with the same request parameters hold vectors of 2 lengths (3 of 8, 1 of 16), ` +
        `so a call that replays some of each returns them mixed. One model's vectors all have one length: the model behind "nomic-embed-text" changed between recordings (a model pulled again, another server behind the base URL). ` +
        `By length: 8 numbers (older): ${[a, b, c].sort().join(", ")}; 16 numbers (the newest recording): ${d}. ` +
        `Fix it: delete the older ones and record them again: rm ${[a, b, c]
          .sort()
          .map((f) => JSON.stringify(f))
          .join(" ")} && ${rerecordCommand(undefined, undefined)}; ` +
        `or run the tests that embed with this model under LANGCHAIN_VCR_MODE=record_always`,
    );
    let out = "";
    let err = "";
    const code = await main(["validate", dir], { cwd: path.dirname(dir), env: {}, out: (t) => (out += t), err: (t) => (err += t) });
    expect(code).to.equal(1);
    expect(out).to.equal("");
    const shown = path.basename(dir);
    expect(rerecordCommand(undefined, undefined)).to.equal("LANGCHAIN_VCR_MODE=record_or_replay npm test"); // this repository's own
    expect(err).to.equal(
      `langchain-vcr: 1 problem(s) in 1 file(s) in ${shown}:\n  ${path.join(shown, path.basename(problems[0].file))}: ${problems[0].problem}\n`,
    );

    for (const f of [a, b, c]) fs.rmSync(f);
    fake.reset();
    const vectors = await inMode("record_or_replay", () => embeddings(new Vcr({ dir })).embedDocuments(ALL));
    expect(inputs()).to.deep.equal([OLD]);
    expect(vectors.map((v) => v.length)).to.deep.equal([16, 16, 16, 16]);
    expect(lengthsOnDisk()).to.deep.equal([16, 16, 16, 16]);
    expect(await validateFixtures(dir)).to.deep.equal([]);
  });

  it("the error's other fix, record_always, embeds every text again in one request; a query of the same model then agrees", async () => {
    await recordThenGrow();
    fake.reset();
    const vcr = new Vcr({ dir });
    const vectors = await inMode("record_always", () => embeddings(vcr).embedDocuments(ALL));
    expect(inputs()).to.deep.equal([ALL]);
    expect(vectors.map((v) => v.length)).to.deep.equal([16, 16, 16, 16]);
    expect(lengthsOnDisk()).to.deep.equal([16, 16, 16, 16]);
    expect(fixtureFiles(dir)).to.have.length(4);
    await inMode("record_or_replay", () => embeddings(vcr).embedQuery("How long do returns take?"));
    expect(fake.count()).to.equal(2);
    expect(await validateFixtures(dir)).to.deep.equal([]);
  });
  it("a query recorded at the old length beside documents recorded again at the new one: the query's call fails against the documents' (across calls of one process), replay_only too, with 0 requests (trial 41 recheck)", async () => {
    const QUERY = "How long do refunds take?";
    await inMode("record_or_replay", async () => {
      const e = embeddings(new Vcr({ dir }));
      await e.embedDocuments(OLD);
      await e.embedQuery(QUERY);
    });
    dims = 16;
    for (const f of OLD.map(fileOf)) fs.rmSync(f); // the fix a documents-only error gave: the query's fixture stays at 8
    const docs = await inMode("record_or_replay", () => embeddings(new Vcr({ dir })).embedDocuments(ALL));
    expect(docs.map((v) => v.length)).to.deep.equal([16, 16, 16, 16]);
    expect(fake.count()).to.equal(3);
    const query = fileOf(QUERY);
    for (const mode of ["record_or_replay", "replay_only"] as const) {
      const err = await failed(inMode(mode, () => embeddings(new Vcr({ dir })).embedQuery(QUERY)));
      expect(err).to.be.instanceOf(VcrFixtureError);
      const lines = err.message.split("\n");
      expect(lines[0]).to.equal(
        `langchain-vcr: embedQuery of OllamaEmbeddings (model "nomic-embed-text") got vectors of 2 lengths across two calls of this process (this one, and an earlier embedDocuments with the same model and parameters) (1 of 8 numbers, 3 of 16), so it failed rather than return them mixed: a vector store would compare them without complaint.`,
      );
      expect(lines[1]).to.equal(`  8 numbers:  replayed from 1 fixture: ${query}`);
      expect(lines[2]).to.match(/^ {2}16 numbers: the earlier call's, in 3 fixtures: /);
      expect(err.message).to.include(`rm ${JSON.stringify(query)} && `);
    }
    expect(fake.count()).to.equal(3);
    // the fix as printed: the query recorded again agrees with the documents
    fs.rmSync(query);
    const q = await inMode("record_or_replay", () => embeddings(new Vcr({ dir })).embedQuery(QUERY));
    expect([q.length, fake.count()]).to.deep.equal([16, 4]);
  });
  it("a class whose model langchain-vcr does not read (a custom class's own size field): two sizes in one directory both record and replay, and validate finds nothing (review)", async () => {
    class SizedEmbeddings extends Embeddings {
      calls = 0;
      constructor(private readonly size: number) {
        super({});
      }
      async embedDocuments(texts: string[]): Promise<number[][]> {
        this.calls++;
        return texts.map((t) => fakeVector(t, this.size));
      }
      async embedQuery(text: string): Promise<number[]> {
        return (await this.embedDocuments([text]))[0];
      }
    }
    const small = new SizedEmbeddings(4);
    const large = new SizedEmbeddings(8);
    for (const mode of ["record_or_replay", "replay_only"] as const) {
      const vcr = new Vcr({ dir });
      const a = await inMode(mode, () => vcr.embeddings(small).embedDocuments(["a small one"]));
      const b = await inMode(mode, () => vcr.embeddings(large).embedQuery("a large one"));
      expect([a[0].length, b.length]).to.deep.equal([4, 8]);
    }
    expect([small.calls, large.calls, fixtureFiles(dir).length]).to.deep.equal([1, 1, 2]);
    expect(await validateFixtures(dir)).to.deep.equal([]);
  });
});
