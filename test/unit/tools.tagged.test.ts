import { expect } from "chai";
import fc from "fast-check";
import "../helpers/propertySeed";
import { AIMessage, HumanMessage, RemoveMessage, ToolMessage } from "@langchain/core/messages";
import { formatFixture } from "../../src/store/format";
import { UnrecordableValue, fromTagged, toTagged } from "../../src/adapters/tools/tagged";

/** What a fixture does to a value: tagged, pretty-printed with sorted keys, parsed, decoded. */
function throughFixture(value: unknown): unknown {
  const text = formatFixture({ response: { result: toTagged(value) } });
  return fromTagged((JSON.parse(text) as { response: { result: unknown } }).response.result);
}

function unrecordable(value: unknown): UnrecordableValue {
  try {
    toTagged(value, { path: "result" });
  } catch (e) {
    expect(e).to.be.instanceOf(UnrecordableValue);
    return e as UnrecordableValue;
  }
  throw new Error("expected toTagged to throw");
}

/** Values tagged serialization promises to replay: JSON plus Date, bigint, Map, Set, undefined, NaN/±Infinity/-0. */
const supported: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small" },
    fc.string(),
    fc.double(), // includes NaN, ±Infinity, -0
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.bigInt(),
    fc.date(), // includes invalid dates
    fc.array(tie("value"), { maxLength: 4 }),
    // keys named like Object.prototype members ("toString", "valueOf") are left out: chai's deep
    // equal converts Set/Map entries to strings to sort them and throws on such objects (a
    // flaky failure of the assertion library, not of the serialization)
    fc.dictionary(
      fc.oneof(
        fc.string().filter((k) => !(k in Object.prototype)),
        fc.constantFrom("$vcr", "__proto__", "0", "10", "2", "b", "a"),
      ),
      tie("value"),
      { maxKeys: 4, noNullPrototype: true },
    ),
    fc.array(fc.tuple(tie("value"), tie("value")), { maxLength: 3 }).map((entries) => new Map(entries)),
    fc.array(tie("value"), { maxLength: 3 }).map((values) => new Set(values)),
  ),
})).value;

describe("tools: tagged serialization", () => {
  it("round-trips every supported value through a written fixture (property, 500 runs)", () => {
    fc.assert(
      fc.property(supported, (v) => {
        expect(throughFixture(v)).to.deep.equal(v);
      }),
      { numRuns: Number(process.env.VCR_PROPERTY_RUNS ?? 500) },
    );
  });

  it("keeps JSON.stringify output identical after a sorted-key fixture, for any key order (property, 300 runs)", () => {
    const jsonish = fc.jsonValue();
    fc.assert(
      fc.property(jsonish, (v) => {
        expect(JSON.stringify(throughFixture(v))).to.equal(JSON.stringify(v));
      }),
      { numRuns: 300 },
    );
  });

  it("leaves plain JSON with sorted keys untouched (readable fixtures)", () => {
    const v = { a: 1, b: ["x", { c: null, d: true }], e: "text" };
    expect(toTagged(v)).to.deep.equal(v);
  });

  it("tags each non-JSON value with a readable form", () => {
    expect(toTagged(undefined)).to.deep.equal({ $vcr: "undefined" });
    expect(toTagged(NaN)).to.deep.equal({ $vcr: "number", value: "NaN" });
    expect(toTagged(-Infinity)).to.deep.equal({ $vcr: "number", value: "-Infinity" });
    expect(toTagged(-0)).to.deep.equal({ $vcr: "number", value: "-0" });
    expect(toTagged(10n ** 30n)).to.deep.equal({ $vcr: "bigint", value: "1000000000000000000000000000000" });
    expect(toTagged(new Date("2024-05-06T07:08:09.010Z"))).to.deep.equal({ $vcr: "Date", value: "2024-05-06T07:08:09.010Z" });
    expect(toTagged(new Date(NaN))).to.deep.equal({ $vcr: "Date", value: null });
    expect(toTagged(new Map([["k", 1n]]))).to.deep.equal({ $vcr: "Map", entries: [["k", { $vcr: "bigint", value: "1" }]] });
    expect(toTagged(new Set([1, "a"]))).to.deep.equal({ $vcr: "Set", values: [1, "a"] });
    expect(toTagged({ $vcr: "Date", value: "not a tag" })).to.deep.equal({ $vcr: "object", value: { $vcr: "Date", value: "not a tag" } });
    expect(toTagged({ status: "shipped", at: 1 })).to.deep.equal({ $vcr: "object", value: { status: "shipped", at: 1 }, keys: ["status", "at"] });
  });

  it("round-trips nested values: Date in an array in a Map in an object, undefined members, array holes", () => {
    // eslint-disable-next-line no-sparse-arrays
    const v = { a: undefined, m: new Map<unknown, unknown>([[new Date(0), [1n, undefined, NaN]]]), s: new Set([{ x: -0 }]), h: [, 1] };
    const back = throughFixture(v) as typeof v;
    expect(back).to.deep.equal({ ...v, h: [undefined, 1] });
    expect(Object.keys(back)).to.deep.equal(["a", "m", "s", "h"]);
    expect([...back.m.keys()][0]).to.be.instanceOf(Date);
  });

  it("replays a null-prototype object as a plain object with the same members", () => {
    const v = Object.assign(Object.create(null) as Record<string, unknown>, { b: 1, a: 2 });
    const back = throughFixture(v) as Record<string, unknown>;
    expect(Object.getPrototypeOf(back)).to.equal(Object.prototype);
    expect(Object.entries(back)).to.deep.equal([
      ["b", 1],
      ["a", 2],
    ]);
  });

  it("key mode drops undefined members and ignores key order", () => {
    expect(toTagged({ b: 1, a: undefined, c: 2n }, { forKey: true })).to.deep.equal({ b: 1, c: { $vcr: "bigint", value: "2" } });
    expect(JSON.stringify(toTagged({ b: 1, a: 2 }, { forKey: true }))).to.equal('{"b":1,"a":2}'); // sorting is canonicalJson's job
  });

  describe("refuses what cannot replay faithfully, naming the path", () => {
    class Money {
      constructor(readonly cents: number) {}
    }
    const cases: [string, () => unknown, string, string][] = [
      ["a function", () => ({ ok: true, cb: () => 1 }), "result.cb", "a function"],
      ["a symbol", () => [1, Symbol("s")], "result[1]", "a symbol"],
      ["a class instance", () => ({ items: [{ price: new Money(5) }] }), "result.items[0].price", "an instance of Money"],
      ["a RegExp", () => ({ re: /x/ }), "result.re", "an instance of RegExp"],
      ["a Buffer", () => ({ "odd key": Buffer.from("x") }), 'result["odd key"]', "an instance of Buffer"],
      ["a Promise", () => ({ p: Promise.resolve(1) }), "result.p", "an instance of Promise"],
      ["a value in a Map", () => new Map([["k", () => 1]]), 'result.get("k")', "a function"],
      ["an async generator", () => ({ g: (async function* () {})() }), "result.g", "an instance of AsyncGenerator"],
      ["symbol keys", () => ({ [Symbol("k")]: 1 }), "result", "an object with symbol-keyed properties"],
      ["an array with extra properties", () => Object.assign([1], { extra: 2 }), "result", 'an array with a non-index property "extra"'],
    ];
    for (const [title, make, path, what] of cases) {
      it(title, () => {
        const e = unrecordable(make());
        expect(e.path).to.equal(path);
        expect(e.what).to.include(what);
      });
    }

    it("a cycle (and says where it loops back to)", () => {
      const a: Record<string, unknown> = { list: [] };
      (a.list as unknown[]).push({ parent: a });
      const e = unrecordable(a);
      expect(e.path).to.equal("result.list[0].parent");
      expect(e.what).to.equal("a cyclic reference (back to result)");
    });

    it("but a shared (non-cyclic) reference is fine", () => {
      const shared = { n: 1 };
      expect(throughFixture({ a: shared, b: shared })).to.deep.equal({ a: { n: 1 }, b: { n: 1 } });
    });
  });

  describe("LangChain messages (a LangGraph Command's update holds them)", () => {
    it("come back as messages of their class and fields; a ToolMessage answering the recorded call takes the replayed call's id", () => {
      const value = {
        messages: [
          new ToolMessage({ content: "done", tool_call_id: "call_rec", name: "write_todos" }),
          new ToolMessage({ content: "other", tool_call_id: "call_other" }),
          new AIMessage({ content: "", tool_calls: [{ name: "lookup", args: { q: "x" }, id: "call_9", type: "tool_call" }] }),
        ],
      };
      const text = formatFixture({ response: { result: toTagged(value, { currentCallId: "call_rec" }) } });
      expect(text).to.not.include("call_rec");
      expect(text).to.include('"toolCall": "current"');
      const back = fromTagged(JSON.parse(text).response.result, { currentCallId: "call_replay" }) as { messages: [ToolMessage, ToolMessage, AIMessage] };
      expect(back.messages.map((m) => m.constructor.name)).to.deep.equal(["ToolMessage", "ToolMessage", "AIMessage"]);
      expect([back.messages[0].tool_call_id, back.messages[0].name, back.messages[0].content]).to.deep.equal(["call_replay", "write_todos", "done"]);
      expect(back.messages[1].tool_call_id).to.equal("call_other");
      expect(back.messages[2].tool_calls).to.deep.equal((value.messages[2] as AIMessage).tool_calls);
    });

    it("a RemoveMessage (a Command's update removing a message) comes back as one; a message type replay could not rebuild is refused when recording", () => {
      const back = throughFixture({ messages: [new RemoveMessage({ id: "m1" })] }) as { messages: RemoveMessage[] };
      expect([back.messages[0].constructor.name, back.messages[0].id, back.messages[0].getType()]).to.deep.equal(["RemoveMessage", "m1", "remove"]);
      class OddMessage extends HumanMessage {
        override getType() {
          return "odd" as "human";
        }
      }
      const e = unrecordable({ messages: [new OddMessage("x")] });
      expect([e.path, e.what]).to.deep.equal(["result.messages[0]", 'a OddMessage of type "odd", which replay could not rebuild']);
    });

    it("are not part of a request key: a message in tool arguments stays a class instance that cannot be keyed", () => {
      expect(() => toTagged({ m: new ToolMessage({ content: "x", tool_call_id: "1" }) }, { path: "args", forKey: true })).to.throw(UnrecordableValue);
    });

    it("a malformed message tag is refused when reading", () => {
      expect(() => fromTagged({ $vcr: "message", type: "tool", data: [] })).to.throw(/malformed "message" tag/);
      expect(() => fromTagged({ $vcr: "message", type: "odd", data: {} })).to.throw(/type "odd" \(this fixture may come from a newer langchain-vcr\)/);
    });
  });

  it("rejects unknown or malformed tags when reading (never a silently different value)", () => {
    expect(() => fromTagged({ $vcr: "Temporal" })).to.throw(/unknown tag "Temporal"/);
    expect(() => fromTagged({ $vcr: "number", value: "42" })).to.throw(/malformed "number" tag/);
    expect(() => fromTagged({ $vcr: "bigint", value: 1 })).to.throw(/malformed bigint tag/);
    expect(() => fromTagged({ $vcr: "object", value: {}, keys: ["a"] })).to.throw(/key "a" has no value/);
  });
});
