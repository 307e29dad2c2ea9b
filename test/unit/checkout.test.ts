/** The git checkout a run's ledger records (`src/runner/checkout.ts`), read from git's own files: a loose ref, a packed one, a worktree's, a detached HEAD. */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { checkoutOf } from "../../src/runner/checkout";
import { git } from "../helpers/git";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("the checkout a run ran on", () => {
  afterEach(() => removeTmpDirs());

  it("is HEAD's commit and branch, as git says, from a subdirectory, with the ref loose or packed, in a worktree, and detached", () => {
    const repo = tmpDir("vcr-checkout-");
    git(repo, "init", "-q", "-b", "main");
    fs.mkdirSync(path.join(repo, "packages/app"), { recursive: true });
    fs.writeFileSync(path.join(repo, "packages/app/a.txt"), "a\n");
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "one");
    const head = () => git(repo, "rev-parse", "HEAD").trim();
    expect(checkoutOf(path.join(repo, "packages/app"))).to.deep.equal({ head: head(), branch: "main" });
    git(repo, "pack-refs", "--all");
    expect(fs.existsSync(path.join(repo, ".git/refs/heads/main"))).to.equal(false);
    expect(checkoutOf(repo)).to.deep.equal({ head: head(), branch: "main" });
    const wt = path.join(tmpDir("vcr-checkout-wt-"), "wt");
    git(repo, "worktree", "add", "-q", "-b", "side", wt);
    fs.writeFileSync(path.join(wt, "b.txt"), "b\n");
    git(wt, "add", "-A");
    git(wt, "commit", "-qm", "two");
    expect(checkoutOf(wt)).to.deep.equal({ head: git(wt, "rev-parse", "HEAD").trim(), branch: "side" });
    git(repo, "checkout", "-q", "--detach");
    expect(checkoutOf(repo)).to.deep.equal({ head: head() });
    expect(checkoutOf(tmpDir("vcr-checkout-none-")), "no work tree").to.equal(undefined);
  });

  it("is undefined on a branch with no commit yet", () => {
    const repo = tmpDir("vcr-checkout-");
    git(repo, "init", "-q", "-b", "main");
    expect(checkoutOf(repo)).to.equal(undefined);
  });
});
