import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { runChild } from "../helpers/child";
import { builtBin } from "../helpers/built";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

const ROOT = path.join(__dirname, "../..");

describe("the built package: ESM and CommonJS entry points", function () {
  this.timeout(120000);
  let fake: FakeProvider;
  before(() => builtBin()); // npm test builds dist/ first
  beforeEach(async () => (fake = await startFakeProvider()));
  afterEach(async () => {
    await fake.close();
    removeTmpDirs();
  });

  for (const [name, script] of [
    ["ESM (import)", "esm.mjs"],
    ["CommonJS (require)", "cjs.cjs"],
  ]) {
    it(`${name}: records, replays with usage, misses with a VcrMissError`, async () => {
      const dir = tmpDir();
      const out = await runChild(process.execPath, [path.join(ROOT, "test/package-smoke", script)], {
        cwd: ROOT,
        env: { ...process.env, FIXTURE_DIR: dir, FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "" },
      });
      expect(out.status, out.stderr).to.equal(0);
      const result = JSON.parse(out.stdout.trim().split("\n").pop()!);
      const q = script.startsWith("esm") ? "esm question" : "cjs question";
      expect(result).to.deep.equal({
        a: `echo: ${q}`,
        b: `echo: ${q}`,
        usage: 5,
        missIsVcr: true,
        code: "VCR_MISS",
        stats: { replayed: 1, recorded: 1, bypassed: 0, missed: 1 },
        hooks: ["afterAll", "afterEach", "beforeAll", "beforeEach"],
      });
      expect(fake.count()).to.equal(1);
    });
  }

  it("type-checks for TypeScript users in ESM (.mts) and CommonJS (.cts) under node16 resolution", async () => {
    const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
    const out = await runChild(process.execPath, [tsc, "-p", path.join(ROOT, "test/package-smoke/tsconfig.json")], { cwd: ROOT, env: process.env });
    expect(out.status, out.stdout + out.stderr).to.equal(0);
  });

  it('type-checks every entry for a TypeScript user on "module": "commonjs" (node10 resolution reads no "exports")', async () => {
    // every subpath of "exports" has its typesVersions entry, so a new one cannot be left out
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    const subpaths = Object.keys(pkg.exports).filter((k) => k !== "." && k !== "./package.json");
    expect(Object.keys(pkg.typesVersions["*"]).map((k) => "./" + k)).to.deep.equal(subpaths);
    const imported = fs.readFileSync(path.join(ROOT, "test/package-smoke/types-node10.ts"), "utf8");
    for (const sub of subpaths) expect(imported, sub).to.include(`"langchain-vcr/${sub.slice(2)}"`);
    const project = tmpDir("vcr-node10-");
    fs.mkdirSync(path.join(project, "node_modules"));
    fs.symlinkSync(ROOT, path.join(project, "node_modules/langchain-vcr"), "dir");
    fs.copyFileSync(path.join(ROOT, "test/package-smoke/types-node10.ts"), path.join(project, "types.ts"));
    const options = { module: "commonjs", moduleResolution: "node10", esModuleInterop: true, strict: true, noEmit: true, skipLibCheck: true, types: [] };
    fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions: options, files: ["types.ts"] }));
    const tsc = path.join(ROOT, "node_modules/typescript/bin/tsc");
    const out = await runChild(process.execPath, [tsc, "-p", project], { cwd: project, env: process.env });
    expect(out.status, out.stdout + out.stderr).to.equal(0);
  });

  it("ships types for both conditions and an executable bin", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    for (const sub of [".", "./mocha"]) {
      for (const cond of ["import", "require"]) {
        const target = pkg.exports[sub][cond];
        expect(fs.existsSync(path.join(ROOT, target.types)), target.types).to.equal(true);
        expect(fs.existsSync(path.join(ROOT, target.default)), target.default).to.equal(true);
      }
    }
    const bin = path.join(ROOT, pkg.bin["langchain-vcr"]);
    expect(fs.readFileSync(bin, "utf8").startsWith("#!/usr/bin/env node")).to.equal(true);
    expect(fs.statSync(bin).mode & 0o111).to.not.equal(0);
    expect(pkg.peerDependencies["@langchain/core"]).to.be.a("string");
  });
});
