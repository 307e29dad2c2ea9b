/**
 * vcr.install() and a project's own Embeddings class exported the way tsx, esbuild and SWC
 * compile an ES module to CommonJS: every export an enumerable getter, no data property. Before,
 * the embeddings scan skipped accessors, so such a class (`node --import tsx`) answered live
 * under replay_only (1 request). Now a module of the project (outside node_modules) has its
 * getters read, whether it was loaded before install() or required after it; a package's
 * getters are still left unread (one that loads lazily would run for our looking).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { installPerTest } from "../helpers/installPerTest";

const CORE_EMBEDDINGS = JSON.stringify(require.resolve("@langchain/core/embeddings"));

/**
 * A CommonJS file `file` defining an Embeddings class `name` whose body counts its runs, exported
 * the way esbuild writes it (`getter`: every export an enumerable getter, defined before the body
 * runs) or tsc does (`data`: assigned once the class is defined); `requires` run in between (a cycle).
 */
function moduleFile(file: string, name: string, style: "getter" | "data" = "getter", requires: string[] = []): string {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const exportsOf = [name, "runs"];
  fs.writeFileSync(
    file,
    [
      `Object.defineProperty(exports, "__esModule", { value: true });`,
      ...(style === "getter" ? exportsOf.map((e) => `Object.defineProperty(exports, "${e}", { enumerable: true, get: () => ${e} });`) : []),
      ...requires.map((r) => `require(${JSON.stringify(r)});`),
      `const { Embeddings } = require(${CORE_EMBEDDINGS});`,
      `const runs = { count: 0 };`,
      `class ${name} extends Embeddings {`,
      `  async embedDocuments(texts) { runs.count++; return texts.map(() => [0.1, 0.2]); }`,
      `  async embedQuery(text) { runs.count++; return [0.1, 0.2]; }`,
      `}`,
      ...(style === "data" ? exportsOf.map((e) => `exports.${e} = ${e};`) : []),
      ``,
    ].join("\n"),
  );
  return file;
}

type Loaded = { runs: { count: number } } & Record<string, new (fields: object) => { embedQuery(t: string): Promise<number[]> }>;

describe("vcr.install(): a project's Embeddings class exported through a getter (tsx, esbuild, SWC output)", () => {
  const vcr = installPerTest();
  let dir = "";
  beforeEach(() => (dir = vcr.dir()));

  async function embedUnder(loaded: Loaded, name: string): Promise<string> {
    return new loaded[name]({}).embedQuery("hello").then(String, (e: Error) => e.name);
  }

  it("loaded before install() or required after it: a VcrMissError under replay_only, the body run 0 times", async () => {
    const before = require(moduleFile(path.join(dir, "early.js"), "EarlyEmbeddings")) as Loaded;
    vcr.install("replay_only", path.join(dir, "cassettes"));
    const after = require(moduleFile(path.join(dir, "late.js"), "LateEmbeddings")) as Loaded;
    expect([await embedUnder(before, "EarlyEmbeddings"), await embedUnder(after, "LateEmbeddings")]).to.deep.equal(["VcrMissError", "VcrMissError"]);
    expect([before.runs.count, after.runs.count]).to.deep.equal([0, 0]);
  });

  it("a package's module (under node_modules): its getters are not read, the class is not reached", async () => {
    vcr.install("replay_only", path.join(dir, "cassettes"));
    const pkg = require(moduleFile(path.join(dir, "node_modules", "pkg", "index.js"), "PackageEmbeddings")) as Loaded;
    expect(await embedUnder(pkg, "PackageEmbeddings")).to.equal("0.1,0.2");
    expect(pkg.runs.count).to.equal(1);
  });

  it("a workspace package linked into node_modules, required by its name: read as the project's (its real file), a VcrMissError, 0 runs", async () => {
    const file = moduleFile(path.join(dir, "packages", "emb", "index.js"), "WorkspaceEmbeddings");
    fs.writeFileSync(path.join(dir, "packages", "emb", "package.json"), JSON.stringify({ name: "@app/emb", main: "index.js" }));
    fs.mkdirSync(path.join(dir, "node_modules", "@app"), { recursive: true });
    fs.symlinkSync(path.dirname(file), path.join(dir, "node_modules", "@app", "emb"), "dir");
    const consumer = path.join(dir, "consumer.js");
    fs.writeFileSync(consumer, `module.exports = require("@app/emb");\n`);
    vcr.install("replay_only", path.join(dir, "cassettes"));
    const linked = require(consumer) as Loaded;
    expect(await embedUnder(linked, "WorkspaceEmbeddings")).to.equal("VcrMissError");
    expect(linked.runs.count).to.equal(0);
  });

  for (const style of ["data", "getter"] as const) {
    it(`a module in a require cycle (${style === "data" ? "tsc" : "esbuild"} exports): scanned once it has loaded, a VcrMissError, 0 runs`, async () => {
      // a.js requires b.js before defining its class; b.js requires a.js back, and gets a's exports while a is still loading
      const a = path.join(dir, "a.js");
      fs.writeFileSync(path.join(dir, "b.js"), `exports.fromA = require("./a.js");\n`);
      moduleFile(a, "CycleEmbeddings", style, ["./b.js"]);
      vcr.install("replay_only", path.join(dir, "cassettes"));
      const loaded = require(a) as Loaded;
      expect(await embedUnder(loaded, "CycleEmbeddings")).to.equal("VcrMissError");
      expect(loaded.runs.count).to.equal(0);
    });
  }

  it("a barrel in a require cycle (esbuild's getters, each of its 40 modules requiring it back): its getters read once each, not again on every require while it loads", () => {
    // before: 40 reads on each of the 40 requires made while it loaded (a 3,000-module barrel took 56 s to load)
    const n = 40;
    const barrel = path.join(dir, "barrel", "index.js");
    fs.mkdirSync(path.dirname(barrel), { recursive: true });
    fs.writeFileSync(
      barrel,
      [
        `const reads = { count: 0 };`,
        `Object.defineProperty(exports, "reads", { value: reads });`,
        ...Array.from({ length: n }, (_, i) => `Object.defineProperty(exports, "E${i}", { enumerable: true, get: () => (reads.count++, m${i}.E) });`),
        ...Array.from({ length: n }, (_, i) => `const m${i} = require("./m${i}.js");`),
        ``,
      ].join("\n"),
    );
    for (let i = 0; i < n; i++) fs.writeFileSync(path.join(dir, "barrel", `m${i}.js`), `require("./index.js");\nexports.E = class E${i} {};\n`);
    vcr.install("replay_only", path.join(dir, "cassettes"));
    const loaded = require(barrel) as { reads: { count: number } };
    expect(loaded.reads.count).to.equal(n);
  });
});
