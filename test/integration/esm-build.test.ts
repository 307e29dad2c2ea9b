import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { builtBin } from "../helpers/built";
import { runChild } from "../helpers/child";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { readFixtures, tmpDir } from "../helpers/tmp";

const ROOT = path.join(__dirname, "../..");
const LOADED = path.join(ROOT, "test/package-smoke/loaded");
const CORE = path.join(ROOT, "node_modules/@langchain/core/dist");

/** Runs a script of test/package-smoke/loaded: its JSON line, and every ES module it resolved. */
async function runLoaded(script: string, fake: FakeProvider, dir: string) {
  builtBin();
  const log = path.join(tmpDir(), "loaded.log");
  fs.writeFileSync(log, "");
  const out = await runChild(process.execPath, ["--import", path.join(LOADED, "register.mjs"), path.join(LOADED, script)], {
    cwd: ROOT,
    env: { ...process.env, FIXTURE_DIR: dir, FAKE_URL: fake.openaiBaseURL, LOADED_LOG: log, LANGCHAIN_VCR_MODE: "", CI: "" },
  });
  expect(out.status, out.stderr).to.equal(0);
  const result = JSON.parse(out.stdout.trim().split("\n").pop()!) as { a: string; b: string; stats: object; cjsFiles: string[] };
  const esmFiles = fs
    .readFileSync(log, "utf8")
    .split("\n")
    .filter((u) => u.startsWith("file:"))
    .map((u) => new URL(u).pathname);
  return { ...result, esmFiles };
}

const under = (files: string[], dir: string) => files.filter((f) => f.startsWith(dir + path.sep));

describe("the ESM and CommonJS builds load only their own module system", function () {
  this.timeout(120000);
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("import: dist/esm and the ESM copy of @langchain/core, never dist/cjs nor core's CommonJS files", async () => {
    const r = await runLoaded("esm.mjs", fake, dir);
    expect([r.a, r.b]).to.deep.equal(["echo: esm only", "echo: esm only"]);
    expect(r.stats).to.deep.equal({ replayed: 1, recorded: 1, bypassed: 0, missed: 0 });
    expect(fake.count()).to.equal(1);
    expect(under(r.cjsFiles, path.join(ROOT, "dist/cjs"))).to.deep.equal([]);
    expect(r.cjsFiles.filter((f) => f.startsWith(CORE))).to.deep.equal([]);
    expect(under(r.esmFiles, path.join(ROOT, "dist/esm"))).to.include(path.join(ROOT, "dist/esm/bundle/index.js"));
    expect(r.esmFiles).to.include(path.join(CORE, "language_models/chat_models.js"));
  });

  it("require: dist/cjs (its one bundled entry file) and core's CommonJS files, never dist/esm nor the ESM copy of core", async () => {
    const r = await runLoaded("cjs.cjs", fake, dir);
    expect([r.a, r.b]).to.deep.equal(["echo: cjs only", "echo: cjs only"]);
    expect(r.stats).to.deep.equal({ replayed: 1, recorded: 1, bypassed: 0, missed: 0 });
    expect(fake.count()).to.equal(1);
    // one bundled file (scripts/build.mjs): ~84 module files cost `require` twice the time
    expect(under(r.cjsFiles, path.join(ROOT, "dist/cjs"))).to.deep.equal([path.join(ROOT, "dist/cjs/index.js")]);
    expect(r.cjsFiles).to.include(path.join(CORE, "language_models/chat_models.cjs"));
    expect(under(r.esmFiles, path.join(ROOT, "dist/esm"))).to.deep.equal([]);
    expect(r.esmFiles.filter((f) => f.startsWith(CORE))).to.deep.equal([]);
  });

  it("each CommonJS entry, the CLI's too, is one scope (esbuild from the sources): no module wrapper, no per-module copy of a Node built-in, no other code", () => {
    builtBin();
    const entries = ["cli/bin", "index", "jest/esm", "jest/index", "jest/reporter", "mocha/index", "node-test/index", "vitest/index"];
    const shipped = (fs.readdirSync(path.join(ROOT, "dist/cjs"), { recursive: true }) as string[]).filter((f) => f.endsWith(".js"));
    expect(shipped.map((f) => f.slice(0, -3).split(path.sep).join("/")).sort()).to.deep.equal(entries); // beside them, tsc's declarations only
    for (const entry of entries) {
      const text = fs.readFileSync(path.join(ROOT, "dist/cjs", entry + ".js"), "utf8");
      expect(text, entry).to.not.match(/__commonJS\(|Object\.defineProperty\(exports, "__esModule"/); // tsc's CommonJS output, bundled
      // a built-in keeps esbuild's copy only where a default import reads its `default` (node:module in install/embeddings.ts)
      const copies = [...text.matchAll(/var (\w+) = __toESM\(require\("node:[\w/]+"\)\)/g)].map((m) => m[1]);
      for (const name of copies) expect(text, `${entry}: ${name}`).to.match(new RegExp(`\\b${name}\\.default\\b`));
      if (entry === "index") expect(copies, entry).to.have.length(1);
      expect(text.match(/__toESM\(require\("node:/g) ?? [], entry).to.have.length(copies.length); // none in another shape
    }
  });

  it("the error classes keep their names in both bundles (error.name is the class's own name, which a bundler may rename)", async () => {
    builtBin();
    const names = ["VcrError", "VcrMissError", "VcrFixtureError", "VcrConfigError", "VcrSecretError", "VcrRecordError"];
    const script = `console.log(JSON.stringify(${JSON.stringify(names)}.map((n) => m[n].name)))`;
    const cjs = await runChild(process.execPath, ["-e", `const m = require(${JSON.stringify(path.join(ROOT, "dist/cjs/index.js"))}); ${script}`], {
      cwd: ROOT,
      env: process.env,
    });
    const esmEntry = JSON.stringify(path.join(ROOT, "dist/esm/index.mjs"));
    const esm = await runChild(process.execPath, ["--input-type=module", "-e", `import * as m from ${esmEntry}; ${script}`], { cwd: ROOT, env: process.env });
    for (const out of [cjs, esm]) {
      expect(out.status, out.stderr).to.equal(0);
      expect(JSON.parse(out.stdout.trim())).to.deep.equal(names);
    }
  });

  it("one process with both builds (the CommonJS mocha plugin, ESM test files): one test scope, one summary, a cross-build VcrError", async () => {
    builtBin();
    const spec = path.join(ROOT, "test/plugin-specs/recording.spec.mjs");
    const mocha = path.join(ROOT, "node_modules/mocha/bin/mocha.js");
    const out = await runChild(process.execPath, [mocha, "--no-config", "--require", path.join(ROOT, "dist/cjs/mocha/index.js"), spec], {
      cwd: ROOT,
      env: { ...process.env, FIXTURE_DIR: dir, FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "", CI: "", LANGCHAIN_VCR_QUIET: "1" },
    });
    expect(out.status, out.stdout + out.stderr).to.equal(1); // exactly the one failing test
    expect(out.stdout).to.include("2 passing").and.include("1 failing");
    expect(fake.count()).to.equal(3);
    // the plugin (dist/cjs) saw the ESM build's recordings as the failed test's: it removed them
    expect(readFixtures(dir).map((f) => f.request.messages[0].content)).to.deep.equal(["kept question"]);
    expect(out.stderr).to.include(
      'test "a user\'s ESM suite fails after recording" (test/plugin-specs/recording.spec.mjs) failed: removed 2 fixture(s) it recorded',
    );
    const summary = out.stdout.split("\n").filter((l) => l.startsWith("langchain-vcr: "));
    expect(summary).to.deep.equal([
      `langchain-vcr: 0 replayed, 1 recorded (2 more undone: their tests failed), 0 bypassed, 1 missed — mode record_or_replay + replay_only (set in code; the default is record_or_replay), fixtures: ${dir}`,
    ]);
  });
  it("the runner entries (CommonJS and ESM) load no @langchain package: a plugin brings only its own code (the test files load LangChain)", async () => {
    builtBin();
    const entries = ["mocha/index.js", "jest/index.js", "jest/reporter.js", "node-test/index.js", "vitest/index.js"];
    for (const entry of entries) {
      const text = fs.readFileSync(path.join(ROOT, "dist/cjs", entry), "utf8");
      expect(text.match(/require\("@langchain\/[^"]*"\)/g) ?? [], entry).to.deep.equal([]);
    }
    // the ESM plugin bundles too, with every chunk they import
    const bundle = path.join(ROOT, "dist/esm/bundle");
    const reached = (file: string, seen = new Set<string>()): Set<string> => {
      if (seen.has(file)) return seen;
      seen.add(file);
      for (const m of fs.readFileSync(path.join(bundle, file), "utf8").matchAll(/(?:from|import)\s*"\.\/([^"]+)"/g)) reached(m[1], seen);
      return seen;
    };
    for (const entry of ["mocha.js", "vitest.js", "vitest-hooks.js"]) {
      const files = [...reached(entry)];
      expect(files.length, entry).to.be.greaterThan(1); // it imports shared chunks: the walk follows them
      for (const f of files)
        expect(fs.readFileSync(path.join(bundle, f), "utf8").match(/(?:from|import)\s*\(?\s*"@langchain\/[^"]*"/g) ?? [], `${entry} → ${f}`).to.deep.equal([]);
    }
    // and loaded, the mocha and node:test plugins (outside their runner) pull in no package at all
    for (const entry of ["mocha/index.js", "node-test/index.js"]) {
      const out = await runChild(
        process.execPath,
        [
          "-e",
          'require(process.argv[1]); console.log(JSON.stringify(Object.keys(require.cache).filter((f) => f.includes("node_modules"))))',
          path.join(ROOT, "dist/cjs", entry),
        ],
        { cwd: tmpDir(), env: { ...process.env, LANGCHAIN_VCR_MODE: "", LANGCHAIN_VCR_QUIET: "1", CI: "" } },
      );
      expect(out.status, out.stderr).to.equal(0);
      expect(JSON.parse(out.stdout.trim().split("\n")[0]), entry).to.deep.equal([]);
    }
  });
});
