/** LangSmith's ls.test titles ("<name>, test_id=<random hex>"): the filter leaves the id open, the ledger drops it. */
import { expect } from "chai";
import { rerecordCommand } from "../../src/diagnose/rerecordCommand";
import { filterTitleOf, stableTitle } from "../../src/diagnose/runIdTitle";

describe("titles with LangSmith's per-run test id", () => {
  it("the runner's filter keeps the delimiter and drops the id; the ledger's name drops both", () => {
    expect(filterTitleOf("ls suite greets, item 1, test_id=86089e697d734")).to.equal("ls suite greets, item 1, test_id=");
    expect(stableTitle("ls suite greets, item 1, test_id=86089e697d734")).to.equal("ls suite greets, item 1");
  });

  it("any other title is left as it is, an id-like text before the end too", () => {
    for (const t of ["chat asks", "a, test_id=xyz", "a, test_id=deadbeef", "a, test_id=86089e697d734 then more", "test_id=86089e697d734"]) {
      expect(filterTitleOf(t)).to.equal(t);
      expect(stableTitle(t)).to.equal(t);
    }
  });

  it("a miss's command under vitest and jest names the title with the id left open", () => {
    const title = "ls suite asks (v2), test_id=0b4afd13915f4";
    expect(rerecordCommand("vitest", title)).to.match(/ vitest run -t 'ls suite asks \\\(v2\\\), test_id='$/);
    expect(rerecordCommand("jest", title)).to.match(/ jest -t 'ls suite asks \\\(v2\\\), test_id='$/);
  });
});
