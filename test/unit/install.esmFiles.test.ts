/** src/install/esmFiles.ts: which test files Node runs as ES modules. */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { isEsmFile } from "../../src/install/esmFiles";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("install(): whether a test file is an ES module", () => {
  afterEach(removeTmpDirs);

  /** `files` written in a fresh directory whose package.json is `pkg`; returns the directory. */
  function project(pkg: object, files: Record<string, string>): string {
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify(pkg));
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    return dir;
  }

  it("by extension, by the package's type, and (a .js file of a package with no type) by its import/export statements, as Node 20.19+ decides", () => {
    const typeless = project({ name: "a" }, { "esm.js": `import assert from "node:assert";\n`, "cjs.js": `const assert = require("node:assert");\n` });
    const typed = project({ name: "b", type: "module" }, { "any.js": `const x = 1;\n` });
    const cjs = project({ name: "c", type: "commonjs" }, { "esm.js": `import x from "y";\n` });
    expect([
      isEsmFile(path.join(typeless, "x.mjs")),
      isEsmFile(path.join(typeless, "x.cjs")),
      isEsmFile(path.join(typeless, "esm.js")),
      isEsmFile(path.join(typeless, "cjs.js")),
      isEsmFile(path.join(typed, "any.js")),
      isEsmFile(path.join(cjs, "esm.js")),
      isEsmFile("relative.mjs"),
      isEsmFile(undefined),
    ]).to.deep.equal([true, false, true, false, true, false, false, false]);
  });
});
