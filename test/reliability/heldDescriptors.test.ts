/**
 * Descriptors held open on kept fixtures (src/store/heldFiles.ts) are bounded for the process, not
 * per cache, and a cache that goes (its module evaluated again) gives its own back when collected.
 * The child (scripts/heldCap.ts) runs with --expose-gc and counts /proc/self/fd.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";
import { ok, runScript } from "./scripts/compiled";

describe("reliability: descriptors held on kept fixtures", function () {
  this.timeout(60000);
  afterEach(removeTmpDirs);

  it("at most 64 in a process across caches; a dropped cache's are closed once it is collected, and another cache then holds", async function () {
    if (!fs.existsSync("/proc/self/fd")) this.skip(); // counting descriptors needs Linux's /proc
    const out = ok(await runScript("heldCap.ts", { FIXTURE_DIR: tmpDir("vcr-rel-held-") }, ["--expose-gc"], 55000));
    const r = JSON.parse(out.stdout);
    if (!r.holdable) this.skip(); // a file system where descriptors are not held (overlayfs): nothing to bound
    expect(r.afterFirst).to.deep.equal({ a: 64, b: 0 });
    expect(r.afterSecond, "the process's bound, not the second cache's").to.deep.equal({ a: 64, b: 0 });
    expect(r.collected, "the first cache collected").to.deep.equal({ a: 0, b: 0 });
    expect(r.afterRoom).to.deep.equal({ a: 0, b: 10 });
  });
});
