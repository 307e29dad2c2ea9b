/** Which test sources count as focusing tests with `.only` (vitest and jest cannot tell it from `.skip`). */
import { expect } from "chai";
import { sourceUsesOnly } from "../../src/runner/onlyScan";

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
