/**
 * A mocha miss's command to record its test again names the test's own spec file when the files
 * the run's command line named are others: mocha adds its config's `spec` to them, so tests of
 * other files ran too (user trial 40: `mocha test/notools.spec.ts --grep 'app … calls the tool'`).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { argsNaming } from "../../src/mocha/runContext";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("mocha: the spec file a miss's command names", () => {
  after(removeTmpDirs);

  it("is the test's own file when the one file named is another; what is named stays when it is the test's, a glob, a directory, or several files", () => {
    const dir = tmpDir("vcr-argsnaming-");
    fs.mkdirSync(path.join(dir, "test"));
    for (const f of ["a.spec.ts", "b.spec.ts", "c.spec.ts"]) fs.writeFileSync(path.join(dir, "test", f), "");
    const a = path.join(dir, "test", "a.spec.ts");
    expect(argsNaming(["-r", "tsx", "test/b.spec.ts"], a, dir)).to.deep.equal(["-r", "tsx", "test/a.spec.ts"]);
    expect(argsNaming(["test/b.spec.ts", "--timeout", "5000"], a, dir)).to.deep.equal(["test/a.spec.ts", "--timeout", "5000"]);
    for (const kept of [
      ["test/a.spec.ts"], // it is the one named
      ["test/b.spec.ts", "test/c.spec.ts"], // several: one may be a setup file the run needs (mocha test/setup.ts test/b.spec.ts)
      ["test/*.spec.ts"], // a glob may hold it
      ["test"], // so may a directory
      ["-r", "tsx"], // none named
      ["--", "test/b.spec.ts"], // after --, as mocha reads it
    ])
      expect(argsNaming(kept, a, dir), kept.join(" ")).to.deep.equal(kept);
  });
});
