import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { removeStaleRunDirs, STALE_AFTER_MS, SWEEP_EVERY_MS } from "../../src/runner/staleTmp";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("removeStaleRunDirs: what killed runs left in the temp dir", () => {
  after(removeTmpDirs);

  it("removes run and summary directories a day old or older; keeps newer ones and anything else", () => {
    const tmp = tmpDir("vcr-staletmp-");
    const now = Date.now();
    const make = (name: string, ageMs: number) => {
      const dir = path.join(tmp, name);
      fs.mkdirSync(dir);
      fs.writeFileSync(path.join(dir, "1-1-ab.json"), "{}");
      const t = (now - ageMs) / 1000;
      fs.utimesSync(dir, t, t);
      return dir;
    };
    const oldRun = make("langchain-vcr-run-111-aaa", STALE_AFTER_MS + 1000);
    const oldSummary = make("langchain-vcr-summary-222", STALE_AFTER_MS * 3);
    const running = make("langchain-vcr-run-333-bbb", 60_000);
    const other = make("someone-elses-run-444", STALE_AFTER_MS * 3);
    expect(removeStaleRunDirs(now, tmp).sort()).to.deep.equal([oldRun, oldSummary].sort());
    expect(fs.existsSync(running)).to.equal(true);
    expect(fs.existsSync(other)).to.equal(true);
    // at most one sweep an hour: a run's start pays one stat
    const later = make("langchain-vcr-run-555-ccc", STALE_AFTER_MS * 2);
    expect(removeStaleRunDirs(now + 60_000, tmp)).to.deep.equal([]);
    expect(removeStaleRunDirs(now + SWEEP_EVERY_MS + 1, tmp)).to.deep.equal([later]);
    expect(removeStaleRunDirs(now, path.join(tmp, "missing"))).to.deep.equal([]);
  });
});
