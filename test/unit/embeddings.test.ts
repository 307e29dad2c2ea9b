/**
 * VcrEmbeddings against a scripted in-process Embeddings: dedupe, partial hits, concurrency
 * (no double calls, no deadlock), failures (nothing written, waiters released), bit-exact
 * vectors, and the modes. The real clients over HTTP are in test/integration/embeddings*.
 */
import { expect } from "chai";
import { onScopeEvent } from "../../src/scope";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { Embeddings } from "@langchain/core/embeddings";
import { Vcr, VcrFixtureError, VcrMissError, VcrRecordError, withVcr } from "../../src/index";
import type { VcrMode } from "../../src/index";

/** Records every call; vectors derive from the text; can be told to fail, lag, or misbehave. */
class ScriptedEmbeddings extends Embeddings {
  model = "scripted-1";
  calls: { method: "query" | "documents"; texts: string[] }[] = [];
  failNext = 0;
  delayMs = 0;
  transform: (texts: string[], vectors: unknown[]) => unknown[] = (_t, v) => v;
  constructor() {
    super({});
  }
  static vector(text: string): number[] {
    return [text.length, text.charCodeAt(0) / 7, -1 / 3];
  }
  private async run(method: "query" | "documents", texts: string[]): Promise<unknown[]> {
    this.calls.push({ method, texts: [...texts] });
    if (this.delayMs) await new Promise((r) => setTimeout(r, this.delayMs));
    if (this.failNext > 0) {
      this.failNext--;
      throw new Error("scripted failure");
    }
    return this.transform(texts, texts.map(ScriptedEmbeddings.vector));
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    return (await this.run("documents", texts)) as number[][];
  }
  async embedQuery(text: string): Promise<number[]> {
    return ((await this.run("query", [text])) as number[][])[0];
  }
  texts(): string[] {
    return this.calls.flatMap((c) => c.texts);
  }
}

describe("embeddings: VcrEmbeddings", () => {
  let dir: string;
  let vcr: Vcr;
  let inner: ScriptedEmbeddings;
  const inMode = <T>(mode: VcrMode, fn: () => Promise<T>) => withVcr({ mode }, fn);
  const files = () => fs.readdirSync(dir).filter((f) => f.endsWith(".json"));

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "vcr-emb-unit-"));
    vcr = new Vcr({ dir });
    inner = new ScriptedEmbeddings();
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("is an Embeddings that exposes the wrapped instance as underlyingEmbeddings", () => {
    const e = vcr.embeddings(inner);
    expect(e).to.be.instanceOf(Embeddings);
    expect(e.underlyingEmbeddings).to.equal(inner);
  });

  it("returns [] for no texts without calling the model", async () => {
    expect(await inMode("record_or_replay", () => vcr.embeddings(inner).embedDocuments([]))).to.deep.equal([]);
    expect(inner.calls).to.have.length(0);
  });

  it("embeds duplicates once, returns one distinct array per position, and writes one fixture per text", async () => {
    const e = vcr.embeddings(inner);
    const out = await inMode("record_or_replay", () => e.embedDocuments(["a", "bb", "a", "ccc", "bb"]));
    expect(inner.calls).to.deep.equal([{ method: "documents", texts: ["a", "bb", "ccc"] }]);
    expect(out).to.deep.equal(["a", "bb", "a", "ccc", "bb"].map(ScriptedEmbeddings.vector));
    expect(out[0]).to.not.equal(out[2]);
    expect(files()).to.have.length(3);
  });

  it("on a partial hit sends one request with only the missing texts, in order, and returns input order", async () => {
    const e = vcr.embeddings(inner);
    await inMode("record_or_replay", () => e.embedDocuments(["b", "d"]));
    inner.calls = [];
    const out = await inMode("record_or_replay", () => e.embedDocuments(["a", "b", "c", "d", "e"]));
    expect(inner.calls).to.deep.equal([{ method: "documents", texts: ["a", "c", "e"] }]);
    expect(out).to.deep.equal(["a", "b", "c", "d", "e"].map(ScriptedEmbeddings.vector));
  });

  it("replays doubles bit-exact, including ones that print long", async () => {
    const tricky = [0.1 + 0.2, 5e-324, -1.7976931348623157e308, 1 / 3, -0.000001234, 2 ** 53 + 2];
    inner.transform = (texts) => texts.map(() => tricky);
    const e = vcr.embeddings(inner);
    await inMode("record_or_replay", () => e.embedQuery("x"));
    const replayed = await inMode("replay_only", () => e.embedQuery("x"));
    expect(replayed).to.have.length(tricky.length);
    tricky.forEach((v, i) => expect(replayed[i] === v, `index ${i}`).to.equal(true));
    expect(inner.calls).to.have.length(1);
  });

  it("two overlapping calls in opposite orders share recordings: each text reaches the model once, no deadlock", async () => {
    inner.delayMs = 20;
    const e = vcr.embeddings(inner);
    const [x, y, q1, q2] = await inMode("record_or_replay", () =>
      Promise.all([e.embedDocuments(["p", "q", "r"]), e.embedDocuments(["r", "q", "p", "s"]), e.embedQuery("p"), e.embedQuery("p")]),
    );
    expect(
      inner
        .texts()
        .filter((t) => t !== "s")
        .sort(),
    ).to.deep.equal(["p", "p", "q", "r"]); // "p" once as document, once as query
    expect(inner.texts().filter((t) => t === "s")).to.have.length(1);
    expect(inner.calls.filter((c) => c.method === "query")).to.have.length(1);
    expect(x).to.deep.equal(["p", "q", "r"].map(ScriptedEmbeddings.vector));
    expect(y).to.deep.equal(["r", "q", "p", "s"].map(ScriptedEmbeddings.vector));
    expect(q1).to.deep.equal(q2);
    expect(vcr.stats()).to.include({ recorded: 5 });
  });

  it("a failing model call writes nothing, releases its claims, and a concurrent waiter then records", async () => {
    inner.delayMs = 10;
    inner.failNext = 1;
    const e = vcr.embeddings(inner);
    const [first, second] = await inMode("record_or_replay", () => Promise.allSettled([e.embedDocuments(["m", "n"]), e.embedDocuments(["n"])]));
    expect(first.status).to.equal("rejected");
    // the model's own error, with the note that no fixture matched (test/integration/failedLive.test.ts)
    expect((first as PromiseRejectedResult).reason.message).to.match(/^scripted failure\nlangchain-vcr: no recorded fixture matched this embedding request/);
    expect(second).to.deep.equal({ status: "fulfilled", value: [ScriptedEmbeddings.vector("n")] });
    expect(inner.calls).to.deep.equal([
      { method: "documents", texts: ["m", "n"] },
      { method: "documents", texts: ["n"] },
    ]);
    expect(files()).to.have.length(1);
    // and nothing is left claimed: "m" records on the next call
    await inMode("record_or_replay", () => e.embedDocuments(["m"]));
    expect(files()).to.have.length(2);
  });

  it("refuses a model that returns the wrong number of vectors (VcrRecordError, nothing written; the provider answered: no failed live call counted)", async () => {
    inner.transform = (_t, v) => v.slice(1);
    const e = vcr.embeddings(inner);
    let failedLive = 0;
    const stop = onScopeEvent((ev) => void (ev.type === "failedLive" && failedLive++));
    const err = await inMode("record_or_replay", () => e.embedDocuments(["a", "b"]).catch((x) => x)).finally(stop);
    expect(failedLive).to.equal(0);
    expect(err).to.be.instanceOf(VcrRecordError);
    expect(err.message).to.match(/^langchain-vcr: ScriptedEmbeddings \(model "scripted-1"\) returned 1 vectors for 2 texts/);
    expect(files()).to.have.length(0);
  });

  it("refuses a vector JSON cannot hold exactly (NaN), naming the text", async () => {
    inner.transform = (texts) => texts.map(() => [1, NaN]);
    const err = await inMode("record_or_replay", () =>
      vcr
        .embeddings(inner)
        .embedQuery("nan text")
        .catch((x) => x),
    );
    expect(err).to.be.instanceOf(VcrRecordError);
    expect(err.message).to.include("holds NaN at index 1");
    expect(err.message).to.include('text: "nan text"');
    expect(files()).to.have.length(0);
  });

  it("a damaged fixture is a VcrFixtureError, not a miss, and the call releases the texts it claimed", async () => {
    const e = vcr.embeddings(inner);
    await inMode("record_or_replay", () => e.embedDocuments(["broken"]));
    const file = path.join(dir, files()[0]);
    const fixture = JSON.parse(fs.readFileSync(file, "utf8"));
    fixture.response = { vector: [1, "two"] };
    fs.writeFileSync(file, JSON.stringify(fixture));
    inner.calls = [];
    const err = await inMode("record_or_replay", () => e.embedDocuments(["fresh", "broken"]).catch((x) => x));
    expect(err).to.be.instanceOf(VcrFixtureError);
    expect(err.message.split("\n")[0]).to.equal(
      `langchain-vcr: the embedding fixture ${file} has a "response.vector" that holds "two" at index 1, not a number, so replay refuses it.`,
    );
    expect(inner.calls).to.have.length(0);
    // "fresh" was claimed by the failed call; were it not released, this would wait forever
    const out = await inMode("record_or_replay", () => e.embedDocuments(["fresh"]));
    expect(out).to.deep.equal([ScriptedEmbeddings.vector("fresh")]);
    expect(inner.texts()).to.deep.equal(["fresh"]);
  });

  it("replay_only throws VcrMissError for the first missing text, in input order, without calling the model", async () => {
    const e = vcr.embeddings(inner);
    await inMode("record_or_replay", () => e.embedDocuments(["known"]));
    inner.calls = [];
    const err = await inMode("replay_only", () => e.embedDocuments(["known", "first missing", "second missing"]).catch((x) => x));
    expect(err).to.be.instanceOf(VcrMissError);
    expect(err.message.split("\n")[0]).to.equal(
      'langchain-vcr: no recorded fixture for this embedding request from ScriptedEmbeddings (model "scripted-1") for the document text "first missing", and mode replay_only never calls the real model.',
    );
    expect(inner.calls).to.have.length(0);
  });

  it("bypass calls the model every time and writes nothing; record_always calls it and overwrites", async () => {
    const e = vcr.embeddings(inner);
    await inMode("bypass", () => e.embedDocuments(["a", "b"]));
    await inMode("bypass", () => e.embedDocuments(["a", "b"]));
    expect(inner.calls).to.have.length(2);
    expect(files()).to.have.length(0);
    await inMode("record_or_replay", () => e.embedDocuments(["a"]));
    inner.transform = (texts) => texts.map(() => [42]);
    const out = await inMode("record_always", () => e.embedDocuments(["a"]));
    expect(out).to.deep.equal([[42]]);
    expect(inner.calls).to.have.length(4);
    expect(await inMode("replay_only", () => e.embedDocuments(["a"]))).to.deep.equal([[42]]);
    expect(vcr.stats()).to.deep.equal({ replayed: 1, recorded: 2, bypassed: 4, missed: 0 });
  });

  it("passes a string (base64) vector through and replays it unchanged when the instance asks for base64", async () => {
    inner.transform = (texts) => texts.map(() => "AACAPwAAAEA=");
    Object.assign(inner, { encodingFormat: "base64" });
    const e = vcr.embeddings(inner);
    const live = await inMode("record_or_replay", () => e.embedQuery("b64"));
    const replayed = await inMode("replay_only", () => e.embedQuery("b64"));
    expect(live).to.equal("AACAPwAAAEA=");
    expect(replayed).to.equal("AACAPwAAAEA=");
  });

  it("refuses to record a string vector the instance did not ask for (replay would refuse it too); nothing written", async () => {
    inner.transform = (texts) => texts.map(() => "not a vector");
    const e = vcr.embeddings(inner);
    const err = await inMode("record_or_replay", () => e.embedQuery("stringly")).catch((x) => x);
    expect(err).to.be.instanceOf(VcrRecordError);
    expect(err.message.split("\n")[0]).to.equal(
      'langchain-vcr: the embedding returned by ScriptedEmbeddings (model "scripted-1") for the query text "stringly" is a string, but the request does not ask for base64 vectors (no "base64" in request.options); it cannot be recorded.',
    );
    expect(files()).to.have.length(0);
  });

  it("a live answer of two lengths in one call is recorded, then the call fails saying the live model answered so; bypass passes it as it came", async () => {
    inner.transform = (texts) => texts.map((t, i) => (i === 0 ? [1, 2] : [1, 2, 3]));
    const e = vcr.embeddings(inner);
    const bypassed = await inMode("bypass", () => e.embedDocuments(["x", "y"]));
    expect(bypassed.map((v) => v.length)).to.deep.equal([2, 3]);
    expect(files()).to.have.length(0);
    const err = await inMode("record_or_replay", () => e.embedDocuments(["x", "y"]).catch((x) => x));
    expect(inner.calls).to.have.length(2);
    expect(files()).to.have.length(2);
    expect(err).to.be.instanceOf(VcrFixtureError);
    const [x, y] = ["x", "y"].map((t) =>
      path.join(
        dir,
        files().find((f) => fs.readFileSync(path.join(dir, f), "utf8").includes(`"text": "${t}"`))!,
      ),
    );
    const lines = err.message.split("\n");
    expect(lines.slice(0, 3)).to.deep.equal([
      `langchain-vcr: embedDocuments of ScriptedEmbeddings (model "scripted-1") got vectors of 2 lengths in one call (1 of 2 numbers, 1 of 3), so it failed rather than return them mixed: a vector store would compare them without complaint.`,
      `  2 numbers: just recorded from the live model: ${x}`,
      `  3 numbers: just recorded from the live model: ${y}`,
    ]);
    expect(lines[4]).to.equal(
      `  The live model answered this one call with vectors of different lengths; one model's vectors all have one length, so check what serves "scripted-1" (a proxy, a router between several servers).`,
    );
    expect(lines[5]).to.match(
      new RegExp(
        `^  Fix it: make the live model answer with one length, then record these texts again: rm "${x}" "${y}" && LANGCHAIN_VCR_MODE=record_or_replay `,
      ),
    );
  });

  it("more than 10 fixtures of the older length: the error lists 10, counts the rest, and points at validate for every one", async () => {
    const old = Array.from({ length: 12 }, (_, i) => `old ${String(i).padStart(2, "0")}`);
    const e = vcr.embeddings(inner);
    await inMode("record_or_replay", () => e.embedDocuments(old));
    inner.transform = (texts) => texts.map(() => [0.5, 0.25]);
    const err = await inMode("replay_only", () => e.embedDocuments(["new"]).catch((x) => x)); // a miss, as ever: nothing to compare with
    expect(err).to.be.instanceOf(VcrMissError);
    const mixed = await inMode("record_or_replay", () => e.embedDocuments([...old, "new"]).catch((x) => x));
    expect(inner.calls.map((c) => c.texts)).to.deep.equal([old, ["new"]]);
    expect(files()).to.have.length(13);
    expect(mixed).to.be.instanceOf(VcrFixtureError);
    const lines = mixed.message.split("\n");
    expect(lines[1]).to.match(/^ {2}3 numbers: replayed from 12 fixtures: (\/[^,]+\.json, ){10}and 2 more$/);
    expect(lines[2]).to.match(/^ {2}2 numbers: just recorded from the live model: \/[^,]+\.json$/);
    expect(lines[lines.length - 1]).to.include(
      `Delete them and run the test again, which records only those texts: delete the 12 fixtures of 3 numbers (npx langchain-vcr validate ${JSON.stringify(dir)} lists every one), then LANGCHAIN_VCR_MODE=record_or_replay `,
    );
  });
});
