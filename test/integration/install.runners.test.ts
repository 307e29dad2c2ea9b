/**
 * `vcr.install()` turned on from each runner's setup file, as docs/zero-touch.md says (mocha
 * `require`, vitest `setupFiles`, jest `setupFilesAfterEnv`, node:test `--require`): a tiny
 * consumer project per runner, two test files each, records chat, embeddings and tool
 * fixtures, then replays them in a new run with the fake stopped — 0 requests, 0 tool runs.
 * The projects live under node_modules/.cache (so they resolve this repository's LangChain
 * packages) and use the built package (`npm run build`; npm test builds first).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { builtBin, ROOT } from "../helpers/built";
import { runChild } from "../helpers/child";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { PROJECTS, writeProject } from "./scripts/installRunners";

const PROJECTS_DIR = path.join(ROOT, "node_modules/.cache/langchain-vcr-install-runners");

describe("vcr.install() from each runner's setup file", function () {
  this.timeout(240000);
  let fake: FakeProvider | undefined;
  before(() => builtBin());
  afterEach(async () => {
    await fake?.close();
    removeTmpDirs();
  });
  after(() => fs.rmSync(PROJECTS_DIR, { recursive: true, force: true }));

  for (const project of PROJECTS) {
    it(`${project.runner}: two test files record chat, embeddings and tools, then replay with the fake stopped`, async () => {
      const dir = path.join(PROJECTS_DIR, project.runner.replace(/\W+/g, "-"));
      fs.rmSync(dir, { recursive: true, force: true });
      writeProject(project, dir, ROOT);
      const fixtures = tmpDir();
      fake = await startFakeProvider();
      const url = fake.openaiBaseURL;
      const run = (mode: string) =>
        runChild(process.execPath, project.command(ROOT), {
          cwd: dir,
          env: { ...process.env, FIXTURE_DIR: fixtures, FAKE_URL: url, LANGCHAIN_VCR_MODE: mode, LANGCHAIN_VCR_QUIET: "1", NODE_OPTIONS: "" },
          timeoutMs: 120000,
        });
      const results = (out: { stdout: string; stderr: string }) =>
        [...(out.stdout + out.stderr).matchAll(/RESULT (\w+) (.+) (\d+)/g)].map((m) => m.slice(1)).sort();

      const rec = await run("record_or_replay");
      expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
      // jest's require cannot load core's ES modules, nor (without VM modules) can it import() a provider: nothing to note
      expect(rec.stderr).to.not.include("could not load the ESM copy");
      expect(results(rec)).to.deep.equal([
        ["first", "echo: hello from first", "1"],
        ["second", "echo: hello from second", "1"],
      ]);
      expect(fake.count()).to.equal(4);
      expect(
        readFixtures(fixtures)
          .map((f) => f.kind)
          .sort(),
      ).to.deep.equal(["chat", "chat", "embedding", "embedding", "tool", "tool"]);

      await fake.close();
      fake = undefined;
      const replay = await run("replay_only");
      expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
      expect(results(replay)).to.deep.equal([
        ["first", "echo: hello from first", "0"],
        ["second", "echo: hello from second", "0"],
      ]);
      expect(readFixtures(fixtures)).to.have.length(6);
    });
  }
});
