/**
 * Crashes: a process SIGKILLed while it writes fixtures leaves only complete, valid fixtures.
 * Leftover temp files are never read by a lookup (a lookup of that hash is a miss, or a hit
 * on the complete fixture — never a parse error) and `validateFixtures` reports each one.
 * One child is killed by this process at a moment of its choosing; three kill themselves at
 * the worst moments of a write (half a temp file; temp complete but not linked; linked but
 * temp not removed), so those cases are certain rather than likely.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { Vcr, VcrFixtureError, VcrMissError, withVcr } from "../../src/index";
import { inOwnTest } from "../helpers/ownTest";
import { requestHash } from "../../src/canonical/json";
import { TEMP_PREFIX } from "../../src/store/atomic";
import { validateFixtures } from "../../src/validate";
import type { ChildResult } from "../helpers/child";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { bigResult, bigTool } from "./scripts/bigTool";
import { runScript, spawnScript } from "./scripts/compiled";

const SIZE = 2_000_000;
const TEMP_PROBLEM = "is a temporary file left by an interrupted fixture write; delete it";

const temps = (dir: string) =>
  fs
    .readdirSync(dir)
    .filter((n) => n.startsWith(TEMP_PREFIX))
    .sort();
const reported = (stdout: string) => [...stdout.matchAll(/^recorded (\d+)$/gm)].map((m) => Number(m[1]));
const toolHash = (i: number) => requestHash("tool", { tool: "big_report", args: { i } });

/** validateFixtures finds nothing wrong except the leftover temp files, and reports every one of them. */
async function expectOnlyTempProblems(dir: string): Promise<void> {
  const problems = await validateFixtures(dir);
  expect(problems.map((p) => path.basename(p.file)).sort()).to.deep.equal(temps(dir));
  for (const p of problems) expect(p.problem).to.equal(TEMP_PROBLEM);
}

/**
 * Looks every fixture 0..upTo up under replay_only: 0..done replay their exact result; the
 * ones after are a complete hit or a clean miss, never a VcrFixtureError. No body runs.
 */
async function expectLookups(dir: string, done: number, upTo: number): Promise<("hit" | "miss")[]> {
  const vcr = new Vcr({ dir, mode: "replay_only" });
  let runs = 0;
  const big = bigTool(vcr, SIZE, () => runs++);
  const seen: ("hit" | "miss")[] = [];
  for (let i = 0; i <= upTo; i++) {
    // a scope per lookup: a repeat of one tool call inside one scope is a new, ordered request
    const got = await inOwnTest({}, () => big.invoke({ i })).then(
      (v) => ({ v }),
      (e: unknown) => ({ e }),
    );
    if ("v" in got) {
      expect(got.v).to.equal(bigResult(i, SIZE));
      seen.push("hit");
    } else {
      expect(got.e, `fixture ${i}`).to.be.instanceOf(VcrMissError);
      expect(got.e).not.to.be.instanceOf(VcrFixtureError);
      expect(i, `fixture ${i} was reported written`).to.be.greaterThan(done);
      seen.push("miss");
    }
  }
  expect(runs).to.equal(0);
  return seen;
}

describe("reliability: crashes while writing fixtures", function () {
  this.timeout(30000);
  afterEach(removeTmpDirs);

  it("SIGKILL at any moment (killed from outside, and at the three worst points of a write) leaves only complete fixtures", async () => {
    const external = tmpDir("vcr-rel-crash-");
    const points = ["mid-temp", "before-link", "after-link"] as const;
    const dirs = Object.fromEntries(points.map((p) => [p, tmpDir("vcr-rel-crash-")])) as Record<(typeof points)[number], string>;

    // killed from outside: right after it reports fixture 4, while it writes fixture 5
    const killedFromOutside = new Promise<ChildResult & { signal: NodeJS.Signals | null }>((resolve, reject) => {
      const child = spawnScript("crashWriter.ts", { FIXTURE_DIR: external, SIZE: String(SIZE), COUNT: "200" });
      let stdout = "";
      let stderr = "";
      const guard = setTimeout(() => child.kill("SIGKILL"), 20000);
      child.stdout!.on("data", (d) => {
        stdout += d;
        if (/^recorded 4$/m.test(stdout)) setTimeout(() => child.kill("SIGKILL"), 2);
      });
      child.stderr!.on("data", (d) => (stderr += d));
      child.on("error", reject);
      child.on("close", (status, signal) => {
        clearTimeout(guard);
        resolve({ status, signal, stdout, stderr });
      });
    });
    // killing themselves at fixture 2
    const selfKilled = points.map((p) => runScript("crashWriter.ts", { FIXTURE_DIR: dirs[p], SIZE: String(SIZE), CRASH_POINT: p, CRASH_AT: "2" }));
    const [outside, ...inside] = await Promise.all([killedFromOutside, ...selfKilled]);

    expect(outside.signal, outside.stderr).to.equal("SIGKILL");
    const done = Math.max(...reported(outside.stdout));
    expect(done).to.be.at.least(4);
    await expectOnlyTempProblems(external);
    await expectLookups(external, done, done + 2);

    inside.forEach((r, k) => {
      expect(r.status, `${points[k]}: ${r.stderr}`).to.equal(null); // killed by a signal, no exit code
      expect(reported(r.stdout), points[k]).to.deep.equal([0, 1]);
    });
    const fixture2 = `${toolHash(2)}.json`;

    // half a temp file: no fixture 2, one truncated temp file; lookups miss it, validate reports it
    const mid = dirs["mid-temp"];
    expect(temps(mid)).to.have.length(1);
    expect(() => JSON.parse(fs.readFileSync(path.join(mid, temps(mid)[0]), "utf8"))).to.throw(SyntaxError);
    expect(fixtureFiles(mid)).not.to.include(fixture2);
    expect(fixtureFiles(mid)).to.have.length(2);
    await expectOnlyTempProblems(mid);
    expect(await expectLookups(mid, 1, 3)).to.deep.equal(["hit", "hit", "miss", "miss"]);

    // a complete temp file that was never linked: still a miss (a temp file is never a fixture)
    const before = dirs["before-link"];
    expect(temps(before)).to.have.length(1);
    expect(JSON.parse(fs.readFileSync(path.join(before, temps(before)[0]), "utf8")).hash).to.equal(toolHash(2));
    expect(fixtureFiles(before)).to.have.length(2);
    await expectOnlyTempProblems(before);
    expect(await expectLookups(before, 1, 3)).to.deep.equal(["hit", "hit", "miss", "miss"]);

    // linked but the temp file not removed: fixture 2 is complete and replays; the temp file is reported
    const after = dirs["after-link"];
    expect(temps(after)).to.have.length(1);
    expect(fixtureFiles(after)).to.include(fixture2);
    await expectOnlyTempProblems(after);
    expect(await expectLookups(after, 1, 3)).to.deep.equal(["hit", "hit", "hit", "miss"]);

    // the next recording run records the interrupted fixture normally, next to the stale temp file
    const vcr = new Vcr({ dir: mid, mode: "record_or_replay", sizeWarningBytes: 0 });
    let runs = 0;
    expect(await inOwnTest({}, () => bigTool(vcr, SIZE, () => runs++).invoke({ i: 2 }))).to.equal(bigResult(2, SIZE));
    expect(runs).to.equal(1);
    expect(fixtureFiles(mid)).to.include(fixture2);
    await expectOnlyTempProblems(mid);
  });

  describe("leftover temp files next to chat fixtures", () => {
    let fake: FakeProvider;
    beforeEach(async () => (fake = await startFakeProvider()));
    afterEach(() => fake.close());

    it("are never read: a hit stays a hit, an unrecorded request is a clean miss, and validate names them", async () => {
      const dir = tmpDir("vcr-rel-temp-");
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      await openai(fake, vcr.cache).invoke([new HumanMessage("recorded question")]);
      const [recorded] = fixtureFiles(dir);
      const text = fs.readFileSync(path.join(dir, recorded), "utf8");
      // what a crash leaves: a truncated copy for the recorded hash, and garbage for another hash
      fs.writeFileSync(path.join(dir, `${TEMP_PREFIX}${recorded.slice(0, 16)}-99999-1`), text.slice(0, text.length / 2));
      fs.writeFileSync(path.join(dir, `${TEMP_PREFIX}${"f".repeat(16)}-99999-2`), Buffer.from([0xff, 0x00, 0x7b]));
      fake.reset();

      const replayed = await withVcr({ mode: "replay_only" }, () => openai(fake, vcr.cache).invoke([new HumanMessage("recorded question")]));
      expect(replayed.content).to.equal("echo: recorded question");
      const miss = await withVcr({ mode: "replay_only" }, () => openai(fake, vcr.cache).invoke([new HumanMessage("recorded questions")])).catch((e) => e);
      expect(miss).to.be.instanceOf(VcrMissError);
      expect(miss.nearest.file).to.equal(path.join(dir, recorded)); // the nearest search skips temp files too
      expect(miss.message).not.to.include(TEMP_PREFIX);
      expect(fake.count()).to.equal(0);

      const problems = await validateFixtures(dir);
      expect(problems.map((p) => [path.basename(p.file), p.problem])).to.deep.equal(temps(dir).map((t) => [t, TEMP_PROBLEM]));
    });
  });
});
