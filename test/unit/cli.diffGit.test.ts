/**
 * `langchain-vcr diff` reading the base from git, in process (src/, not dist/), in a temporary
 * repository: a directory name git would read as pathspec magic, and symlinked fixtures.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { main } from "../../src/cli/main";
import { ROOT } from "../helpers/built";
import { git } from "../helpers/git";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

const [A, B] = fs
  .readdirSync(path.join(ROOT, "cassettes"))
  .filter((n) => /^[0-9a-f]{64}\.json$/.test(n))
  .sort();

function copyFixture(name: string, toDir: string): void {
  fs.mkdirSync(toDir, { recursive: true });
  fs.copyFileSync(path.join(ROOT, "cassettes", name), path.join(toDir, name));
}

async function diffJson(cwd: string, dir: string): Promise<{ code: number; report: Record<string, unknown[]>; err: string }> {
  let out = "";
  let err = "";
  const code = await main(["diff", dir, "--format", "json"], { cwd, env: {}, out: (t) => (out += t), err: (t) => (err += t) });
  return { code, report: out ? JSON.parse(out) : {}, err };
}

const nothing = { changed: [], added: [], addedEdits: [], removed: [], rerecorded: [], damaged: [] };

describe("cli: diff reads the base from git", () => {
  afterEach(removeTmpDirs);

  it("reads a directory named ':odd' at the base as itself, not as pathspec magic for 'odd'", async () => {
    const repo = tmpDir("vcr-diffgit-");
    git(repo, "init", "-q");
    copyFixture(A, path.join(repo, "odd"));
    copyFixture(B, path.join(repo, ":odd"));
    git(repo, "add", "-A");
    git(repo, "commit", "-qm", "base");
    const r = await diffJson(repo, ":odd");
    expect(r.err).to.equal("");
    expect(r.code).to.equal(0);
    expect(r.report).to.deep.equal(nothing);
  });

  /** A repository whose cassettes/ holds a symbolic link to shared/<A>, committed when `commitTarget`. */
  function linkedRepo(commitTarget: boolean): string {
    const repo = tmpDir("vcr-diffgit-");
    git(repo, "init", "-q");
    copyFixture(A, path.join(repo, "shared"));
    fs.mkdirSync(path.join(repo, "cassettes"));
    fs.symlinkSync(path.join("..", "shared", A), path.join(repo, "cassettes", A));
    git(repo, "add", ...(commitTarget ? ["-A"] : ["cassettes"]));
    git(repo, "commit", "-qm", "base");
    return repo;
  }

  it("reads a committed, unchanged symlinked fixture at the base through its link: nothing changed", async () => {
    const r = await diffJson(linkedRepo(true), "cassettes");
    expect(r.err).to.equal("");
    expect(r.code).to.equal(0);
    expect(r.report).to.deep.equal(nothing);
  });

  it("says a symlinked fixture whose target the base lacks is a link it cannot follow there, not invalid JSON", async () => {
    const r = await diffJson(linkedRepo(false), "cassettes");
    expect(r.code).to.equal(0);
    expect(r.report.damaged).to.deep.equal([
      {
        file: `cassettes/${A}`,
        side: "base",
        problem: `is a symbolic link to ../shared/${A}, which HEAD does not have (shared/${A} is not a file there), so the base cannot be read`,
      },
    ]);
  });
});
