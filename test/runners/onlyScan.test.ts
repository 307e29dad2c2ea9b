/** Which test sources count as focusing tests with `.only` (vitest and jest cannot tell it from `.skip`), and as skipping some. */
import { expect } from "chai";
import { sourceUsesOnly } from "../../src/runner/onlyScan";
import { sourceSkips } from "../../src/runner/skipScan";

describe("sourceUsesOnly", () => {
  it("finds the focusing forms of vitest, jest and mocha", () => {
    for (const src of [
      `test.only("a", f)`,
      `it.only("a", f)`,
      `describe.only("s", f)`,
      `test.concurrent.only("a", f)`,
      `test.only.each([1])("a", f)`,
      `fit("a", f)`,
      `fdescribe("s", f)`,
      `suite.only("s", f)`,
    ]) {
      expect(sourceUsesOnly(src), src).to.equal(true);
    }
  });
  it("leaves plain and skipped tests alone", () => {
    for (const src of [`test("a", f)`, `test.skip("a", f)`, `latest.only = 1`, `const onlyOne = test("only", f)`, `it.concurrent("a", f)`]) {
      expect(sourceUsesOnly(src), src).to.equal(false);
    }
  });
});

describe("sourceSkips (prune's note on a skipped test's fixtures)", () => {
  it("finds the skipping forms of mocha, vitest, jest and node:test", () => {
    for (const src of [
      `it.skip("a", f)`,
      `test.skip("a", f)`,
      `describe.skip("s", f)`,
      `test.concurrent.skip("a", f)`,
      `test.skipIf(process.env.X)("a", f)`,
      `test.todo("a")`,
      `xit("a", f)`,
      `xdescribe("s", f)`,
      `it("a", function () { this.skip(); })`,
      `test("a", { skip: true }, f)`,
      `test("a", (t) => { t.skip(); })`,
    ]) {
      expect(sourceSkips(src), src).to.equal(true);
    }
  });
  it("leaves plain tests alone", () => {
    for (const src of [`test("a", f)`, `it("skips nothing", f)`, `const skipped = 0`, `exit(1)`, `list.skipWhile(x)`]) {
      expect(sourceSkips(src), src).to.equal(false);
    }
  });
});
