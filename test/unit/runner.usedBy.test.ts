import { expect } from "chai";
import { addUse, fromRecord, testsUsing, toRecord, type UsedBy } from "../../src/runner/usedBy";

describe("which tests used a fixture (runner/usedBy.ts)", () => {
  it("keeps two tests of the same title in different test files apart, every level sorted", () => {
    const u: UsedBy = new Map();
    addUse(u, "/p/cassettes/b.json", "/p/test/shipping.spec.ts", "checkout works");
    addUse(u, "/p/cassettes/a.json", "/p/test/billing.spec.ts", "checkout works");
    addUse(u, "/p/cassettes/a.json", "/p/test/billing.spec.ts", "checkout refunds");
    addUse(u, "/p/cassettes/a.json", "/p/test/billing.spec.ts", "checkout works");
    const rel = (f: string) => f.replace("/p/", "");
    const record = toRecord(u, rel, rel);
    expect(JSON.stringify(record)).to.equal(
      JSON.stringify({
        "cassettes/a.json": { "test/billing.spec.ts": ["checkout refunds", "checkout works"] },
        "cassettes/b.json": { "test/shipping.spec.ts": ["checkout works"] },
      }),
    );
    expect(testsUsing(fromRecord(record), "cassettes/b.json")).to.deep.equal([{ specFile: "test/shipping.spec.ts", title: "checkout works" }]);
  });

  it("reads the first ledgers' lists of titles as tests of no named file, and skips what is damaged", () => {
    const u = fromRecord({
      "a.json": ["t1", 7, "t0"],
      "b.json": { "test/x.spec.ts": ["t2", null], "test/y.spec.ts": "not a list" },
      "c.json": null,
    });
    expect(toRecord(u)).to.deep.equal({ "a.json": { "": ["t0", "t1"] }, "b.json": { "test/x.spec.ts": ["t2"] } });
    expect(fromRecord("garbage").size).to.equal(0);
  });

  it("two paths that map to one (a file seen absolute and relative) merge; a '__proto__' title or file is data", () => {
    const u: UsedBy = new Map();
    addUse(u, "/p/c/a.json", "test/x.spec.ts", "t1");
    addUse(u, "c/a.json", "/p/test/x.spec.ts", "t2");
    addUse(u, "__proto__", "__proto__", "__proto__");
    const rel = (f: string) => f.replace("/p/", "");
    const record = toRecord(u, rel, rel);
    expect(Object.keys(record)).to.deep.equal(["__proto__", "c/a.json"]);
    expect(record["c/a.json"]).to.deep.equal({ "test/x.spec.ts": ["t1", "t2"] });
    expect(Object.getPrototypeOf(record)).to.equal(Object.prototype);
    expect(testsUsing(fromRecord(JSON.parse(JSON.stringify(record))), "__proto__")).to.deep.equal([{ specFile: "__proto__", title: "__proto__" }]);
  });
});
