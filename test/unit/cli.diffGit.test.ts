/**
 * `langchain-vcr diff` reading the base from git, in process (src/, not dist/), in a temporary
 * repository: a directory name git would read as pathspec magic.
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

const nothing = { changed: [], added: [], removed: [], rerecorded: [], damaged: [] };

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
});
