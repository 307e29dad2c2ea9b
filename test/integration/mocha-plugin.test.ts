import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { builtBin } from "../helpers/built";
import { runChild } from "../helpers/child";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { fixtureFiles, readFixtures } from "../helpers/tmp";

const ROOT = path.join(__dirname, "../..");
const SPEC = path.join(ROOT, "test/plugin-specs/recording.spec.js");
const HOOKS_SPEC = path.join(ROOT, "test/plugin-specs/hooks.spec.js");

function runMocha(env: Record<string, string>, extra: string[] = [], spec = SPEC) {
  builtBin(); // the child loads the built package, as users do
  return runChild(
    process.execPath,
    [path.join(ROOT, "node_modules/mocha/bin/mocha.js"), "--no-config", "--require", path.join(ROOT, "dist/cjs/mocha/index.js"), ...extra, spec],
    { cwd: ROOT, env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true", LANGCHAIN_VCR_MODE: "", CI: "", LANGCHAIN_VCR_QUIET: "1", ...env } },
  );
}

describe("the mocha plugin (run as a child process)", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("removes what a failed test recorded, keeps what a passing test recorded, prints one summary line", async () => {
    const out = await runMocha({ FIXTURE_DIR: dir, FAKE_URL: fake.openaiBaseURL });
    expect(out.status).to.equal(1); // one failing test
    expect(fake.count()).to.equal(3);
    const fixtures = readFixtures(dir);
    expect(fixtures.map((f) => f.request.messages[0].content)).to.deep.equal(["kept question"]);
    expect(out.stderr).to.include(
      'test "a user\'s suite fails after recording" (test/plugin-specs/recording.spec.js) failed: removed 2 fixture(s) it recorded',
    );
    const summary = out.stdout.split("\n").filter((l) => l.startsWith("langchain-vcr: "));
    expect(summary).to.deep.equal([
      `langchain-vcr: 0 replayed, 1 recorded (2 more undone: their tests failed), 0 bypassed, 0 missed — mode record_or_replay (default), fixtures: ${dir}`,
    ]);
  });

  it("cleans up a failed test's recordings under mocha --parallel too (the test runs in a worker)", async () => {
    const out = await runMocha({ FIXTURE_DIR: dir, FAKE_URL: fake.openaiBaseURL }, ["--parallel", "--jobs", "2"]);
    expect(out.status).to.equal(1);
    expect(fake.count()).to.equal(3);
    expect(readFixtures(dir).map((f) => f.request.messages[0].content)).to.deep.equal(["kept question"]);
    expect(out.stdout + out.stderr).to.include("removed 2 fixture(s) it recorded");
    const summary = out.stdout.split("\n").filter((l) => l.startsWith("langchain-vcr: "));
    expect(summary).to.deep.equal([
      `langchain-vcr: 0 replayed, 1 recorded (2 more undone: their tests failed), 0 bypassed, 0 missed — mode record_or_replay (default), fixtures: ${dir}`,
    ]);
  });

  for (const [how, extra, eachHooks] of [
    ["serially (mocha's runner events scope each test: the plugin's root each-hooks are taken off)", [], "0 beforeEach, 0 afterEach"],
    ["under --parallel (a worker: the plugin's root each-hooks scope each test)", ["--parallel", "--jobs", "2"], "1 beforeEach, 1 afterEach"],
  ] as const) {
    it(`${how}: a test's beforeEach and afterEach calls are its own (removed with it when it fails); before/after hook calls are no test's (kept)`, async () => {
      const out = await runMocha({ FIXTURE_DIR: dir, FAKE_URL: fake.openaiBaseURL }, [...extra], HOOKS_SPEC);
      expect(out.status).to.equal(1); // one failing test
      expect(fake.count()).to.equal(9);
      expect(out.stdout).to.include(`root each-hooks: ${eachHooks}`);
      expect(out.stdout + out.stderr).to.include('test "the first suite fails" (test/plugin-specs/hooks.spec.js) failed: removed 3 fixture(s) it recorded');
      const kept = readFixtures(dir).map((f) => f.request.messages[0].content as string);
      expect(kept.sort()).to.deep.equal(
        ["beforeEach of passes", "body of passes", "afterEach of passes", "after of the first suite", "before of the next suite", "body of passes too"].sort(),
      );
    });
  }

  it("the next record_or_replay run re-records exactly the failed test", async () => {
    await runMocha({ FIXTURE_DIR: dir, FAKE_URL: fake.openaiBaseURL });
    fake.reset();
    const out = await runMocha({ FIXTURE_DIR: dir, FAKE_URL: fake.openaiBaseURL });
    expect(fake.count()).to.equal(2); // only the failing test's two calls; the passing one replays
    expect(out.stdout).to.include("1 replayed, 0 recorded (2 more undone: their tests failed)"); // it fails again
  });

  it("restores a fixture that a failed test overwrote under record_always", async () => {
    await runMocha({ FIXTURE_DIR: dir, FAKE_URL: fake.openaiBaseURL });
    const [kept] = fixtureFiles(dir);
    const before = fs.readFileSync(path.join(dir, kept), "utf8");
    // the failing test is the first of this run to ask the kept question (a fixture another test of the run recorded is
    // replayed under record_always, not overwritten): it overwrites the earlier run's fixture, and is rolled back to it
    const out = await runMocha({
      FIXTURE_DIR: dir,
      FAKE_URL: fake.openaiBaseURL,
      LANGCHAIN_VCR_MODE: "record_always",
      OVERWRITE_PROMPT: "kept question",
      SKIP_KEPT: "1",
    });
    expect(out.stderr).to.include("and restored 1 it overwrote");
    const after = fs.readFileSync(path.join(dir, kept), "utf8");
    expect(after).to.equal(before);
    expect(fixtureFiles(dir)).to.deep.equal([kept]);
  });

  it("an invalid LANGCHAIN_VCR_MODE fails the run at start with the valid values", async () => {
    const out = await runMocha({ FIXTURE_DIR: dir, FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "lockdown" });
    expect(out.status).not.to.equal(0);
    expect(out.stdout + out.stderr).to.include("Valid modes are: record_or_replay, replay_only, record_always, bypass.");
    expect(fake.count()).to.equal(0);
  });

  it("CI=true defaults to replay_only: an unrecorded test fails with VcrMissError and calls nothing", async () => {
    const out = await runMocha({ FIXTURE_DIR: dir, FAKE_URL: fake.openaiBaseURL, CI: "true" });
    expect(out.status).not.to.equal(0);
    expect(out.stdout + out.stderr).to.include("mode replay_only never calls the real model");
    expect(fake.count()).to.equal(0);
    expect(fixtureFiles(dir)).to.deep.equal([]);
  });
});
