/**
 * Concurrency across processes: `mocha --parallel --jobs 4` and two separate node processes
 * (one record_or_replay, one record_always) record the same overlapping requests into ONE
 * directory at the same time. Afterwards every fixture is valid, no temp file is left, and
 * nothing is lost: every request of the workload replays under replay_only with no live call.
 * (32 concurrent identical misses inside one process are in test/integration/modes.test.ts.)
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { withVcr } from "../../src/index";
import { TEMP_PREFIX } from "../../src/store/atomic";
import { validateFixtures } from "../../src/validate";
import { runChild } from "../helpers/child";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { childEnv, compiled, ok, ROOT, runScript } from "./scripts/compiled";
import { DISTINCT, LOOKUPS, PROMPTS, workload } from "./scripts/overlap";

/** Every fixture valid and re-hashing, no temp file, exactly the workload's fixtures, and all of them replay offline. */
async function expectComplete(dir: string, fake: FakeProvider): Promise<void> {
  expect(fs.readdirSync(dir).filter((n) => n.startsWith(TEMP_PREFIX))).to.deep.equal([]);
  expect(await validateFixtures(dir)).to.deep.equal([]);
  expect(fixtureFiles(dir)).to.have.length(DISTINCT);
  const before = fake.count();
  const w = workload(0, fake.url, dir);
  await withVcr({ mode: "replay_only" }, async () => {
    await w.chat();
    await w.embeddings();
    await w.tools();
  });
  expect(fake.count()).to.equal(before); // nothing lost: all replayed, no live call
  expect(w.toolRuns()).to.equal(0);
  expect(w.vcr.stats()).to.deep.equal({ replayed: LOOKUPS, recorded: 0, bypassed: 0, missed: 0 });
}

describe("reliability: concurrency across processes", function () {
  this.timeout(60000);
  let fake: FakeProvider;
  let dir: string;
  let barrierDir: string;
  beforeEach(async () => {
    fake = await startFakeProvider({ latencyMs: 20 }); // keeps misses in flight long enough to race
    dir = tmpDir("vcr-rel-conc-");
    barrierDir = tmpDir("vcr-rel-barrier-");
  });
  afterEach(async () => {
    await fake.close();
    removeTmpDirs();
  });

  it("mocha --parallel --jobs 4 over four spec files recording overlapping requests into one directory", async () => {
    const specs = [0, 1, 2, 3].map((n) => compiled(`test/reliability/scripts/parallel-${n}.spec.ts`));
    const mocha = path.join(ROOT, "node_modules/mocha/bin/mocha.js");
    const args = [mocha, "--no-config", "--parallel", "--jobs", "4", "--require", compiled("src/mocha/index.ts"), "--timeout", "30000", ...specs];
    const env = { FAKE_URL: fake.url, FIXTURE_DIR: dir, BARRIER_DIR: barrierDir, PARTICIPANTS: "4", LANGCHAIN_VCR_LEDGER_DIR: tmpDir("vcr-rel-ledger-") };
    const out = ok(await runChild(process.execPath, args, { cwd: ROOT, env: childEnv(env), timeoutMs: 60000 }));
    expect(out.stdout).to.match(/\b12 passing\b/);
    expect(fs.readdirSync(barrierDir)).to.have.length(4); // four participants really ran
    // each prompt reached the model at least once and at most once per participant
    expect(fake.count("/v1/chat")).to.be.within(PROMPTS.length, 4 * PROMPTS.length);
    await expectComplete(dir, fake);
  });

  it("two node processes (record_or_replay and record_always) recording overlapping requests at the same time", async () => {
    const run = (p: number, mode: string) =>
      runScript("recordOverlap.ts", {
        FAKE_URL: fake.url,
        FIXTURE_DIR: dir,
        BARRIER_DIR: barrierDir,
        PARTICIPANTS: "2",
        PARTICIPANT: String(p),
        LANGCHAIN_VCR_MODE: mode,
      });
    const [a, b] = (await Promise.all([run(0, "record_or_replay"), run(2, "record_always")])).map(ok);
    const ra = JSON.parse(a.stdout);
    const rb = JSON.parse(b.stdout);
    expect([ra.mode, rb.mode]).to.deep.equal(["record_or_replay", "record_always"]);
    // record_always records every lookup but those the other process recorded since it started (replayed: one
    // run's fixtures agree); record_or_replay replays or records each one, or finds after its live call that the other
    // process wrote the file first (bypassed: it wrote nothing)
    expect(rb.stats.recorded + rb.stats.replayed).to.equal(LOOKUPS);
    expect(rb.stats.recorded).to.be.at.least(1);
    expect(ra.stats.recorded + ra.stats.replayed + ra.stats.bypassed).to.equal(LOOKUPS);
    expect(fake.count("/v1/chat")).to.be.within(PROMPTS.length, 2 * PROMPTS.length);
    await expectComplete(dir, fake);
  });
});
