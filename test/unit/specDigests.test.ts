/** What prune compares of a run's test files: their digests (line endings aside) and the test-named files beside them. */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { addedSpecFiles, changedSpecFiles, digestSpecFiles, specSiblings } from "../../src/runner/specDigests";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";
import { recordRunStart } from "../../src/runner/share";

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

  it("a watch mode's rerun (recordRunStart) digests its test files anew: an edited file's ledger holds the edit (trial 58 L1: the session's first digests, every rerun)", () => {
    const root = tmpDir("vcr-digests-");
    fs.mkdirSync(path.join(root, "test"));
    const file = path.join(root, "test/a.test.ts");
    fs.writeFileSync(file, 'it("a", () => {});\n');
    const first = digestSpecFiles(root, ["test/a.test.ts"]);
    fs.appendFileSync(file, 'it("b", () => {});\n');
    expect(digestSpecFiles(root, ["test/a.test.ts"])).to.deep.equal(first); // within one run: the run's own
    const share = { runner: "vitest", runId: "r1", mainId: "m1", mainPid: process.pid, startedAt: new Date().toISOString(), dir: path.join(root, "run"), root };
    recordRunStart(share);
    const rerun = { specDigests: digestSpecFiles(root, ["test/a.test.ts"]) };
    expect(rerun.specDigests).to.not.deep.equal(first);
    expect(changedSpecFiles([rerun], root)).to.deep.equal([]);
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
