import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { restoreFailedTest } from "../../src/runner/cleanup";
import { Scope } from "../../src/scope";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("restoreFailedTest: what a failed test's clean-up takes back", () => {
  after(removeTmpDirs);

  it("counts recordings, not files: a file the test wrote twice is two recordings undone", () => {
    const dir = tmpDir("vcr-cleanup-");
    const file = path.join(dir, "a".repeat(64) + ".json");
    fs.writeFileSync(file, "{}");
    const scope = new Scope("fails after recording one request twice");
    scope.created.add(file);
    scope.tally.recorded = 2; // record_always: written, then written again
    const r = restoreFailedTest(scope);
    expect(r).to.deep.equal({ removed: [file], restored: [], undone: 2 });
    expect(fs.existsSync(file)).to.equal(false);
  });
});
