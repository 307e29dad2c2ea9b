/** The summary's note on fixtures a run used that git does not track (trial 58 M1). */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { uncommittedNote } from "../../src/runner/uncommitted";
import { git } from "../helpers/git";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("uncommittedNote", () => {
  after(removeTmpDirs);
  const H = (c: string) => c.repeat(64);

  it("names the used fixtures git lists as untracked (not a committed one, a staged one, one that is gone, nor one ignored), from the working directory", () => {
    const repo = tmpDir();
    git(repo, "init", "-q");
    const dir = path.join(repo, "cassettes");
    fs.mkdirSync(dir);
    const file = (c: string) => path.join(dir, `${H(c)}.json`);
    for (const c of "abc") fs.writeFileSync(file(c), "{}\n");
    git(repo, "add", file("a"));
    git(repo, "commit", "-qm", "a");
    git(repo, "add", file("c")); // staged: the next commit has it
    const cwd = process.cwd();
    process.chdir(repo);
    try {
      expect(uncommittedNote([file("a"), file("b"), file("c"), file("d")])).to.equal(
        `langchain-vcr: 1 fixture this run used is not committed to git: cassettes/${H("b")}.json. ` +
          `A clean checkout (CI's) does not have it, so its test misses there: commit it with the tests (git add cassettes).`,
      );
      fs.writeFileSync(file("e"), "{}\n");
      expect(uncommittedNote([file("b"), file("e")]))
        .to.include("2 fixtures this run used are not committed to git")
        .and.include("so their tests miss there");
      // one ignored on purpose is not nagged about
      fs.writeFileSync(path.join(repo, ".gitignore"), `cassettes/${H("e")}.json\n`);
      expect(uncommittedNote([file("b"), file("e")]))
        .to.include("1 fixture this run used is not committed")
        .and.not.include(H("e"));
      git(repo, "add", "-A");
      expect(uncommittedNote([file("a"), file("b"), file("e")])).to.equal(undefined);
    } finally {
      process.chdir(cwd);
    }
  });

  it("outside a git work tree: nothing (nothing is known)", () => {
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, `${H("a")}.json`), "{}\n");
    expect(uncommittedNote([path.join(dir, `${H("a")}.json`)])).to.equal(undefined);
  });
});
