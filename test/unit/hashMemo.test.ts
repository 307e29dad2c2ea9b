import { expect } from "chai";
import { requestHash } from "../../src/canonical/json";
import { RequestHashes, sameJson } from "../../src/canonical/hashMemo";
import { rememberedParams } from "../../src/canonical/paramsMemo";

describe("sameJson (the memos' exactness test)", () => {
  it("is true only for the same plain JSON tree, keys in the same order", () => {
    expect(sameJson({ a: [1, "x", null, { b: true }] }, { a: [1, "x", null, { b: true }] })).to.equal(true);
    expect(sameJson(Object.assign(Object.create(null) as object, { a: 1 }), { a: 1 })).to.equal(true);
    const different: [unknown, unknown][] = [
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ], // same canonical form, but not compared as one: hashed in full
      [{ a: 1 }, { a: 1, b: undefined }],
      [{ a: 1 }, { a: "1" }],
      [
        [1, 2],
        [1, 2, 3],
      ],
      [[1], { 0: 1 }],
      [{ a: NaN }, { a: NaN }],
      [{ at: new Date(0) }, { at: new Date(0) }],
      [{ f: Math.max }, { f: Math.max }],
      [{ n: 1n }, { n: 1n }],
      [null, {}],
    ];
    for (const [a, b] of different) expect(sameJson(a, b), JSON.stringify(String(a))).to.equal(false);
  });
});

describe("RequestHashes (a request's hash found again)", () => {
  const request = (content: string, temperature = 1) => ({ model: "gpt-4o-mini", temperature, messages: [{ role: "user", content }] });

  it("gives requestHash's answer, and finds it again for the same request", () => {
    const memo = new RequestHashes();
    expect(memo.hash("chat", request("hi"), "Human: hi")).to.equal(requestHash("chat", request("hi")));
    expect(memo.hash("chat", request("hi"), "Human: hi")).to.equal(requestHash("chat", request("hi")));
    expect(memo.counts).to.deep.equal({ hits: 1, computed: 1 });
  });

  it("hashes in full every other request under the same key (another model, another image)", () => {
    const memo = new RequestHashes();
    memo.hash("chat", request("hi"), "Human: hi");
    expect(memo.hash("chat", request("hi", 0.5), "Human: hi")).to.equal(requestHash("chat", request("hi", 0.5)));
    expect(memo.hash("llm", request("hi"), "Human: hi")).to.equal(requestHash("llm", request("hi")));
    expect(memo.hash("chat", request("hi", 0.5), "Human: hi")).to.equal(requestHash("chat", request("hi", 0.5)));
    expect(memo.counts).to.deep.equal({ hits: 1, computed: 3 });
  });

  it("keeps a copy of its own: a caller that changes its request afterwards changes nothing remembered", () => {
    const memo = new RequestHashes();
    const mine = request("hi");
    memo.hash("chat", mine, "k");
    mine.messages[0].content = "changed";
    expect(memo.hash("chat", mine, "k")).to.equal(requestHash("chat", request("changed")));
    expect(memo.hash("chat", request("hi"), "k")).to.equal(requestHash("chat", request("hi")));
    expect(memo.counts).to.deep.equal({ hits: 1, computed: 2 });
  });

  it("never remembers what is not a plain JSON tree (a Date's copy would not be what was hashed)", () => {
    const memo = new RequestHashes();
    const dated = { ...request("hi"), at: new Date(0) };
    memo.hash("chat", dated, "k");
    expect(memo.hash("chat", { ...request("hi"), at: {} }, "k")).to.equal(requestHash("chat", { ...request("hi"), at: {} }));
    expect(memo.hash("chat", dated, "k")).to.equal(requestHash("chat", dated));
    expect(memo.counts).to.deep.equal({ hits: 0, computed: 3 });
  });

  it("is bounded, and hashes a very long key's request in full", () => {
    const memo = new RequestHashes();
    for (let i = 0; i < 1500; i++) memo.hash("chat", request(`q${i}`), `Human: q${i}`);
    expect(memo.hash("chat", request("q1499"), "Human: q1499")).to.equal(requestHash("chat", request("q1499")));
    expect(memo.hash("chat", request("q0"), "Human: q0")).to.equal(requestHash("chat", request("q0"))); // forgotten: computed again
    expect(memo.counts).to.deep.equal({ hits: 1, computed: 1501 });
    const long = "x".repeat(20_000);
    memo.hash("chat", request(long), long);
    memo.hash("chat", request(long), long);
    expect(memo.counts.computed).to.equal(1503);
  });
});

describe("rememberedParams (a model's canonical parameters found again)", () => {
  it("computes once for the same raw parameters, and every caller gets its own copy", () => {
    const model = {};
    let computed = 0;
    const compute = (raw: Record<string, unknown>) => (computed++, { model: raw.model, tools: [{ name: "t" }] });
    const first = rememberedParams(model, { model: "m", temperature: undefined }, compute);
    const second = rememberedParams(model, { model: "m", temperature: undefined }, compute);
    expect(second).to.deep.equal(first);
    expect(computed).to.equal(1);
    (second.tools as { name: string }[])[0].name = "changed";
    expect(rememberedParams(model, { model: "m", temperature: undefined }, compute)).to.deep.equal({ model: "m", tools: [{ name: "t" }] });
    expect(rememberedParams(model, { model: "other" }, compute)).to.deep.equal({ model: "other", tools: [{ name: "t" }] });
    expect(rememberedParams({}, { model: "m", temperature: undefined }, compute)).to.deep.equal(first); // another model: its own entry
    expect(computed).to.equal(3);
  });

  it("computes every time for parameters that are not a plain JSON tree", () => {
    const model = {};
    let computed = 0;
    const compute = () => (computed++, {});
    rememberedParams(model, { at: new Date(0) }, compute);
    rememberedParams(model, { at: new Date(0) }, compute);
    expect(computed).to.equal(2);
  });
});
