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
import { Vcr } from "../../src/index";
import { tmpDir, removeTmpDirs } from "../helpers/tmp";

/** A CommonJS module, as esbuild writes one, exporting an Embeddings class `name` through a getter; its body counts its runs. */
function moduleFile(dir: string, name: string, underNodeModules = false): string {
  const file = path.join(dir, ...(underNodeModules ? ["node_modules", "pkg"] : []), `${name}.js`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(
    file,
    [
      `const { Embeddings } = require(${JSON.stringify(require.resolve("@langchain/core/embeddings"))});`,
      `const runs = { count: 0 };`,
      `class ${name} extends Embeddings {`,
      `  async embedDocuments(texts) { runs.count++; return texts.map(() => [0.1, 0.2]); }`,
      `  async embedQuery(text) { runs.count++; return [0.1, 0.2]; }`,
      `}`,
      `Object.defineProperty(exports, "__esModule", { value: true });`,
      `Object.defineProperty(exports, "${name}", { enumerable: true, get: () => ${name} });`,
      `Object.defineProperty(exports, "runs", { enumerable: true, get: () => runs });`,
      ``,
    ].join("\n"),
  );
  return file;
}

type Loaded = { runs: { count: number } } & Record<string, new (fields: object) => { embedQuery(t: string): Promise<number[]> }>;

describe("vcr.install(): a project's Embeddings class exported through a getter (tsx, esbuild, SWC output)", () => {
  let dir: string;
  let uninstall: (() => void) | undefined;
  beforeEach(() => (dir = tmpDir()));
  afterEach(() => {
    uninstall?.();
    removeTmpDirs();
  });

  async function embedUnder(loaded: Loaded, name: string): Promise<string> {
    return new loaded[name]({}).embedQuery("hello").then(String, (e: Error) => e.name);
  }

  it("loaded before install() or required after it: a VcrMissError under replay_only, the body run 0 times", async () => {
    const before = require(moduleFile(dir, "EarlyEmbeddings")) as Loaded;
    uninstall = new Vcr({ dir: path.join(dir, "cassettes"), mode: "replay_only" }).install();
    const after = require(moduleFile(dir, "LateEmbeddings")) as Loaded;
    expect([await embedUnder(before, "EarlyEmbeddings"), await embedUnder(after, "LateEmbeddings")]).to.deep.equal(["VcrMissError", "VcrMissError"]);
    expect([before.runs.count, after.runs.count]).to.deep.equal([0, 0]);
  });

  it("a package's module (under node_modules): its getters are not read, the class is not reached", async () => {
    uninstall = new Vcr({ dir: path.join(dir, "cassettes"), mode: "replay_only" }).install();
    const pkg = require(moduleFile(dir, "PackageEmbeddings", true)) as Loaded;
    expect(await embedUnder(pkg, "PackageEmbeddings")).to.equal("0.1,0.2");
    expect(pkg.runs.count).to.equal(1);
  });
});
