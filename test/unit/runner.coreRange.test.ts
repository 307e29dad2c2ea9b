import { expect } from "chai";
import { coreRangeWarning } from "../../src/runner/coreRange";

describe("coreRangeWarning: the mocha plugin's early word on an installed @langchain/core outside the supported range", () => {
  const range = ">=1.2.0 <2";
  it("inside the range (its floor, a later minor, a prerelease of a later patch): nothing", () => {
    for (const v of ["1.2.0", "1.4.0", "1.10.3", "1.2.1-rc.0"]) expect(coreRangeWarning(v, range), v).to.equal(undefined);
  });
  it("below the floor or at the next major: the version, the range, what new Vcr() does, how mocha may hide it, the fix", () => {
    for (const v of ["0.3.80", "1.1.42", "2.0.0"]) {
      const w = coreRangeWarning(v, range)!;
      expect(w, v).to.include(`@langchain/core ${v} is installed, and langchain-vcr supports @langchain/core >=1.2.0 <2.`);
      expect(w).to.include("ERR_UNKNOWN_FILE_EXTENSION").and.include(`npm install @langchain/core@">=1.2.0 <2"`);
    }
  });
  it("a version or a range it cannot read: nothing (new Vcr() decides by what it finds)", () => {
    expect(coreRangeWarning(undefined, range)).to.equal(undefined);
    expect(coreRangeWarning("latest", range)).to.equal(undefined);
    expect(coreRangeWarning("0.3.0", "^1.2.0")).to.equal(undefined);
  });
});
