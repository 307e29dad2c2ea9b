/**
 * langchain-vcr/vitest in a user's project (vitest 4 in a child process, ESM test files, the
 * real ChatOpenAI and createAgent against the loopback fake): the parity table of issue 14.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "../helpers/built";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs } from "../helpers/tmp";
import { startHangingServer } from "./helpers/hangingServer";
import { addDeadFixture, FIXTURES, fixturesOf, makeProject, REFUND_ANSWERS, summaryLines, type Project } from "./helpers/project";

const VITEST = path.join(ROOT, "node_modules/vitest/vitest.mjs");

const FILES: Record<string, string> = {
  "vitest.config.mjs": [
    `import langchainVcr from "langchain-vcr/vitest";`,
    `export default { plugins: [langchainVcr()], test: { include: ["test/**/*.test.mjs"], testTimeout: 20000 } };`,
    ``,
  ].join("\n"),
  // two test files, so vitest forks two test processes (and a --shard pair has one each)
  "test/a.test.mjs": [
    `import { describe, test } from "vitest";`,
    `import { askChat, hang } from "../scenario.mjs";`,
    `describe("chat", () => { test("asks", () => askChat("chat asks")); });`,
    `describe("hang", () => { test.skipIf(!process.env.HANG_URL)("times out", () => hang("hang times out"), 1500); });`,
    ``,
  ].join("\n"),
  "test/b.test.mjs": [
    `import { describe, test } from "vitest";`,
    `import { askAgent, lookupTwice } from "../scenario.mjs";`,
    `describe("agent", () => {`,
    `  test("refund once", () => askAgent("agent refund once"));`,
    `  test("refund again", () => askAgent("agent refund again"));`,
    `});`,
    `describe("concurrent", () => {`,
    `  test.concurrent("c1", () => lookupTwice("c1"));`,
    `  test.concurrent("c2", () => lookupTwice("c2"));`,
    `});`,
    ``,
  ].join("\n"),
};

describe("langchain-vcr/vitest (vitest 4 in a child process)", function () {
  this.timeout(240000);
  let fake: FakeProvider;
  let p: Project;
  let recordRun: { stdout: string; stderr: string };
  let keptByFilteredRun: string; // an unused fixture a -t run must not let prune delete
  const vitest = (args: string[], env: NodeJS.ProcessEnv = {}) =>
    p.run([VITEST, "run", ...args], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "replay_only", ...env });

  before(async () => {
    fake = await startFakeProvider({ answers: REFUND_ANSWERS });
    p = makeProject(FILES);
    const out = await vitest([], { LANGCHAIN_VCR_MODE: "record_or_replay" });
    expect(out.status, out.stdout + out.stderr).to.equal(0);
    recordRun = out;
  });
  after(async () => {
    await fake.close();
    removeTmpDirs();
  });

  it("records once: one summary line summed over the forked test files, the agent's refund runs once for two tests, concurrent tests number their own calls", () => {
    const side = p.sideLines();
    expect(side.filter((l) => l.startsWith("refund "))).to.deep.equal(["refund 42 10"]); // two tests, one body run
    expect(fixturesOf(p, "tool", "lookup")).to.have.length(2); // c1 and c2: calls 1 and 2 each, never 3 or 4
    expect(fixturesOf(p, "tool", "issue_refund")).to.have.length(1);
    expect(fake.count()).to.be.greaterThan(0);
    const lines = summaryLines({ status: 0, ...recordRun });
    // the second agent test and the concurrent twin replay what the first recorded
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^langchain-vcr: \d+ replayed, 6 recorded, 0 bypassed, 0 missed — mode record_or_replay \(env LANGCHAIN_VCR_MODE\), fixtures: /);
    expect(lines[0]).to.include(path.join(p.dir, FIXTURES));
    expect(p.fixtures()).to.have.length(6);
  });

  it("replays with the provider gone: 0 requests, 0 tool bodies, one summary line; then prune removes exactly the unused fixture", async () => {
    const before = fake.count();
    fs.writeFileSync(p.side, "");
    const out = await vitest([], { FAKE_URL: "http://127.0.0.1:9/v1" });
    expect(out.status, out.stdout + out.stderr).to.equal(0);
    expect(fake.count()).to.equal(before);
    expect(p.sideLines().filter((l) => !l.startsWith("ran "))).to.deep.equal([]);
    const lines = summaryLines(out);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^langchain-vcr: \d+ replayed, 0 recorded, 0 bypassed, 0 missed — mode replay_only \(env LANGCHAIN_VCR_MODE\)/);
    const kept = p.fixtures();
    const dead = addDeadFixture(p, "vitest full run");
    const prune = await p.cli(["prune", FIXTURES]);
    expect(prune.status, prune.stderr).to.equal(0);
    expect(prune.stdout).to.include(`removed 1 of ${kept.length + 1} fixture(s)`);
    expect(p.fixtures()).to.deep.equal(kept);
    expect(p.fixtures()).to.not.include(dead);
  });

  it("a -t run makes prune refuse and keep every fixture", async () => {
    const out = await vitest(["-t", "chat"]);
    expect(out.status, out.stdout + out.stderr).to.equal(0);
    keptByFilteredRun = addDeadFixture(p, "vitest -t");
    const all = p.fixtures();
    const prune = await p.cli(["prune", FIXTURES]);
    expect(prune.status).to.equal(1);
    expect(prune.stderr).to.include("-t").and.include("prune refused");
    expect(p.fixtures()).to.deep.equal(all);
  });

  it("a --shard pair sharing LANGCHAIN_VCR_RUN_ID counts as one complete run: prune removes exactly the unused fixture", async () => {
    const runId = `shards-${Date.now()}`;
    for (const shard of ["1/2", "2/2"]) {
      const out = await vitest([`--shard=${shard}`], { LANGCHAIN_VCR_RUN_ID: runId });
      expect(out.status, out.stdout + out.stderr).to.equal(0);
    }
    const used = p.fixtures().filter((f) => f !== keptByFilteredRun);
    const prune = await p.cli(["prune", FIXTURES]);
    expect(prune.status, prune.stderr).to.equal(0);
    expect(prune.stdout).to.include("2 shard(s)").and.include(`removed 1 of ${used.length + 1}`);
    expect(p.fixtures()).to.deep.equal(used);
  });

  it("a failed test's recording is removed and what it overwrote is restored byte for byte", async () => {
    const before = new Map(p.fixtures().map((f) => [f, fs.readFileSync(path.join(p.dir, FIXTURES, f))]));
    const out = await vitest(["-t", "chat asks"], { LANGCHAIN_VCR_MODE: "record_always", FAIL: "1" });
    expect(out.status).to.equal(1);
    expect(out.stdout + out.stderr).to.include(`test "chat asks" failed: removed 1 fixture(s) it recorded and restored 1 it overwrote`);
    expect(p.fixtures()).to.deep.equal([...before.keys()]);
    for (const [f, bytes] of before) expect(fs.readFileSync(path.join(p.dir, FIXTURES, f)).equals(bytes), f).to.equal(true);
  });

  it("a miss names the test and vitest's -t; a hanging provider's timeout names the model, the hash and the file", async () => {
    const hanging = await startHangingServer();
    try {
      const out = await vitest(["-t", "chat asks|hang"], { MISS: "1", HANG_URL: hanging.url });
      const text = out.stdout + out.stderr;
      expect(out.status).to.equal(1);
      expect(text).to.include("  test:     chat asks");
      expect(text).to.include(`add -- -t "chat asks" to record just this test`);
      expect(text).to.match(/test "hang times out" ended while 1 live recording call\(s\) had not answered/);
      expect(text).to.include('model "gpt-4o-mini"');
      expect(text).to.match(/hash: {5}[0-9a-f]{64}/);
      expect(text).to.include("maxRetries: 0");
    } finally {
      await hanging.close();
    }
  });

  it("a bad LANGCHAIN_VCR_MODE fails the run before any test body runs: the valid modes, no stack trace", async () => {
    fs.writeFileSync(p.side, "");
    const out = await vitest([], { LANGCHAIN_VCR_MODE: "bogus" });
    expect(out.status).to.not.equal(0);
    expect(out.stderr).to.include('"bogus" is not a valid mode').and.include("Valid modes are:");
    expect(out.stdout + out.stderr).to.not.match(/^\s+at /m);
    expect(p.sideLines()).to.deep.equal([]);
  });
});
