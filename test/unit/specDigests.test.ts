/** What prune compares of a run's test files: their digests (line endings aside) and the test-named files beside them. */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { addedSpecFiles, changedSpecFiles, digestSpecFiles, specSiblings } from "../../src/runner/specDigests";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("spec digests and siblings", () => {
  afterEach(removeTmpDirs);

  it("a test file checked out with CRLF line endings is the same file; an edit is a change; a deleted file is none", () => {
    const root = tmpDir("vcr-digests-");
    fs.mkdirSync(path.join(root, "test"));
    fs.writeFileSync(path.join(root, "test/a.test.ts"), 'it("a", () => {});\nit("b", () => {});\n');
    fs.writeFileSync(path.join(root, "test/b.test.ts"), 'it("c", () => {});\n');
    const record = { specDigests: digestSpecFiles(root, ["test/a.test.ts", "test/b.test.ts"]) };
    fs.writeFileSync(path.join(root, "test/a.test.ts"), 'it("a", () => {});\r\nit("b", () => {});\r\n');
    expect(changedSpecFiles([record], root)).to.deep.equal([]);
    fs.appendFileSync(path.join(root, "test/a.test.ts"), 'it("d", () => {});\r\n');
    fs.rmSync(path.join(root, "test/b.test.ts"));
    expect(changedSpecFiles([record], root)).to.deep.equal(["test/a.test.ts"]);
  });

  it("siblings: the test-named files beside the run's own, excluded ones included; one added later is reported, another name is not", () => {
    const root = tmpDir("vcr-siblings-");
    fs.mkdirSync(path.join(root, "test"));
    for (const f of ["a.spec.ts", "excluded.spec.ts", "helpers.ts"]) fs.writeFileSync(path.join(root, "test", f), "");
    const record = { specFiles: ["test/a.spec.ts"], specSiblings: specSiblings(root, ["test/a.spec.ts"]) };
    expect(record.specSiblings).to.deep.equal(["test/a.spec.ts", "test/excluded.spec.ts"]);
    expect(addedSpecFiles([record], root)).to.deep.equal([]);
    fs.writeFileSync(path.join(root, "test/new.spec.ts"), "");
    fs.writeFileSync(path.join(root, "test/more-helpers.ts"), "");
    expect(addedSpecFiles([record], root)).to.deep.equal(["test/new.spec.ts"]);
    // a ledger of an older version has no siblings: nothing to compare with
    expect(addedSpecFiles([{ specFiles: ["test/a.spec.ts"] }], root)).to.deep.equal([]);
  });
});
