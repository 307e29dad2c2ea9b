/**
 * The runner entry points as the packed tarball ships them (npm pack, then the tarball
 * unpacked into a project's node_modules): each resolves through "exports" for import and
 * require, the files the plugins point at are in the package, and so is every page the README
 * and the docs link to (a reader of node_modules/langchain-vcr/README.md follows them there).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { builtBin, ROOT } from "../helpers/built";
import { runChild } from "../helpers/child";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";
import { brokenLinks } from "../recipes/blocks";

const ENTRIES = ["langchain-vcr/vitest", "langchain-vcr/jest", "langchain-vcr/jest/reporter", "langchain-vcr/node-test", "langchain-vcr/mocha"];

describe("runner entry points from the packed tarball", function () {
  this.timeout(120000);
  let project: string;

  before(async () => {
    builtBin();
    const packDir = tmpDir("vcr-pack-");
    const pack = await runChild("npm", ["pack", "--ignore-scripts", "--silent", "--pack-destination", packDir], {
      cwd: ROOT,
      env: process.env,
      timeoutMs: 60000,
    });
    expect(pack.status, pack.stderr).to.equal(0);
    const tarball = path.join(
      packDir,
      fs.readdirSync(packDir).find((f) => f.endsWith(".tgz"))!,
    );
    project = tmpDir("vcr-packed-");
    const pkg = path.join(project, "node_modules/langchain-vcr");
    fs.mkdirSync(pkg, { recursive: true });
    const untar = await runChild("tar", ["-xzf", tarball, "-C", pkg, "--strip-components=1"], { cwd: project, env: process.env, timeoutMs: 30000 });
    expect(untar.status, untar.stderr).to.equal(0);
    for (const dep of ["@langchain", "vitest"]) fs.symlinkSync(path.join(ROOT, "node_modules", dep), path.join(project, "node_modules", dep), "dir");
  });
  after(removeTmpDirs);

  it("every runner entry resolves for require and for import, to files in the tarball", async () => {
    const script = [
      `const { createRequire } = require("node:module");`,
      `const req = createRequire(process.cwd() + "/");`,
      `const out = {};`,
      `for (const e of ${JSON.stringify(ENTRIES)}) out[e] = { require: req.resolve(e) };`,
      `console.log(JSON.stringify(out));`,
    ].join("\n");
    fs.writeFileSync(path.join(project, "resolve.cjs"), script);
    const esm = `const out = {}; for (const e of ${JSON.stringify(ENTRIES)}) out[e] = import.meta.resolve(e); console.log(JSON.stringify(out));\n`;
    fs.writeFileSync(path.join(project, "resolve.mjs"), esm);
    const cjs = await runChild(process.execPath, ["resolve.cjs"], { cwd: project, env: process.env, timeoutMs: 20000 });
    const mjs = await runChild(process.execPath, ["resolve.mjs"], { cwd: project, env: process.env, timeoutMs: 20000 });
    expect(cjs.status, cjs.stderr).to.equal(0);
    expect(mjs.status, mjs.stderr).to.equal(0);
    const required = JSON.parse(cjs.stdout) as Record<string, { require: string }>;
    const imported = JSON.parse(mjs.stdout) as Record<string, string>;
    for (const e of ENTRIES) {
      expect(fs.existsSync(required[e].require), `${e} (require)`).to.equal(true);
      expect(required[e].require.startsWith(path.join(project, "node_modules/langchain-vcr/dist/"))).to.equal(true);
      expect(fs.existsSync(new URL(imported[e]).pathname), `${e} (import)`).to.equal(true);
    }
  });

  it("the vitest plugin loads by import and by require, and its setup file and reporter are in the package", async () => {
    const mjs = [
      `import langchainVcr, { VITEST_SETTLE_FILE, VITEST_SETUP_FILE } from "langchain-vcr/vitest";`,
      `import * as fs from "node:fs";`,
      `const plugin = langchainVcr();`,
      // the plugin's setup file goes first, before the project's own (it counts the test files a worker begins), its settle file last
      `const user = { test: { setupFiles: "./vcr-setup.ts" } };`,
      `const cfg = plugin.config(user);`,
      `plugin.config(user); // vitest may resolve the config twice`,
      `const setupFiles = user.test.setupFiles.map((f) => (f === VITEST_SETUP_FILE ? "plugin" : f === VITEST_SETTLE_FILE ? "settle" : f));`,
      `console.log(JSON.stringify({ name: plugin.name, setup: fs.existsSync(VITEST_SETUP_FILE) && fs.existsSync(VITEST_SETTLE_FILE), setupFiles, reporters: cfg.test.reporters.length }));`,
    ].join("\n");
    const cjs = [
      `const { langchainVcr } = require("langchain-vcr/vitest");`,
      `const Reporter = require("langchain-vcr/jest/reporter");`,
      `console.log(JSON.stringify({ name: langchainVcr().name, reporter: typeof Reporter, hooks: typeof new Reporter({}).onRunComplete }));`,
    ].join("\n");
    fs.writeFileSync(path.join(project, "vitest-plugin.mjs"), mjs);
    fs.writeFileSync(path.join(project, "jest-reporter.cjs"), cjs);
    // the plugin and the reporter start a run: its exchange directory goes into the project
    fs.mkdirSync(path.join(project, "tmp"), { recursive: true });
    const env = { ...process.env, LANGCHAIN_VCR_MODE: "", TMPDIR: path.join(project, "tmp") };
    const a = await runChild(process.execPath, ["vitest-plugin.mjs"], { cwd: project, env, timeoutMs: 20000 });
    const b = await runChild(process.execPath, ["jest-reporter.cjs"], { cwd: project, env, timeoutMs: 20000 });
    expect(a.status, a.stderr).to.equal(0);
    expect(b.status, b.stderr).to.equal(0);
    expect(JSON.parse(a.stdout)).to.deep.equal({ name: "langchain-vcr", setup: true, setupFiles: ["plugin", "./vcr-setup.ts", "settle"], reporters: 2 });
    expect(JSON.parse(b.stdout)).to.deep.equal({ name: "langchain-vcr", reporter: "function", hooks: "function" });
  });

  it("an unknown vitest plugin option ends the run with the valid options, no stack trace", async () => {
    fs.writeFileSync(path.join(project, "bad-option.mjs"), `import langchainVcr from "langchain-vcr/vitest";\nlangchainVcr({ dri: "cassettes" });\n`);
    const out = await runChild(process.execPath, ["bad-option.mjs"], { cwd: project, env: process.env, timeoutMs: 20000 });
    expect(out.status).to.equal(1);
    expect(out.stderr).to.include('langchainVcr() has no option "dri"').and.include("valid: none");
    expect(out.stderr).to.not.match(/^\s+at /m);
  });

  it("every relative link in the README and the docs names a file in the package, and a heading in it when it has an anchor", () => {
    const pkg = path.join(project, "node_modules/langchain-vcr");
    const pages = ["README.md", ...fs.readdirSync(path.join(pkg, "docs")).map((f) => `docs/${f}`)].filter((f) => f.endsWith(".md"));
    expect(pages.length).to.be.greaterThan(10);
    const { broken, count } = brokenLinks(pkg, pages);
    expect(broken).to.deep.equal([]);
    expect(count).to.be.greaterThan(30);
  });
});
