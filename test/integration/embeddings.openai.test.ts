/**
 * The real OpenAIEmbeddings (base64 wire format) through VcrEmbeddings against the loopback
 * fake: record then replay bit-exact with 0 requests, partial hits, duplicates, what keys a
 * vector (model, dimensions, query vs document, stripNewLines), normalizers, redactors,
 * the on-disk format, and CacheBackedEmbeddings on top.
 */
import { expect } from "chai";
import { SCHEMA_VERSION } from "../../src/store/fixture";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import * as fs from "node:fs";
import * as path from "node:path";
import { OpenAIEmbeddings } from "@langchain/openai";
import { CacheBackedEmbeddings } from "@langchain/classic/embeddings/cache_backed";
import { InMemoryStore } from "@langchain/core/stores";
import { Vcr, VcrFixtureError, VcrMissError, normalizers, withVcr } from "../../src/index";
import type { Fixture, VcrMode, VcrOptions } from "../../src/index";
import { fakeVector, type FakeProvider } from "../helpers/fakeProvider";
import { TEST_KEY } from "../helpers/models";
import { fixtureFiles, readFixtures } from "../helpers/tmp";

const inMode = <T>(mode: VcrMode, fn: () => Promise<T>) => withVcr({ mode }, fn);
const rec = <T>(fn: () => Promise<T>) => inMode("record_or_replay", fn);
const replay = <T>(fn: () => Promise<T>) => inMode("replay_only", fn);

/** Every float identical with ===, not just deep-equal. */
function expectBitExact(actual: number[][], expected: number[][]): void {
  expect(actual.length).to.equal(expected.length);
  expected.forEach((vec, i) => {
    expect(actual[i].length, `vector ${i} length`).to.equal(vec.length);
    vec.forEach((x, j) => expect(actual[i][j] === x, `vector ${i}[${j}]: ${actual[i][j]} !== ${x}`).to.equal(true));
  });
}

describe("embeddings: OpenAIEmbeddings record → replay", () => {
  let fake: FakeProvider;
  let dir: string;

  const embeddingsFor = (vcr: Vcr, fields: Record<string, unknown> = {}) =>
    vcr.embeddings(
      new OpenAIEmbeddings({
        model: "text-embedding-3-small",
        apiKey: TEST_KEY,
        maxRetries: 0,
        configuration: { baseURL: fake.openaiBaseURL },
        ...fields,
      }),
    );
  const newVcr = (options: VcrOptions = {}) => new Vcr({ dir, ...options });
  const inputs = () => fake.requests.filter((r) => r.path === "/v1/embeddings").map((r) => r.body.input);

  useFakeAndDir((f, d) => ((fake = f), (dir = d)), "vcr-emb-openai-");

  it("records documents and a query, then replays them with 0 requests and identical floats", async () => {
    const texts = ["The cat sat on the mat.", "Dogs bark at night.", "Fish swim."];
    const e = embeddingsFor(newVcr());
    const liveDocs = await rec(() => e.embedDocuments(texts));
    const liveQuery = await rec(() => e.embedQuery("Where did the cat sit?"));
    expect(fake.count()).to.equal(2);
    expect(fake.requests[0].body).to.deep.include({ model: "text-embedding-3-small", encoding_format: "base64" });
    expectBitExact(
      liveDocs,
      texts.map((t) => fakeVector(t, 8)),
    );
    expect(fixtureFiles(dir)).to.have.length(4);

    const vcr2 = newVcr();
    const e2 = embeddingsFor(vcr2);
    const replayedDocs = await replay(() => e2.embedDocuments(texts));
    const replayedQuery = await replay(() => e2.embedQuery("Where did the cat sit?"));
    expect(fake.count()).to.equal(2);
    expectBitExact(replayedDocs, liveDocs);
    expectBitExact([replayedQuery], [liveQuery]);
    expect(vcr2.stats()).to.deep.equal({ replayed: 4, recorded: 0, bypassed: 0, missed: 0 });
  });

  it("writes one embedding fixture per text: the canonical request, and the vector on ONE line", async () => {
    await rec(() => embeddingsFor(newVcr(), { dimensions: 16 }).embedDocuments(["one line please"]));
    const [name] = fixtureFiles(dir);
    const text = fs.readFileSync(path.join(dir, name), "utf8");
    const fixture = JSON.parse(text) as Fixture;
    expect(fixture).to.include({ schemaVersion: SCHEMA_VERSION, kind: "embedding" });
    expect(fixture.request).to.deep.equal({
      provider: "openai",
      model: "text-embedding-3-small",
      dimensions: 16,
      options: { stripNewLines: true },
      input_type: "document",
      text: "one line please",
    });
    const vector = fakeVector("one line please", 16);
    expect(fixture.response).to.deep.equal({ vector });
    const vectorLines = text.split("\n").filter((l) => l.includes('"vector"'));
    expect(vectorLines).to.deep.equal([`    "vector": [${vector.map((v) => JSON.stringify(v)).join(", ")}]`]);
    expect(text.split("\n")).to.have.length(20); // 19 lines + the trailing newline: not one line per number
    expect(text).to.not.include(TEST_KEY);
    expect(text).to.not.include("127.0.0.1");
  });

  it("on a partial hit sends one request holding exactly the missing texts, in order", async () => {
    const e = embeddingsFor(newVcr());
    await rec(() => e.embedDocuments(["b", "d"]));
    fake.reset();
    const all = ["a", "b", "c", "d", "e"];
    const out = await rec(() => e.embedDocuments(all));
    expect(inputs()).to.deep.equal([["a", "c", "e"]]);
    expectBitExact(
      out,
      all.map((t) => fakeVector(t, 8)),
    );
    fake.reset();
    await replay(() => e.embedDocuments(all));
    expect(fake.count()).to.equal(0);
  });

  it("a replay_only miss of a batch names the first missing text and tells how many others missed, quoting up to 3", async () => {
    const e = embeddingsFor(newVcr());
    await rec(() => e.embedDocuments(["a", "b"]));
    fake.reset();
    const one = (await replay(() => e.embedDocuments(["a", "b", "c"])).catch((x) => x)) as VcrMissError;
    expect(one).to.be.instanceOf(VcrMissError);
    expect(one.message).not.to.include("other text(s)");
    const many = (await replay(() => e.embedDocuments(["a", "c", "b", "d", "e", "f", "g"])).catch((x) => x)) as VcrMissError;
    expect(many.message.split("\n")[0]).to.include('for the document text "c"');
    expect(many.message).to.include('\n  4 other text(s) of this call (7 distinct) have no fixture either: "d", "e", "f", and 1 more.');
    expect(fake.count()).to.equal(0);
  });

  it("embeds duplicate texts of one call once", async () => {
    const out = await rec(() => embeddingsFor(newVcr()).embedDocuments(["x", "y", "x", "x", "y"]));
    expect(inputs()).to.deep.equal([["x", "y"]]);
    expectBitExact(
      out,
      ["x", "y", "x", "x", "y"].map((t) => fakeVector(t, 8)),
    );
    expect(fixtureFiles(dir)).to.have.length(2);
  });

  it("a different model or dimensions misses: separate fixtures, and replay_only names the text and the model", async () => {
    const vcr = newVcr();
    await rec(() => embeddingsFor(vcr).embedQuery("same text"));
    await rec(() => embeddingsFor(vcr, { model: "text-embedding-3-large" }).embedQuery("same text"));
    await rec(() => embeddingsFor(vcr, { dimensions: 4 }).embedQuery("same text"));
    expect(fake.count()).to.equal(3);
    expect(fake.requests[2].body.dimensions).to.equal(4);
    expect(fixtureFiles(dir)).to.have.length(3);

    const err = await replay(() =>
      embeddingsFor(vcr, { model: "text-embedding-ada-002" })
        .embedQuery("same text")
        .catch((x: unknown) => x),
    );
    expect(err).to.be.instanceOf(VcrMissError);
    const miss = err as VcrMissError;
    expect(miss.kind).to.equal("embedding");
    expect(miss.message.split("\n")[0]).to.equal(
      'langchain-vcr: no recorded fixture for this embedding request from OpenAIEmbeddings (model "text-embedding-ada-002") for the query text "same text", and mode replay_only never calls the real model.',
    );
    expect(miss.nearest?.differences.map((d) => d.path)).to.deep.equal(["model"]);
    // the message shows the request and the nearest fixture; a runner printing the error's own fields (vitest) does not repeat them
    expect(Object.keys(miss).sort()).to.deep.equal(["code", "hash", "kind", "name"]);
    expect(miss.request).to.have.property("model", "text-embedding-ada-002");
    const dims = await replay(() =>
      embeddingsFor(vcr, { dimensions: 8 })
        .embedQuery("same text")
        .catch((x: unknown) => x),
    );
    expect((dims as VcrMissError).message).to.include('OpenAIEmbeddings (model "text-embedding-3-small", dimensions 8) for the query text "same text"');
    expect(fake.count()).to.equal(3);
  });

  it("names a long missing text cut to 80 characters", async () => {
    const long = "A very long document. ".repeat(10);
    const err = (await replay(() =>
      embeddingsFor(newVcr())
        .embedDocuments([long])
        .catch((x) => x),
    )) as VcrMissError;
    expect(err.message.split("\n")[0]).to.include(`for the document text ${JSON.stringify(long.slice(0, 80)).slice(0, -1)}…"`);
    expect((err.request as { text: string }).text).to.equal(long);
  });

  it("a damaged vector (a string where the numbers were) is a VcrFixtureError naming the file, with 0 requests, not the string", async () => {
    const e = embeddingsFor(newVcr());
    await rec(() => e.embedQuery("damaged vector"));
    const file = path.join(dir, fixtureFiles(dir)[0]);
    const fixture = JSON.parse(fs.readFileSync(file, "utf8"));
    fixture.response.vector = fixture.response.vector.join(", ");
    fs.writeFileSync(file, JSON.stringify(fixture, null, 2));
    fake.reset();
    for (const run of [replay, rec]) {
      const err = await run(() => e.embedQuery("damaged vector")).catch((x) => x);
      expect(err).to.be.instanceOf(VcrFixtureError);
      expect(err.code).to.equal("VCR_FIXTURE");
      expect(err.message.split("\n")[0]).to.equal(
        `langchain-vcr: the embedding fixture ${file} has a "response.vector" that is a string, but the request does not ask for base64 vectors (no "base64" in request.options), so replay refuses it.`,
      );
    }
    expect(fake.count()).to.equal(0);
    expect(JSON.parse(fs.readFileSync(file, "utf8"))).to.deep.equal(fixture); // left for the user to look at
  });

  it('encodingFormat: "base64" records the base64 text the client returns and replays it with 0 requests', async () => {
    const e = embeddingsFor(newVcr(), { encodingFormat: "base64" });
    const live = await rec(() => e.embedQuery("as text"));
    expect(live).to.be.a("string");
    expect(readFixtures(dir).map((f) => [f.request.options.encodingFormat, f.response.vector])).to.deep.equal([["base64", live]]);
    fake.reset();
    expect(await replay(() => e.embedQuery("as text"))).to.equal(live);
    expect(fake.count()).to.equal(0);
  });

  it("keys query and document apart: the same text embedded both ways is two fixtures", async () => {
    const e = embeddingsFor(newVcr());
    await rec(() => e.embedQuery("both ways"));
    await rec(() => e.embedDocuments(["both ways"]));
    expect(fake.count()).to.equal(2);
    expect(
      readFixtures(dir)
        .map((f) => f.request.input_type)
        .sort(),
    ).to.deep.equal(["document", "query"]);
  });

  it("keys on stripNewLines (it changes what OpenAI receives)", async () => {
    const vcr = newVcr();
    await rec(() => embeddingsFor(vcr).embedQuery("line one\nline two"));
    await rec(() => embeddingsFor(vcr, { stripNewLines: false }).embedQuery("line one\nline two"));
    expect(inputs()).to.deep.equal(["line one line two", "line one\nline two"]);
    expect(fixtureFiles(dir)).to.have.length(2);
  });

  it("normalizers rewrite the hashed text: the fixture holds the placeholder, the model got the original", async () => {
    const vcr = newVcr({ normalizers: [normalizers.isoDate] });
    const live = await rec(() => embeddingsFor(vcr).embedQuery("Report for 2024-05-01"));
    expect(inputs()).to.deep.equal(["Report for 2024-05-01"]);
    const [fixture] = readFixtures(dir);
    expect(fixture.request.text).to.not.include("2024-05-01");
    expect(fixture.request.text).to.match(/^Report for \S+$/);
    const replayed = await replay(() => embeddingsFor(vcr).embedQuery("Report for 2031-12-24"));
    expect(fake.count()).to.equal(1);
    expectBitExact([replayed], [live]);
  });

  it("a redactor can remove the text from the file; replay still hits by hash", async () => {
    const redactText = (f: Fixture): Fixture => ({ ...f, request: { ...(f.request as object), text: "[redacted]" } });
    const vcr = newVcr({ redactors: [redactText] });
    const live = await rec(() => embeddingsFor(vcr).embedDocuments(["patient John Smith, DOB 1970-01-01"]));
    const [name] = fixtureFiles(dir);
    const text = fs.readFileSync(path.join(dir, name), "utf8");
    expect(text).to.not.include("John Smith");
    expect(JSON.parse(text)).to.include({ redacted: true });
    const replayed = await replay(() => embeddingsFor(vcr).embedDocuments(["patient John Smith, DOB 1970-01-01"]));
    expect(fake.count()).to.equal(1);
    expectBitExact(replayed, live);
  });

  it("works under CacheBackedEmbeddings: its store misses fall through to the recorded fixtures", async () => {
    const texts = ["alpha", "beta"];
    const first = CacheBackedEmbeddings.fromBytesStore(embeddingsFor(newVcr()), new InMemoryStore<Uint8Array>(), { namespace: "t" });
    const live = await rec(() => first.embedDocuments(texts));
    expect(fake.count()).to.equal(1);
    // a fresh byte store (a new test run): nothing cached there, everything replayed from fixtures
    const vcr2 = newVcr();
    const second = CacheBackedEmbeddings.fromBytesStore(embeddingsFor(vcr2), new InMemoryStore<Uint8Array>(), { namespace: "t" });
    const replayed = await replay(() => second.embedDocuments(texts));
    const query = await replay(() => second.embedQuery("alpha").catch((x: unknown) => x));
    expect(fake.count()).to.equal(1);
    expectBitExact(replayed, live);
    // CacheBackedEmbeddings passes queries straight through; ours keys them apart from documents
    expect(query).to.be.instanceOf(VcrMissError);
    expect(vcr2.stats()).to.deep.equal({ replayed: 2, recorded: 0, bypassed: 0, missed: 1 });
  });
});
