/** Where a run's ledger paths are relative to, as a reader elsewhere in the work tree finds it (`src/runner/runRoot.ts`). */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { rootInRepo, runRootOf } from "../../src/runner/runRoot";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("runRoot: a ledger's root in its git work tree", () => {
  after(removeTmpDirs);

  it("is written as the root's place under the work tree's top (a .git directory or a worktree's .git file), and read back from anywhere in it", () => {
    for (const dotGitIsFile of [false, true]) {
      const top = tmpDir("vcr-runroot-");
      if (dotGitIsFile) fs.writeFileSync(path.join(top, ".git"), "gitdir: /elsewhere/.git/worktrees/x\n");
      else fs.mkdirSync(path.join(top, ".git"));
      const pkg = path.join(top, "packages", "api");
      fs.mkdirSync(pkg, { recursive: true });
      expect(rootInRepo(pkg)).to.deep.equal({ rootInRepo: "packages/api" });
      expect(rootInRepo(top)).to.deep.equal({ rootInRepo: "" });
      expect(runRootOf([{}, { rootInRepo: "packages/api" }], top)).to.equal(pkg);
      expect(runRootOf([{ rootInRepo: "" }], pkg)).to.equal(top);
    }
  });

  it("is the reader's own root for a ledger without it (older versions), outside a work tree, or with a place that leaves the work tree", () => {
    const top = tmpDir("vcr-runroot-");
    fs.mkdirSync(path.join(top, ".git"));
    expect(runRootOf([{ rootInRepo: undefined }], top)).to.equal(top);
    expect(runRootOf([{ rootInRepo: "../other" }], top)).to.equal(top);
    expect(runRootOf([{ rootInRepo: "/abs/path" }], top)).to.equal(top);
    expect(runRootOf([{ rootInRepo: 7 }], top)).to.equal(top);
    const outside = path.parse(process.cwd()).root; // the file system's root: no .git above it
    if (!fs.existsSync(path.join(outside, ".git"))) {
      expect(rootInRepo(outside)).to.deep.equal({});
      expect(runRootOf([{ rootInRepo: "packages/api" }], outside)).to.equal(outside);
    }
  });
});
