/**
 * `vcr.install()` in an ES-module process under strict node_modules layouts, where langchain-vcr
 * cannot resolve @langchain/openai from where it is installed (it declares no integration):
 * - a pnpm workspace with `hoist=false`: langchain-vcr in the store beside its one peer, core; the
 *   app's copy of @langchain/openai linked into the app; another version in the store, built
 *   over the same core or over a core copy of its own;
 * - an npm workspace whose app package has its own nested @langchain/openai;
 * - an npm workspace run from one package, whose sibling package holds its own copies.
 * Every copy's OpenAIEmbeddings must be reached: under replay_only an unrecorded embedQuery is a
 * VcrMissError with 0 requests, never a silent live call. A pnpm store that merely sits in a
 * directory above the project is not the project's: nothing of it is loaded.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { builtBin } from "../helpers/built";
import { runChild } from "../helpers/child";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { tmpDir } from "../helpers/tmp";

const ROOT = path.resolve(__dirname, "../..");
const NM = path.join(ROOT, "node_modules");

function link(from: string, to: string): void {
  fs.mkdirSync(path.dirname(from), { recursive: true });
  if (fs.existsSync(from)) return; // a dependency two copied packages share
  fs.symlinkSync(to, from, "dir");
}

/** langchain-vcr as its tarball installs it (package.json and dist) in `dir`, with its peer, core, linked beside it. */
function installVcr(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.copyFileSync(path.join(ROOT, "package.json"), path.join(dir, "package.json"));
  fs.cpSync(path.join(ROOT, "dist"), path.join(dir, "dist"), { recursive: true });
  link(path.join(path.dirname(dir), "@langchain/core"), path.join(NM, "@langchain/core"));
}

/**
 * A pnpm workspace (hoist=false): langchain-vcr in the store beside its core, linked into the app
 * package `packages/app` (an ES-module package). `store`: where to lay out more copies.
 */
function pnpmWorkspace(): { store: string; vcrDir: string; app: string } {
  const root = tmpDir();
  const store = path.join(root, "node_modules/.pnpm");
  const vcrDir = path.join(store, "langchain-vcr@0.1.0_@langchain+core@1.4.0/node_modules/langchain-vcr");
  installVcr(vcrDir);
  const app = path.join(root, "packages/app");
  link(path.join(app, "node_modules/langchain-vcr"), vcrDir);
  fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
  return { store, vcrDir, app };
}

/** A copy of this repository's `pkg` at `dir` (`<store entry>/node_modules/<pkg>`), its dependencies linked beside it (`core`: its core). */
function copyPackage(pkg: string, dir: string, core = path.join(NM, "@langchain/core")): void {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  fs.cpSync(path.join(NM, pkg), dir, { recursive: true, dereference: true });
  const meta = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
  const siblings = pkg.startsWith("@") ? path.dirname(path.dirname(dir)) : path.dirname(dir);
  for (const dep of Object.keys({ ...meta.dependencies, ...meta.peerDependencies }))
    link(path.join(siblings, dep), dep === "@langchain/core" ? core : path.join(NM, dep));
}

/**
 * In `store`: a copy of core whose BaseChatModel lacks `_generateCached` (as an old version would), and
 * a copy of @langchain/openai over it; returns the integration's directory.
 */
function brokenCopyIn(store: string): string {
  const brokenCore = path.join(store, "@langchain+core@0.9.0/node_modules/@langchain/core");
  copyPackage("@langchain/core", brokenCore);
  for (const file of ["dist/language_models/chat_models.js", "dist/language_models/chat_models.cjs"]) {
    const text = fs.readFileSync(path.join(brokenCore, file), "utf8");
    expect(text).to.include("async _generateCached(");
    fs.writeFileSync(path.join(brokenCore, file), text.replace("async _generateCached(", "async _generateCachedRenamed("));
  }
  const integration = path.join(store, "@langchain+openai@1.5.0_@langchain+core@0.9.0/node_modules/@langchain/openai");
  copyPackage("@langchain/openai", integration, brokenCore);
  return integration;
}

/** The VcrConfigError (code and message) naming the broken copy of core and the integration that uses it. */
const BROKEN_COPY_ERROR = new RegExp(
  String.raw`^VCR_CONFIG: langchain-vcr: cannot work with the copy of @langchain/core in \S+@langchain\+core@0\.9\.0\S+, which [^\n]*@langchain\+openai@1\.5\.0[^\n]* uses: it has no BaseChatModel\.prototype\._generateCached\.\n  that copy: @langchain/core `,
);

const SCRIPT = `
import { Vcr } from "langchain-vcr";
const vcr = new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" });
vcr.install();
const report = {};
for (const [copy, from] of JSON.parse(process.env.COPIES)) {
  const { OpenAIEmbeddings } = await import(from);
  const e = new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "k", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });
  report[copy] = await e.embedQuery("never recorded (" + copy + ")").then(() => "live answer", (err) => err.code ?? err.message);
}
console.log(JSON.stringify(report));
`;

describe("vcr.install() under a strict node_modules layout", function () {
  this.timeout(90000);
  let fake: FakeProvider;
  let fixtures: string;
  useFakeAndDir((f, d) => ((fake = f), (fixtures = d)));

  /** Runs the script in `app` over the given copies (name → import specifier); checks langchain-vcr alone cannot resolve the integration. */
  async function run(app: string, vcrDir: string, copies: [string, string][]): Promise<Record<string, string>> {
    const probe = await runChild(
      process.execPath,
      ["-e", `try { require.resolve("@langchain/openai", { paths: [${JSON.stringify(vcrDir)}] }); console.log("found") } catch { console.log("not found") }`],
      {
        cwd: app,
        env: { ...process.env, NODE_PATH: "" },
      },
    );
    expect(probe.stdout.trim(), "the layout hides the integration from langchain-vcr").to.equal("not found");
    fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    fs.writeFileSync(path.join(app, "repro.mjs"), SCRIPT);
    return (await runScript(app, "repro.mjs", { COPIES: JSON.stringify(copies) })) as Record<string, string>;
  }

  /** Runs `file` in `app` (the fake's URL and the fixture dir in its env); what it printed last, parsed. */
  async function runScript(app: string, file: string, env: NodeJS.ProcessEnv = {}): Promise<unknown> {
    const out = await runChild(process.execPath, [file], {
      cwd: app,
      env: { ...process.env, NODE_PATH: "", FIXTURE_DIR: fixtures, FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "", ...env },
      timeoutMs: 60000,
    });
    expect(out.status, out.stdout + out.stderr).to.equal(0);
    return JSON.parse(out.stdout.trim().split("\n").pop()!) as unknown;
  }

  it("a pnpm workspace (hoist=false): the app's copy and the store's other versions, over the same core or a core of their own, all miss with 0 requests", async () => {
    builtBin();
    const { store, vcrDir, app } = pnpmWorkspace();
    const appCopy = path.join(store, "@langchain+openai@1.6.0_@langchain+core@1.4.0/node_modules/@langchain/openai");
    link(appCopy, path.join(NM, "@langchain/openai"));
    const sameCore = path.join(store, "@langchain+openai@1.5.0_@langchain+core@1.4.0/node_modules/@langchain/openai");
    copyPackage("@langchain/openai", sameCore);
    // another version over a copy of core of its own, as pnpm lays out a package whose peer is another version
    const otherCore = path.join(store, "@langchain+core@1.3.0/node_modules/@langchain/core");
    copyPackage("@langchain/core", otherCore);
    const ownCore = path.join(store, "@langchain+openai@1.5.0_@langchain+core@1.3.0/node_modules/@langchain/openai");
    copyPackage("@langchain/openai", ownCore, otherCore);
    link(path.join(app, "node_modules/@langchain/openai"), appCopy);

    const report = await run(app, vcrDir, [
      ["app", "@langchain/openai"],
      ["same core", path.join(sameCore, "dist/index.js")],
      ["own core", path.join(ownCore, "dist/index.js")],
    ]);
    expect(report).to.deep.equal({ app: "VCR_MISS", "same core": "VCR_MISS", "own core": "VCR_MISS" });
    expect(fake.count()).to.equal(0);
  });

  it("an npm workspace whose app has its own nested copy: it misses with 0 requests; a pnpm store in a directory above the project is never loaded", async () => {
    builtBin();
    const outer = tmpDir();
    // a store above the project that is not its own: its "integration" would leave a mark if loaded
    const foreign = path.join(outer, "node_modules/.pnpm/@langchain+openai@6.6.6/node_modules/@langchain/openai");
    fs.mkdirSync(foreign, { recursive: true });
    const mark = path.join(outer, "foreign-loaded");
    fs.writeFileSync(
      path.join(foreign, "package.json"),
      JSON.stringify({ name: "@langchain/openai", version: "6.6.6", type: "module", exports: { ".": { import: "./index.js" } } }),
    );
    fs.writeFileSync(path.join(foreign, "index.js"), `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(mark)}, "loaded");\n`);
    const root = path.join(outer, "project");
    const vcrDir = path.join(root, "node_modules/langchain-vcr");
    installVcr(vcrDir);
    const app = path.join(root, "packages/app");
    link(path.join(app, "node_modules/@langchain/openai"), path.join(NM, "@langchain/openai"));

    const report = await run(app, vcrDir, [["app", "@langchain/openai"]]);
    expect(report).to.deep.equal({ app: "VCR_MISS" });
    expect(fake.count()).to.equal(0);
    expect(fs.existsSync(mark), "the foreign store's package was loaded").to.equal(false);
  });

  it("an npm workspace run from one package (packages/tests) whose sibling package (packages/legacy) has its own @langchain/openai over its own core: it misses with 0 requests, and so does a model the sibling defines on its core (both answered live before)", async () => {
    builtBin();
    const root = tmpDir();
    fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*", "!packages/ignored"] }));
    const vcrDir = path.join(root, "node_modules/langchain-vcr");
    installVcr(vcrDir);
    const legacy = path.join(root, "packages/legacy");
    const legacyCore = path.join(legacy, "node_modules/@langchain/core");
    copyPackage("@langchain/core", legacyCore);
    copyPackage("@langchain/openai", path.join(legacy, "node_modules/@langchain/openai"), legacyCore);
    fs.writeFileSync(path.join(legacy, "package.json"), JSON.stringify({ name: "legacy", private: true, type: "module" }));
    // a chat model of the package's own, on its nested core
    fs.writeFileSync(
      path.join(legacy, "own.js"),
      [
        `import { BaseChatModel } from "@langchain/core/language_models/chat_models";`,
        `import { AIMessage } from "@langchain/core/messages";`,
        `export class OwnChat extends BaseChatModel {`,
        `  _llmType() { return "own"; }`,
        `  async _generate(messages) { await fetch(process.env.FAKE_URL + "/chat/completions", { method: "POST", body: "{}" }).catch(() => {}); return { generations: [{ text: "live", message: new AIMessage("live") }] }; }`,
        `}`,
        ``,
      ].join("\n"),
    );
    const tests = path.join(root, "packages/tests");
    fs.mkdirSync(tests, { recursive: true });
    fs.writeFileSync(path.join(tests, "package.json"), JSON.stringify({ name: "tests", private: true, type: "module" }));
    fs.writeFileSync(
      path.join(tests, "own.mjs"),
      [
        `import { Vcr } from "langchain-vcr";`,
        `new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" }).install();`,
        `const { OwnChat } = await import(${JSON.stringify(path.join(legacy, "own.js"))});`,
        `console.log(JSON.stringify(await new OwnChat({}).invoke("never recorded").then(() => "live answer", (e) => e.code ?? e.message)));`,
        ``,
      ].join("\n"),
    );
    const report = await run(tests, vcrDir, [["legacy", path.join(legacy, "node_modules/@langchain/openai/dist/index.js")]]);
    expect(report).to.deep.equal({ legacy: "VCR_MISS" });
    expect(await runScript(tests, "own.mjs")).to.equal("VCR_MISS");
    expect(fake.count()).to.equal(0);
  });

  it("a pnpm store whose other version of an integration is over a copy of core lacking a relied-on internal: install() is the VcrConfigError naming that copy, and so is a second; 0 requests", async () => {
    builtBin();
    const { store, app } = pnpmWorkspace();
    brokenCopyIn(store);
    link(path.join(app, "node_modules/@langchain/openai"), path.join(NM, "@langchain/openai"));
    fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    fs.writeFileSync(
      path.join(app, "install.mjs"),
      [
        `import { Vcr } from "langchain-vcr";`,
        `const vcr = new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" });`,
        `const tries = [0, 1].map(() => { try { vcr.install(); return "installed"; } catch (e) { return e.code + ": " + e.message; } });`,
        `console.log(JSON.stringify(tries));`,
        ``,
      ].join("\n"),
    );
    const tries = (await runScript(app, "install.mjs")) as string[];
    expect(tries).to.have.length(2);
    for (const t of tries) expect(t).to.match(BROKEN_COPY_ERROR);
    // a copy in a pnpm store: pnpm's own command, and what to do about a copy pnpm kept after its last use
    expect(tries[0]).to.include("  Fix it: `pnpm why @langchain/core` shows which package brings that copy;");
    expect(tries[0]).to.include("`pnpm install --config.modules-cache-max-age=0` removes it.");
    expect(fake.count()).to.equal(0);
  });

  it("an ES-module process: a chat model from a store copy of @langchain/anthropic over a core of its own, imported after install(), misses under replay_only; 0 requests (it used to answer live)", async () => {
    builtBin();
    const { store, app } = pnpmWorkspace();
    const otherCore = path.join(store, "@langchain+core@1.3.0/node_modules/@langchain/core");
    copyPackage("@langchain/core", otherCore);
    const anthropic = path.join(store, "@langchain+anthropic@1.5.0_@langchain+core@1.3.0/node_modules/@langchain/anthropic");
    copyPackage("@langchain/anthropic", anthropic, otherCore);
    fs.writeFileSync(
      path.join(app, "chat.mjs"),
      [
        `import { Vcr } from "langchain-vcr";`,
        `new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" }).install();`,
        `const { ChatAnthropic } = await import(${JSON.stringify(path.join(anthropic, "dist/index.js"))});`,
        `const model = new ChatAnthropic({ model: "claude-haiku-4-5", apiKey: "k", maxRetries: 0, anthropicApiUrl: process.env.FAKE_URL });`,
        `console.log(JSON.stringify(await model.invoke("never recorded").then(() => "live answer", (e) => e.code ?? e.message)));`,
        ``,
      ].join("\n"),
    );
    expect(await runScript(app, "chat.mjs")).to.equal("VCR_MISS");
    expect(fake.count()).to.equal(0);
  });

  it("a pnpm workspace with shared-workspace-lockfile=false (pnpm-workspace.yaml, a store per package): the app package's ChatOpenAI and OpenAIEmbeddings, over the app's own core, miss with 0 requests (both answered live before)", async () => {
    builtBin();
    const root = tmpDir();
    fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "mono", private: true }));
    fs.writeFileSync(path.join(root, "pnpm-workspace.yaml"), `packages:\n  - "packages/*" # each with its own store\n`);
    // packages/tests: langchain-vcr (and its peer, core) in the tests package's own store
    const tests = path.join(root, "packages/tests");
    const vcrDir = path.join(tests, "node_modules/.pnpm/langchain-vcr@0.2.0_@langchain+core@1.4.0/node_modules/langchain-vcr");
    installVcr(vcrDir);
    link(path.join(tests, "node_modules/langchain-vcr"), vcrDir);
    fs.writeFileSync(path.join(tests, "package.json"), JSON.stringify({ name: "tests", private: true, type: "module" }));
    // packages/app: @langchain/openai over a core of the app's own, in the app package's store
    const app = path.join(root, "packages/app");
    const appStore = path.join(app, "node_modules/.pnpm");
    const appCore = path.join(appStore, "@langchain+core@1.3.0/node_modules/@langchain/core");
    copyPackage("@langchain/core", appCore);
    const appOpenai = path.join(appStore, "@langchain+openai@1.6.0_@langchain+core@1.3.0/node_modules/@langchain/openai");
    copyPackage("@langchain/openai", appOpenai, appCore);
    link(path.join(app, "node_modules/@langchain/openai"), appOpenai);
    fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    fs.writeFileSync(
      path.join(app, "index.js"),
      [
        `import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";`,
        `const client = { apiKey: "k", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } };`,
        `export const ask = (q) => new ChatOpenAI({ model: "gpt-4o-mini", ...client }).invoke(q);`,
        `export const embed = (t) => new OpenAIEmbeddings({ model: "text-embedding-3-small", ...client }).embedQuery(t);`,
        ``,
      ].join("\n"),
    );
    fs.writeFileSync(
      path.join(tests, "app.mjs"),
      [
        `import { Vcr } from "langchain-vcr";`,
        `await new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" }).install().ready;`,
        `const { ask, embed } = await import("../app/index.js");`,
        `const miss = (p) => p.then(() => "live answer", (e) => e.code ?? e.message);`,
        `console.log(JSON.stringify({ chat: await miss(ask("never recorded")), embeddings: await miss(embed("never recorded")) }));`,
        ``,
      ].join("\n"),
    );
    expect(await runScript(tests, "app.mjs")).to.deep.equal({ chat: "VCR_MISS", embeddings: "VCR_MISS" });
    expect(fake.count()).to.equal(0);
  });

  describe("in a CommonJS process", () => {
    const CJS_SCRIPT = `
const { Vcr } = require("langchain-vcr");
const copies = JSON.parse(process.env.COPIES);
const report = {};
const loaded = {};
const load = (copy, as = copy) => { try { loaded[as] = require(copies[copy]); } catch (e) { report[as] = e.code + ": " + e.message; } };
for (const copy of Object.keys(copies)) if (copy.startsWith("before")) load(copy);
try { new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" }).install(); } catch (e) { report.install = e.code + ": " + e.message; }
for (const copy of Object.keys(copies)) if (!copy.startsWith("before")) load(copy);
// then as a retry or a lazy require would; then after the cache is cleared: each store module loaded again
for (const copy of Object.keys(copies)) if (!copy.startsWith("before")) load(copy, copy + ", required again");
for (const k of Object.keys(require.cache)) if (k.includes("/.pnpm/")) delete require.cache[k];
for (const copy of Object.keys(copies)) if (!copy.startsWith("before")) load(copy, copy + ", loaded again");
(async () => {
  for (const [copy, m] of Object.entries(report.install ? {} : loaded)) {
    const client = { apiKey: "k", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } };
    const miss = (p) => p.then(() => "live answer", (e) => e.code ?? e.message);
    report[copy] = [
      await miss(new m.OpenAIEmbeddings({ model: "text-embedding-3-small", ...client }).embedQuery("never recorded (" + copy + ")")),
      await miss(new m.ChatOpenAI({ model: "gpt-4o-mini", ...client }).invoke("never recorded (" + copy + ")")),
    ];
  }
  console.log(JSON.stringify(report));
})();
`;

    async function runCjs(copies: Record<string, string>): Promise<Record<string, unknown>> {
      const app = path.join(tmpDir(), "app");
      fs.mkdirSync(app, { recursive: true });
      link(path.join(app, "node_modules/langchain-vcr"), ROOT);
      fs.writeFileSync(path.join(app, "run.cjs"), CJS_SCRIPT);
      return (await runScript(app, "run.cjs", { COPIES: JSON.stringify(copies) })) as Record<string, unknown>;
    }

    /** A copy of @langchain/openai over a copy of core of its own, in a pnpm-like store; its CommonJS entry. */
    function ownCoreCopy(store: string, coreVersion: string): string {
      const core = path.join(store, `@langchain+core@${coreVersion}/node_modules/@langchain/core`);
      copyPackage("@langchain/core", core);
      const openai = path.join(store, `@langchain+openai@1.5.0_@langchain+core@${coreVersion}/node_modules/@langchain/openai`);
      copyPackage("@langchain/openai", openai, core);
      return path.join(openai, "dist/index.cjs");
    }

    it("an integration over a copy of core of its own, required before install(), after it, or again after require.cache is cleared: its chat model and embeddings miss under replay_only; 0 requests (they used to answer live)", async () => {
      builtBin();
      const store = path.join(tmpDir(), "node_modules/.pnpm");
      const report = await runCjs({ "before install": ownCoreCopy(store, "1.3.0"), "after install": ownCoreCopy(store, "1.3.1") });
      expect(report).to.deep.equal({
        "before install": ["VCR_MISS", "VCR_MISS"],
        "after install": ["VCR_MISS", "VCR_MISS"],
        "after install, required again": ["VCR_MISS", "VCR_MISS"],
        "after install, loaded again": ["VCR_MISS", "VCR_MISS"],
      });
      expect(fake.count()).to.equal(0);
    });

    it("over a copy of core lacking a relied-on internal: required before install(), install() is the VcrConfigError naming it; required after, that require is, and so is the same require again; 0 requests", async () => {
      builtBin();
      const before = path.join(brokenCopyIn(path.join(tmpDir(), "node_modules/.pnpm")), "dist/index.cjs");
      const after = path.join(brokenCopyIn(path.join(tmpDir(), "node_modules/.pnpm")), "dist/index.cjs");
      const first = await runCjs({ "before install": before });
      expect(Object.keys(first)).to.deep.equal(["install"]); // nothing installed: no model is called
      expect(first.install).to.match(BROKEN_COPY_ERROR); // who uses it: the integration file that required it;
      const second = await runCjs({ "after install": after });
      expect(Object.keys(second)).to.deep.equal(["after install", "after install, required again", "after install, loaded again"]);
      for (const attempt of Object.values(second)) expect(attempt).to.match(BROKEN_COPY_ERROR);
      expect(fake.count()).to.equal(0);
    });
  });
});
