/** Members that held undefined: named by JSON pointers when recorded, put back on replay. */
import { expect } from "chai";
import { restoreUndefined, undefinedPointers } from "../../src/store/undefinedMembers";

describe("undefined members: JSON pointers out, undefined members back", () => {
  it("names object members and array elements at any depth, escaping ~ and / (RFC 6901)", () => {
    const value = { a: undefined, b: { c: undefined, d: 1, "x/y~z": undefined }, e: [1, undefined, { f: undefined }], g: null };
    expect(undefinedPointers(value, "/m")).to.deep.equal(["/m/a", "/m/b/c", "/m/b/x~1y~0z", "/m/e/1", "/m/e/2/f"]);
    expect(undefinedPointers(undefined, "/m")).to.deep.equal([]);
    expect(undefinedPointers("text", "/m")).to.deep.equal([]);
  });

  it("stops where JSON does: at a value with toJSON, and at a cycle", () => {
    const cyclic: Record<string, unknown> = { a: undefined };
    cyclic.self = cyclic;
    expect(undefinedPointers({ when: new Date(0), c: cyclic }, "")).to.deep.equal(["/c/a"]);
  });

  it("puts back what JSON dropped (a member, an array element written as null), and nothing else", () => {
    const root = JSON.parse(JSON.stringify({ m: { a: undefined, b: { c: undefined, "x/y~z": undefined }, e: [1, undefined, null] } }));
    restoreUndefined(root, ["/m/a", "/m/b/c", "/m/b/x~1y~0z", "/m/e/1", "/m/gone/c", "/m/e/0", 7, "no-slash"]);
    expect(root.m).to.have.own.property("a");
    expect(root.m.b).to.have.own.property("c");
    expect(root.m.b).to.have.own.property("x/y~z");
    expect(root.m.e).to.deep.equal([1, undefined, null]);
    expect(Object.keys(root.m)).to.deep.equal(["b", "e", "a"]);
  });

  it("a member with a value keeps it (a redactor may have written one)", () => {
    const root = { m: { a: "redacted" } };
    restoreUndefined(root, ["/m/a"]);
    expect(root.m.a).to.equal("redacted");
  });

  it("a __proto__ member comes back as the object's own member, and no prototype changes", () => {
    const root = JSON.parse('{"m":{}}');
    restoreUndefined(root, ["/m/__proto__", "/__proto__/polluted"]);
    expect(Object.getOwnPropertyNames(root.m)).to.deep.equal(["__proto__"]);
    expect(Object.getPrototypeOf(root.m)).to.equal(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
    expect(Object.prototype).not.to.have.own.property("polluted");
  });
});
