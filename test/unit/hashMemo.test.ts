import { expect } from "chai";
import { requestHash } from "../../src/canonical/json";
import { rebuild, RequestHashes, type RequestParts } from "../../src/canonical/hashMemo";
import { canonicalParams } from "../../src/canonical/params";
import { paramsMemoCounts, rememberedParams } from "../../src/canonical/paramsMemo";
import { sameJson, sameUnordered } from "../../src/canonical/sameJson";

/** An array the canonical form writes through its own toJSON (sortDeep copies arrays with map, which keeps the subclass). */
class Tagged<T> extends Array<T> {
  toJSON(): string {
    return "tagged";
  }
}
const ownMap = (xs: unknown[]) => Object.assign([...xs], { map: () => ["mapped"] });
/** A plain object whose getter answers "first" once, then "later". */
const fickle = () => {
  let reads = 0;
  return {
    get v() {
      return reads++ === 0 ? "first" : "later";
    },
  };
};

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
      [Tagged.from([1, 2]), [1, 2]],
      [[1, 2], Tagged.from([1, 2])],
      [ownMap([1]), [1]],
      [Object.assign([1], { constructor: Tagged }), [1]],
    ];
    for (const [a, b] of different) expect(sameJson(a, b), JSON.stringify(String(a))).to.equal(false);
  });
});

describe("sameUnordered (a re-hash skipped only when it could give nothing else)", () => {
  it("is true for the same plain JSON tree in any key order, and false whenever the canonical forms could differ", () => {
    const asked = { model: "gpt-4o-mini", temperature: 0, messages: [{ role: "user", content: "hi" }] };
    const onDisk = JSON.parse('{"messages":[{"content":"hi","role":"user"}],"model":"gpt-4o-mini","temperature":0}') as unknown;
    expect(sameUnordered(onDisk, asked)).to.equal(true);
    expect(requestHash("chat", onDisk)).to.equal(requestHash("chat", asked));
    const hidden = Object.defineProperty({ a: 1, c: 2 }, "b", { value: 2, enumerable: false }); // own b, but not in its canonical form
    const different: [unknown, unknown][] = [
      [{ a: 1 }, { a: 1, b: 2 }],
      [
        { a: 1, b: 2 },
        { a: 1, c: 2 },
      ],
      [{ a: 1 }, { a: 1, b: undefined }],
      [{ a: [1, 2] }, { a: [2, 1] }],
      [{ a: NaN }, { a: NaN }],
      [{ at: new Date(0) }, { at: new Date(0) }],
      [Tagged.from([1]), [1]],
      [{ a: 1, b: 2 }, hidden],
      [{ a: "1" }, { a: 1 }],
    ];
    for (const [a, b] of different) expect(sameUnordered(a, b), JSON.stringify(String(a))).to.equal(false);
  });
});

describe("RequestHashes (a request's hash found again from its parts)", () => {
  const request = (content: string, temperature = 1) => ({ model: "gpt-4o-mini", temperature, messages: [{ role: "user", content }] });
  /** A request source whose request is a copy of its parts (as a chat call's is built from them), counting its builds. */
  const built = { count: 0 };
  const source = (parts: unknown, key: string): RequestParts => ({
    key,
    parts,
    build: (p) => {
      built.count++;
      return JSON.parse(JSON.stringify(p)) as unknown;
    },
  });
  /** What the recorder does: a remembered hash, else the request built and hashed (and remembered when it can be). */
  const hashOf = (memo: RequestHashes, kind: string, parts: unknown, key: string) =>
    memo.find(kind, source(parts, key))?.hash ?? memo.compute(kind, source(parts, key)).hash;
  beforeEach(() => (built.count = 0));

  it("gives requestHash's answer, remembers it the second time its key is asked, then finds it without building the request", () => {
    const memo = new RequestHashes();
    expect(hashOf(memo, "chat", request("hi"), "Human: hi")).to.equal(requestHash("chat", request("hi")));
    expect(memo.find("chat", source(request("hi"), "Human: hi")), "asked once: nothing copied or remembered").to.equal(undefined);
    for (let i = 0; i < 3; i++) expect(hashOf(memo, "chat", request("hi"), "Human: hi")).to.equal(requestHash("chat", request("hi")));
    expect(memo.counts).to.deep.equal({ hits: 2, computed: 2 });
    expect(built.count).to.equal(2);
  });

  it("builds and hashes in full every other request under the same key (another model, another image)", () => {
    const memo = new RequestHashes();
    hashOf(memo, "chat", request("hi"), "Human: hi");
    expect(hashOf(memo, "chat", request("hi", 0.5), "Human: hi")).to.equal(requestHash("chat", request("hi", 0.5)));
    expect(hashOf(memo, "llm", request("hi"), "Human: hi")).to.equal(requestHash("llm", request("hi")));
    expect(hashOf(memo, "chat", request("hi", 0.5), "Human: hi")).to.equal(requestHash("chat", request("hi", 0.5)));
    expect(memo.counts).to.deep.equal({ hits: 1, computed: 3 });
  });

  it("keeps a copy of its own: a caller that changes its parts afterwards changes nothing remembered", () => {
    const memo = new RequestHashes();
    const mine = request("hi");
    hashOf(memo, "chat", mine, "k");
    hashOf(memo, "chat", mine, "k"); // remembered now
    mine.messages[0].content = "changed";
    expect(hashOf(memo, "chat", mine, "k")).to.equal(requestHash("chat", request("changed")));
    expect(hashOf(memo, "chat", request("hi"), "k")).to.equal(requestHash("chat", request("hi")));
    expect(memo.counts).to.deep.equal({ hits: 1, computed: 3 });
  });

  it("builds a remembered request from what was hashed, when asked for it", () => {
    const memo = new RequestHashes();
    hashOf(memo, "chat", request("hi"), "k");
    hashOf(memo, "chat", request("hi"), "k");
    const found = memo.find("chat", source(request("hi"), "k"))!;
    const rebuilt = rebuild(source(request("hi"), "k"), found) as ReturnType<typeof request>;
    expect(rebuilt).to.deep.equal(request("hi"));
    rebuilt.messages[0].content = "changed";
    expect(hashOf(memo, "chat", request("hi"), "k")).to.equal(requestHash("chat", request("hi")));
    expect(memo.counts).to.deep.equal({ hits: 2, computed: 2 });
  });

  it("never remembers what is not a plain JSON tree (a Date's copy would not be what was hashed)", () => {
    const memo = new RequestHashes();
    const dated = { ...request("hi"), at: new Date(0) };
    const build = (p: unknown) => p; // the request is its parts (this test changes neither)
    const hashDated = (parts: unknown) => memo.find("chat", { key: "k", parts, build })?.hash ?? memo.compute("chat", { key: "k", parts, build }).hash;
    hashDated(dated);
    expect(hashDated({ ...request("hi"), at: {} })).to.equal(requestHash("chat", { ...request("hi"), at: {} }));
    expect(hashDated(dated)).to.equal(requestHash("chat", dated));
    expect(memo.counts).to.deep.equal({ hits: 0, computed: 3 });
  });

  it("never gives a plain array's hash to an array the canonical form writes otherwise (a subclass, an own map), either way round", () => {
    const build = (p: unknown) => p;
    for (const exotic of [Tagged.from([1, 2]), ownMap([1, 2])]) {
      for (const order of [
        [{ messages: exotic }, { messages: [1, 2] }],
        [{ messages: [1, 2] }, { messages: exotic }],
      ]) {
        const memo = new RequestHashes();
        for (const r of [...order, ...order]) {
          const hash = memo.find("chat", { key: "k", parts: r, build })?.hash ?? memo.compute("chat", { key: "k", parts: r, build }).hash;
          expect(hash).to.equal(requestHash("chat", r));
        }
      }
    }
  });

  it("hashes what it remembers: a getter read again cannot leave another request's hash behind", () => {
    const memo = new RequestHashes();
    const first = hashOf(memo, "chat", fickle(), "k");
    expect(hashOf(memo, "chat", { v: "later" }, "k")).to.equal(requestHash("chat", { v: "later" }));
    expect(first).to.be.oneOf([requestHash("chat", { v: "first" }), requestHash("chat", { v: "later" })]);
  });

  it("is bounded, and hashes a very long key's request in full", () => {
    const memo = new RequestHashes();
    for (let i = 0; i < 3000; i++) hashOf(memo, "chat", request(`q${i >> 1}`), `Human: q${i >> 1}`); // each asked twice
    expect(hashOf(memo, "chat", request("q1499"), "Human: q1499")).to.equal(requestHash("chat", request("q1499")));
    expect(hashOf(memo, "chat", request("q0"), "Human: q0")).to.equal(requestHash("chat", request("q0"))); // forgotten: computed again
    expect(memo.counts).to.deep.equal({ hits: 1, computed: 3001 });
    const long = "x".repeat(20_000);
    for (let i = 0; i < 3; i++) hashOf(memo, "chat", request(long), long);
    expect(memo.counts.computed).to.equal(3004);
  });
});

describe("rememberedParams (a model's canonical parameters found again)", () => {
  const raw = () => ({
    model: "m",
    temperature: undefined,
    stop: ["a"],
    tools: [{ type: "function", function: { name: "t", parameters: { type: "object" } } }],
  });

  it("gives canonicalParams' answer, computes once for the same raw parameters, and every caller gets its own copy", () => {
    const model = {};
    const before = { ...paramsMemoCounts };
    const first = rememberedParams(model, raw());
    expect(first).to.deep.equal(canonicalParams(raw()));
    const second = rememberedParams(model, raw());
    expect(second).to.deep.equal(first);
    (second.tools as { name: string }[])[0].name = "changed";
    second.model = "changed";
    expect(rememberedParams(model, raw())).to.deep.equal(canonicalParams(raw()));
    expect(rememberedParams(model, { ...raw(), model: "other" })).to.deep.equal(canonicalParams({ ...raw(), model: "other" }));
    expect(rememberedParams({}, raw())).to.deep.equal(first); // another model: its own entry
    expect({ hits: paramsMemoCounts.hits - before.hits, computed: paramsMemoCounts.computed - before.computed }).to.deep.equal({ hits: 2, computed: 3 });
  });

  it("computes in full, every time, what is not a plain JSON tree (a Date, a subclass array, a getter)", () => {
    for (const odd of [{ at: new Date(0) }, { stop: Tagged.from(["a"]) }, fickle()]) {
      const model = {};
      rememberedParams(model, { stop: ["a"] });
      const before = paramsMemoCounts.computed;
      expect(rememberedParams(model, odd as Record<string, unknown>)).to.deep.equal(canonicalParams(odd as Record<string, unknown>));
      expect(paramsMemoCounts.computed - before).to.equal(1);
    }
    const model = {};
    rememberedParams(model, { stop: ["a"] });
    expect(rememberedParams(model, { stop: Tagged.from(["a"]) })).to.deep.equal(canonicalParams({ stop: Tagged.from(["a"]) }));
  });
});
