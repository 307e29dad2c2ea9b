/**
 * The real OllamaEmbeddings (POST /api/embed) through VcrEmbeddings against the loopback
 * fake: record then replay bit-exact with 0 requests, partial hits, duplicates, and what
 * keys a vector (model, dimensions, truncate).
 */
import { expect } from "chai";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { OllamaEmbeddings } from "@langchain/ollama";
import { Vcr, VcrMissError, withVcr } from "../../src/index";
import type { VcrMode } from "../../src/index";
import { fakeVector, type FakeProvider } from "../helpers/fakeProvider";
import { fixtureFiles, readFixtures } from "../helpers/tmp";

const inMode = <T>(mode: VcrMode, fn: () => Promise<T>) => withVcr({ mode }, fn);
const rec = <T>(fn: () => Promise<T>) => inMode("record_or_replay", fn);
const replay = <T>(fn: () => Promise<T>) => inMode("replay_only", fn);

function expectBitExact(actual: number[][], expected: number[][]): void {
  expect(actual.length).to.equal(expected.length);
  expected.forEach((vec, i) => {
    expect(actual[i].length, `vector ${i} length`).to.equal(vec.length);
    vec.forEach((x, j) => expect(actual[i][j] === x, `vector ${i}[${j}]: ${actual[i][j]} !== ${x}`).to.equal(true));
  });
}

describe("embeddings: OllamaEmbeddings record → replay", () => {
  let fake: FakeProvider;
  let dir: string;

  const embeddingsFor = (vcr: Vcr, fields: Record<string, unknown> = {}) =>
    vcr.embeddings(new OllamaEmbeddings({ model: "nomic-embed-text", baseUrl: fake.ollamaBaseUrl, maxRetries: 0, ...fields }));
  const inputs = () => fake.requests.filter((r) => r.path === "/api/embed").map((r) => r.body.input);

  useFakeAndDir((f, d) => ((fake = f), (dir = d)), "vcr-emb-ollama-");

  it("records, then replays documents and a query with 0 requests and identical floats", async () => {
    const texts = ["red apples", "green pears", "yellow bananas"];
    const e = embeddingsFor(new Vcr({ dir }));
    const docs = await rec(() => e.embedDocuments(texts));
    const query = await rec(() => e.embedQuery("which fruit is red?"));
    expect(inputs()).to.deep.equal([texts, ["which fruit is red?"]]);
    expectBitExact(
      docs,
      texts.map((t) => fakeVector(t, 8)),
    );

    const vcr2 = new Vcr({ dir });
    const e2 = embeddingsFor(vcr2);
    expectBitExact(await replay(() => e2.embedDocuments(texts)), docs);
    expectBitExact([await replay(() => e2.embedQuery("which fruit is red?"))], [query]);
    expect(fake.count()).to.equal(2);
    expect(vcr2.stats()).to.deep.equal({ replayed: 4, recorded: 0, bypassed: 0, missed: 0 });
    expect(readFixtures(dir).find((f) => f.request.input_type === "query").request).to.deep.equal({
      provider: "ollama",
      model: "nomic-embed-text",
      options: { truncate: false },
      input_type: "query",
      text: "which fruit is red?",
    });
  });

  it("on a partial hit sends exactly the missing texts, and embeds duplicates once", async () => {
    const e = embeddingsFor(new Vcr({ dir }));
    await rec(() => e.embedDocuments(["two", "four"]));
    fake.reset();
    const texts = ["one", "two", "three", "one", "four", "five", "three"];
    const out = await rec(() => e.embedDocuments(texts));
    expect(inputs()).to.deep.equal([["one", "three", "five"]]);
    expectBitExact(
      out,
      texts.map((t) => fakeVector(t, 8)),
    );
    expect(fixtureFiles(dir)).to.have.length(5);
  });

  it("a different model, dimensions or truncate is a different fixture; replay_only names text and model", async () => {
    const vcr = new Vcr({ dir });
    await rec(() => embeddingsFor(vcr).embedQuery("shared"));
    await rec(() => embeddingsFor(vcr, { model: "mxbai-embed-large" }).embedQuery("shared"));
    await rec(() => embeddingsFor(vcr, { dimensions: 256 }).embedQuery("shared"));
    await rec(() => embeddingsFor(vcr, { truncate: true }).embedQuery("shared"));
    expect(fake.count()).to.equal(4);
    expect(fixtureFiles(dir)).to.have.length(4);

    const err = await replay(() =>
      embeddingsFor(vcr, { model: "all-minilm" })
        .embedDocuments(["shared"])
        .catch((x: unknown) => x),
    );
    expect(err).to.be.instanceOf(VcrMissError);
    expect((err as VcrMissError).message.split("\n")[0]).to.equal(
      'langchain-vcr: no recorded fixture for this embedding request from OllamaEmbeddings (model "all-minilm") for the document text "shared", and mode replay_only never calls the real model.',
    );
    expect(fake.count()).to.equal(4);
  });
});
