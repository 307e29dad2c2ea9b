/**
 * Which earlier runs are other suites sharing the ledger directory (runner/otherSuites.ts), from
 * ledger files written in a temporary directory beside real test files. prune's use of it, end to
 * end, is in test/integration/ledger.test.ts.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { writeLedger } from "../../src/runner/ledgerFiles";
import { ledgerRecord } from "../helpers/ledgerRecord";
import { ledgerVerdicts } from "../../src/runner/otherSuites";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

let root: string;
let ledgers: string;
let minute = 0;

/** A run, one minute after the one before; `partial` reasons make it partial. */
function run(specFiles: string[], used: string[], partial: string[] = [], runner?: string): string {
  const runId = `r${++minute}`;
  const startedAt = new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();
  writeLedger(ledgers, ledgerRecord({ runId, n: minute, startedAt, partial, specFiles, used, runner }));
  return runId;
}

function others(): { runId: string; dirs: string[] }[] {
  return ledgerVerdicts(ledgers, root)!.otherSuites.map((o) => ({ runId: o.run.runId, dirs: [...o.dirs].map((d) => path.relative(root, d)) }));
}

describe("other suites beside the last run", () => {
  beforeEach(() => {
    root = tmpDir("vcr-suites-");
    ledgers = path.join(root, "ledgers");
    for (const f of ["test/a.spec.js", "test/b.spec.js", "other/c.spec.js", "other/d.spec.js"]) {
      fs.mkdirSync(path.dirname(path.join(root, f)), { recursive: true });
      fs.writeFileSync(path.join(root, f), "");
    }
  });
  after(removeTmpDirs);

  it("a run sharing no test file with a later run is another suite, by its own last run; older runs of either suite are not", () => {
    run(["other/c.spec.js"], ["cassettes/c.json"]);
    const c2 = run(["other/c.spec.js", "other/d.spec.js"], ["cassettes/c.json", "cassettes/d.json"]);
    run(["test/a.spec.js"], ["cassettes/a.json"]);
    run(["test/a.spec.js", "test/b.spec.js"], ["cassettes/a.json"]);
    expect(others()).to.deep.equal([{ runId: c2, dirs: ["cassettes"] }]);
  });

  it("a partial run naming files of both suites does not join them", () => {
    const c = run(["other/c.spec.js"], ["cassettes/c.json"]);
    run(["other/c.spec.js", "test/a.spec.js"], [], ["spec files were named on the command line"]);
    run(["test/a.spec.js"], ["cassettes/a.json"]);
    expect(others().map((o) => o.runId)).to.deep.equal([c]);
  });

  it("a complete run naming files of both joins them: one suite", () => {
    run(["other/c.spec.js"], ["cassettes/c.json"]);
    run(["other/c.spec.js", "test/a.spec.js"], ["cassettes/a.json", "cassettes/c.json"]);
    run(["test/a.spec.js"], ["cassettes/a.json"]);
    expect(others()).to.deep.equal([]);
  });

  it("a run of another runner is another suite even when it ran a test file of the later run (a mocha config running one file of a vitest suite)", () => {
    const v = run(["test/a.spec.js", "test/b.spec.js", "other/c.spec.js"], ["cassettes/a.json", "cassettes/b.json", "cassettes/c.json"], [], "vitest");
    const m = run(["test/a.spec.js"], ["cassettes/a.json"], [], "mocha");
    expect(others()).to.deep.equal([{ runId: v, dirs: ["cassettes"] }]);
    // the vitest suite run again: the earlier vitest run is its own, the mocha run the other suite
    run(["test/a.spec.js", "test/b.spec.js", "other/c.spec.js"], ["cassettes/a.json"], [], "vitest");
    expect(others().map((o) => o.runId)).to.deep.equal([m]);
  });

  it("a suite whose test files are all gone is no other suite", () => {
    run(["gone/x.spec.js"], ["cassettes/x.json"]);
    run(["test/a.spec.js"], ["cassettes/a.json"]);
    expect(others()).to.deep.equal([]);
  });

  it("a last run that names no test file tells nothing of its suite: every earlier suite counts as another (prune keeps more, never less)", () => {
    const c = run(["other/c.spec.js"], ["cassettes/c.json"]);
    const a = run(["test/a.spec.js"], ["cassettes/a.json"]);
    run([], ["cassettes/x.json"]);
    expect(others().map((o) => o.runId)).to.deep.equal([a, c]);
  });

  it("an earlier run that names no test file (killed before its first file ended) is skipped", () => {
    const c = run(["other/c.spec.js"], ["cassettes/c.json"]);
    run([], [], ["the run did not finish"]);
    run(["test/a.spec.js"], ["cassettes/a.json"]);
    expect(others().map((o) => o.runId)).to.deep.equal([c]);
  });

  it("a new test file run alone (partial, no earlier run ran it) is the suite's own when one earlier suite of its runner wrote here: its last complete run, no other suite", () => {
    fs.writeFileSync(path.join(root, "test/new.spec.js"), "");
    const whole = run(["test/a.spec.js", "test/b.spec.js"], ["cassettes/a.json"]);
    run(["test/a.spec.js"], [], ['--grep "a0" selected only some tests']);
    run(["test/new.spec.js"], ["cassettes/new.json"], ["spec files were named on the command line"]);
    const v = ledgerVerdicts(ledgers, root)!;
    expect(v.otherSuites).to.deep.equal([]);
    expect(v.lastComplete?.runId).to.equal(whole);
    expect(v.previous?.runId).to.equal(whole);
  });

  it("a new test file run alone stays a suite of its own beside two earlier suites of its runner, or when the run was complete", () => {
    fs.writeFileSync(path.join(root, "test/new.spec.js"), "");
    const c = run(["other/c.spec.js"], ["cassettes/c.json"]);
    const a = run(["test/a.spec.js"], ["cassettes/a.json"]);
    run(["test/new.spec.js"], ["cassettes/new.json"], ["spec files were named on the command line"]);
    expect(others().map((o) => o.runId)).to.deep.equal([a, c]);
    expect(ledgerVerdicts(ledgers, root)!.lastComplete).to.equal(undefined);
    run(["test/new.spec.js"], ["cassettes/new.json"]); // complete: a suite of one file beside the others
    expect(others().map((o) => o.runId)).to.deep.equal([a, c]);
  });

  it("the fixture directories a suite used come from all its runs, not only its last", () => {
    run(["other/c.spec.js"], ["cassettes/c.json"]);
    const c2 = run(["other/c.spec.js"], [], ['--grep "c0" selected only some tests']);
    run(["test/a.spec.js"], ["cassettes/a.json"]);
    expect(others()).to.deep.equal([{ runId: c2, dirs: ["cassettes"] }]);
  });

  it("asked about one fixture directory, a suite that never used it (a second config with fixtures of its own, run last) is not its last run: the newest suite that used it is (user trial 43)", () => {
    const whole = run(["test/a.spec.js", "test/b.spec.js"], ["cassettes/a.json", "cassettes/b.json"]);
    const part = run(["test/a.spec.js"], ["cassettes/a.json"], ["--project agent selected only some tests"]);
    const repro = run(["other/c.spec.js"], ["other/cassettes/c.json"]);
    const asked = (dir?: string) => ledgerVerdicts(ledgers, root, [], dir && path.join(root, dir))!;
    const main = asked("cassettes");
    expect(main.last?.runId).to.equal(part);
    expect(main.lastComplete?.runId).to.equal(whole);
    expect(main.otherSuites.map((o) => o.run.runId)).to.deep.equal([repro]); // another suite, sharing nothing of cassettes/
    expect([...main.otherSuites[0].dirs].map((d) => path.relative(root, d))).to.deep.equal(["other/cassettes"]);
    // its own directory, or none asked: the last run is the last run, as before
    expect(asked("other/cassettes").last?.runId).to.equal(repro);
    expect(asked().last?.runId).to.equal(repro);
    expect(asked().otherSuites.map((o) => o.run.runId)).to.deep.equal([part]);
    // a directory no suite used: the last run
    expect(asked("elsewhere").last?.runId).to.equal(repro);
    // a partial run of that suite (a name filter), which ran whole before: not cassettes/' last run either (trial 43 recheck)
    const filtered = run(["other/c.spec.js"], [], ['--grep "c0" selected only some tests']);
    expect(asked("cassettes").last?.runId).to.equal(part);
    expect(asked("other/cassettes").last?.runId).to.equal(filtered);
    // one that names no test file (killed before its first file ended) may be any suite's: it stays the last run
    const killed = run([], [], ["the run did not finish (mocha is still running, or was killed)"]);
    expect(asked("cassettes").last?.runId).to.equal(killed);
  });

  it("a partial last run of a suite never run whole stays the last run, even where it used none of the directory (it may be any suite's subset)", () => {
    run(["test/a.spec.js"], ["cassettes/a.json"]);
    const partial = run(["other/c.spec.js"], [], ['--grep "c0" selected only some tests']);
    expect(ledgerVerdicts(ledgers, root, [], path.join(root, "cassettes"))!.last?.runId).to.equal(partial);
  });

  it("a last run that used none of the directory now, but whose suite did before, stays its last run (its tests no longer use those fixtures)", () => {
    run(["test/a.spec.js"], ["cassettes/a.json"]);
    run(["other/c.spec.js"], ["cassettes/c.json"]);
    const emptied = run(["test/a.spec.js"], []);
    const v = ledgerVerdicts(ledgers, root, [], path.join(root, "cassettes"))!;
    expect(v.last?.runId).to.equal(emptied);
  });
});
