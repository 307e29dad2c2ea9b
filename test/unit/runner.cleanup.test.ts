import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { restoreFailedTest } from "../../src/runner/cleanup";
import { endTest } from "../../src/runner/lifecycle";
import { summaryLine } from "../../src/runner/summary";
import { Usage } from "../../src/runner/usage";
import { Scope } from "../../src/scope";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("restoreFailedTest: what a failed test's clean-up takes back", () => {
  after(removeTmpDirs);

  it("counts recordings, not files: a file the test wrote twice is two recordings undone", () => {
    const dir = tmpDir("vcr-cleanup-");
    const file = path.join(dir, "a".repeat(64) + ".json");
    fs.writeFileSync(file, "{}");
    const scope = new Scope("fails after recording one request twice");
    scope.created.add(file);
    scope.tally.recorded = 2; // record_always: written, then written again
    const r = restoreFailedTest(scope);
    expect(r).to.deep.equal({ removed: [file], restored: [], undone: 2 });
    expect(fs.existsSync(file)).to.equal(false);
  });

  it("a failed attempt that its runner retries is undone like a failed test, and the summary says which undone recordings were whose", () => {
    const dir = tmpDir("vcr-cleanup-");
    const failedTest = (title: string, retried: boolean, recordings: number) => {
      const scope = new Scope(title);
      for (let i = 0; i < recordings; i++) {
        const file = path.join(dir, `${title.replace(/\W/g, "-")}-${i}.json`);
        fs.writeFileSync(file, "{}");
        scope.created.add(file);
      }
      scope.tally.recorded = recordings;
      scope.retried = retried;
      endTest(scope, true);
      return [...scope.created].filter((f) => fs.existsSync(f));
    };
    const usage = new Usage().start();
    try {
      expect(failedTest("flaky", true, 1)).to.deep.equal([]);
      usage.totals.recorded = 2; // the attempt's recording, and the retry's
      const line = (u: Usage) => summaryLine(u.totals, new Set([dir]), "record_or_replay", "default");
      expect(line(usage)).to.include(" 1 recorded (1 more undone: a failed attempt the runner retried), 0 bypassed");
      expect(failedTest("fails", false, 2)).to.deep.equal([]);
      expect(failedTest("flaky too", true, 2)).to.deep.equal([]);
      usage.totals.recorded = 6;
      expect(usage.totals).to.include({ undone: 5, undoneRetried: 3 });
      expect(line(usage)).to.include(" 1 recorded (2 more undone: their tests failed; 3 more undone: failed attempts the runner retried), 0 bypassed");
    } finally {
      usage.stop();
    }
  });
});
