/**
 * A live recording call that answers after its test ended (the runner timed the test out and
 * said "nothing was recorded for it"): nothing is written, under record_or_replay (no new file
 * a failed test leaves behind) or record_always (the committed fixture keeps its bytes).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { Vcr } from "../../src/index";
import { endTest } from "../../src/runner/lifecycle";
import { runAsTest, Scope } from "../../src/scope";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { fixtureFiles, fromAnEarlierRun, removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("a live call that answers after its test ended", () => {
  let fake: FakeProvider;
  let dir: string;
  beforeEach(async () => {
    fake = await startFakeProvider({ latencyMs: 300 });
    dir = tmpDir("vcr-late-");
  });
  afterEach(async () => {
    await fake.close();
    removeTmpDirs();
  });

  /** One invoke in a test of its own that the "runner" ends (failed, as a timeout does) 50 ms in, while the call waits on the fake. */
  async function timedOut(vcr: Vcr, prompt: string): Promise<void> {
    const scope = new Scope("times out");
    const call = runAsTest(scope, () => openai(fake, vcr.cache).invoke(prompt));
    await new Promise((r) => setTimeout(r, 50));
    endTest(scope, true);
    await call; // the answer still arrives, and the caller still gets it
  }

  it("record_or_replay: the answer is not recorded (0 files) and counts as bypassed", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    await timedOut(vcr, "slow question");
    expect(fake.count()).to.equal(1);
    expect(fixtureFiles(dir)).to.deep.equal([]);
    expect(vcr.stats()).to.deep.include({ recorded: 0, bypassed: 1 });
  });

  it("record_always: the fixture on disk keeps its bytes", async () => {
    const recording = new Vcr({ dir, mode: "record_or_replay" });
    await runAsTest(new Scope("records"), () => openai(fake, recording.cache).invoke("slow question"));
    fromAnEarlierRun(dir); // recorded by an earlier run: record_always records it again
    const [file] = fixtureFiles(dir);
    const before = fs.readFileSync(path.join(dir, file));
    const vcr = new Vcr({ dir, mode: "record_always" });
    await timedOut(vcr, "slow question");
    expect(fake.count()).to.equal(2);
    expect(fs.readFileSync(path.join(dir, file)).equals(before)).to.equal(true);
    expect(vcr.stats()).to.deep.include({ recorded: 0, bypassed: 1 });
  });
});
