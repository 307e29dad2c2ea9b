/**
 * How the main process of vitest, jest and node:test adds up its test files' reports: a report
 * still unfinished (a worker killed mid-file) or unreadable makes the run partial, so prune
 * never deletes a fixture that worker may have used; finished reports merge.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { lastRunVerdict, LEDGER_DIR_ENV } from "../../src/runner/ledgerFiles";
import { finishRun, recordRunStart, SHARE_ENV, startRun, Unit, type RunShare, type UnitReport } from "../../src/runner/share";
import { Usage } from "../../src/runner/usage";
import { emit } from "../../src/scope";
import { emptyTotals } from "../../src/runner/summary";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("the run share: test files' reports added up by the main process", () => {
  let ledgers: string;
  let share: RunShare;
  const lines: string[] = [];
  const finish = (failed: string[] = []) => finishRun(share, { reasons: [], failed, exitCode: 0, print: (l) => lines.push(l) });

  beforeEach(() => {
    ledgers = tmpDir("vcr-share-ledgers-");
    process.env[LEDGER_DIR_ENV] = ledgers;
    share = startRun("vitest", {}); // a fresh env object: this process's own env is left alone
    lines.length = 0;
  });
  afterEach(() => {
    delete process.env[LEDGER_DIR_ENV];
    fs.rmSync(share.dir, { recursive: true, force: true });
    removeTmpDirs();
  });

  it("merges finished reports: counts, fixtures used, one summary line; the run is complete", () => {
    const a = new Unit(share, "test/a.test.mjs");
    emit({ type: "used", hash: "h1", file: path.join(process.cwd(), "cassettes/h1.json") });
    emit({ type: "replayed", kind: "chat", mode: "replay_only" });
    a.finish();
    const b = new Unit(share, "test/b.test.mjs");
    emit({ type: "used", hash: "h2", file: path.join(process.cwd(), "cassettes/h2.json") });
    emit({ type: "replayed", kind: "tool", mode: "replay_only" });
    b.finish();
    const { record } = finish();
    expect(record.partial).to.deep.equal([]);
    expect(record.used).to.deep.equal(["cassettes/h1.json", "cassettes/h2.json"]);
    expect(lines).to.have.length(1);
    expect(lines[0]).to.match(/^langchain-vcr: 2 replayed, 0 recorded, 0 bypassed, 0 missed — mode replay_only/);
    expect(lastRunVerdict(ledgers)?.complete).to.equal(true);
    expect(fs.existsSync(share.dir)).to.equal(false); // the exchange directory is removed
  });

  it("a test file whose report is still unfinished (its worker was killed) makes the run partial", () => {
    new Unit(share, "test/a.test.mjs").finish();
    const killed = new Unit(share, "test/killed.test.mjs"); // started, never finished
    emit({ type: "used", hash: "h3", file: path.join(process.cwd(), "cassettes/h3.json") });
    killed.usage.stop();
    const { record } = finish();
    expect(record.partial).to.have.length(1);
    expect(record.partial[0]).to.include("1 test file(s) stopped before they finished").and.include("test/killed.test.mjs");
    const verdict = lastRunVerdict(ledgers);
    expect(verdict?.complete).to.equal(false);
  });

  it("an unfinished report rewritten after a test (vitest) counts the use it holds; the run is still partial", () => {
    const hooked = new Unit(share, "test/hooked.test.mjs"); // its afterAll threw: never finished
    emit({ type: "used", hash: "h4", file: path.join(process.cwd(), "cassettes/h4.json") });
    emit({ type: "replayed", kind: "chat", mode: "replay_only" });
    hooked.testEnded();
    emit({ type: "replayed", kind: "chat", mode: "replay_only" }); // after the last test ended: not in the report
    hooked.usage.stop();
    const { record } = finish();
    expect(lines[0]).to.match(/^langchain-vcr: 1 replayed, 0 recorded/);
    expect(record.used).to.deep.equal(["cassettes/h4.json"]);
    expect(record.partial).to.have.length(1);
    expect(record.partial[0]).to.include(
      "1 test file(s) stopped before they finished (an afterAll hook of the file failed or timed out, or a worker was killed or crashed)",
    );
    expect(record.specFiles).to.deep.equal([]);
  });

  it("a test that ends with nothing used or failed since the last write writes no report", () => {
    const unit = new Unit(share, "test/quiet.test.mjs");
    const written = () => fs.readFileSync(path.join(share.dir, fs.readdirSync(share.dir)[0]), "utf8");
    const before = written();
    unit.testEnded();
    expect(written()).to.equal(before);
    unit.markFailed("fails");
    unit.testEnded();
    expect(JSON.parse(written()).failed).to.deep.equal(["fails"]);
    unit.finish();
  });

  it("each start of the run's tests (a watch-mode rerun) is handed to the test processes it starts, when the environment holds this run", () => {
    const saved = process.env[SHARE_ENV];
    try {
      process.env[SHARE_ENV] = JSON.stringify(share);
      recordRunStart(share);
      const first = JSON.parse(process.env[SHARE_ENV]!).testsStartedAt as string;
      expect(Date.parse(first)).to.be.closeTo(Date.now(), 1000);
      process.env[SHARE_ENV] = JSON.stringify({ ...share, runId: "another run" });
      recordRunStart(share);
      expect(JSON.parse(process.env[SHARE_ENV]!).runId, "another run's is left alone").to.equal("another run");
    } finally {
      if (saved === undefined) delete process.env[SHARE_ENV];
      else process.env[SHARE_ENV] = saved;
    }
  });

  it("a half-written report makes the run partial, naming the file", () => {
    new Unit(share, "test/a.test.mjs").finish();
    fs.writeFileSync(path.join(share.dir, "999-1-abcd.json"), '{"unit": "test/b.test.mjs", "done": tr');
    const { record } = finish();
    expect(record.partial.join("\n")).to.include("999-1-abcd.json is unreadable");
    expect(lastRunVerdict(ledgers)?.complete).to.equal(false);
  });

  it("failed tests reported by the units or the main process make the run partial", () => {
    const a = new Unit(share, "test/a.test.mjs");
    a.markFailed("chat asks");
    a.finish();
    const { record } = finish(["agent refunds"]);
    expect(record.partial).to.deep.equal(['2 test(s) failed (first: "agent refunds")']);
  });

  it("starting a run writes nothing (a command that runs no test leaves nothing behind); the first report makes its directory", () => {
    expect(fs.existsSync(share.dir)).to.equal(false);
    expect(fs.readdirSync(ledgers)).to.deep.equal([]);
    new Unit(share, "test/a.test.mjs");
    expect(fs.readdirSync(share.dir)).to.have.length(1);
  });

  it("recordRunStart puts the run on record as unfinished, with its shard; finishRun rewrites that same file", () => {
    recordRunStart(share, { index: 2, total: 3 });
    const files = () =>
      fs
        .readdirSync(ledgers, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith(".json"));
    expect(files()).to.have.length(1);
    const started = JSON.parse(fs.readFileSync(path.join(ledgers, files()[0]), "utf8"));
    expect(started).to.not.have.property("exitCode");
    expect(started.shard).to.deep.equal({ index: 2, total: 3 });
    const verdict = lastRunVerdict(ledgers);
    expect(verdict?.complete).to.equal(false);
    expect(verdict?.reasons.join("\n")).to.include("shard 2/3 did not finish (vitest is still running, or was killed)");
    new Unit(share, "test/a.test.mjs").finish();
    finishRun(share, { reasons: [], exitCode: 0, shard: { index: 2, total: 3 }, print: () => {} });
    expect(files()).to.have.length(1);
    expect(JSON.parse(fs.readFileSync(path.join(ledgers, files()[0]), "utf8"))).to.include({ exitCode: 0 });
  });
  it("says no test process built a Vcr only when every test file reported in full and none counted one (review L12)", () => {
    const NOTE = "No test process built a Vcr";
    const file = (unit: string, vcrs: number, more: Partial<UnitReport> = {}): UnitReport => ({
      unit,
      pid: 1,
      done: true,
      totals: { ...emptyTotals(), vcrs },
      dirs: [],
      ...more,
    });
    const noteOf = (reports: UnitReport[], problems: string[] = [], local?: Usage) =>
      finishRun(share, { reasons: [], exitCode: 0, print: () => {}, reports: { reports, problems }, local }).line.includes(NOTE);
    expect(noteOf([file("test/a.test.ts", 0), file("test/b.test.ts", 0)]), "two files, no Vcr").to.equal(true);
    expect(noteOf([file("test/a.test.ts", 0), file("test/b.test.ts", 1)]), "one file's process built one").to.equal(false);
    expect(noteOf([file("test/a.test.ts", 0), file("test/b.test.ts", 0, { done: false })]), "one file unfinished").to.equal(false);
    expect(noteOf([file("test/a.test.ts", 0), file("test/b.test.ts", 0, { unplugged: true })]), "one file unplugged").to.equal(false);
    expect(noteOf([file("test/a.test.ts", 0)], ["a test process's usage report 9-1-ab.json is unreadable (…)"]), "one report unreadable").to.equal(false);
    expect(noteOf([]), "no report and no use of the main process's own: nothing is known").to.equal(false);
    expect(noteOf([], [], new Usage()), "a runner that runs its tests in its own process, which built none").to.equal(true);
  });
});
