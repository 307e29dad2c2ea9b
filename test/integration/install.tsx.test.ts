/**
 * `vcr.install()` when tsx is registered before it (`node --import tsx`, the README's node:test
 * recipe with a setup file after it): tsx compiles an ES module that `require()` loads into a
 * CommonJS copy of its own. install() loads the ESM copy of @langchain/core, and in an ES-module
 * process the known integrations' ESM entries, with `require()`; patching tsx's copies left the
 * real ES modules live. Measured before the fix: a string model (createAgent, initChatModel) in a
 * CommonJS process answered live (1 request each), and OpenAIEmbeddings in an ES-module process
 * too (1 request), with `vcr.stats()` all zero. Now each is a VcrMissError with 0 requests.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { runChild } from "../helpers/child";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { tmpDir } from "../helpers/tmp";

const ROOT = path.resolve(__dirname, "../..");

/** A project in a temporary directory: `package.json` of `type`, the repository's node_modules, and `files`. */
function project(type: "commonjs" | "module", files: Record<string, string>): string {
  const dir = tmpDir();
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "app", private: true, type }));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
  return dir;
}

/** What each call threw (its error's name), or "answered" when it reached the provider. */
const OUTCOME = `async function outcome(call) {
  try { await call(); return "answered"; } catch (e) { return e.name; }
}`;

describe("vcr.install() under tsx registered first (node --import tsx)", function () {
  this.timeout(60000);
  let fake: FakeProvider;
  let fixtures: string;
  useFakeAndDir((f, d) => ((fake = f), (fixtures = d)));

  async function run(dir: string, file: string): Promise<Record<string, string>> {
    const out = await runChild(process.execPath, ["--import", "tsx", file], {
      cwd: dir,
      env: { ...process.env, NODE_PATH: "", FIXTURE_DIR: fixtures, FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "" },
    });
    expect(out.status, out.stderr).to.equal(0);
    return JSON.parse(out.stdout.trim().split("\n").pop()!) as Record<string, string>;
  }

  it("a CommonJS process: string models (createAgent, initChatModel) miss under replay_only with 0 requests", async () => {
    const dir = project("commonjs", {
      "app.cjs": `
const { Vcr } = require(${JSON.stringify(path.join(ROOT, "dist/cjs/index.js"))});
const vcr = new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" });
vcr.install();
process.env.OPENAI_BASE_URL = process.env.FAKE_URL;
process.env.OPENAI_API_KEY = "sk-test-0000";
const { createAgent } = require("langchain");
const { initChatModel } = require("langchain/chat_models/universal");
${OUTCOME}
(async () => {
  const agent = await outcome(() => createAgent({ model: "openai:gpt-4o-mini", tools: [] }).invoke({ messages: [{ role: "user", content: "hi" }] }));
  const init = await outcome(async () => (await initChatModel("openai:gpt-4o-mini", { maxRetries: 0 })).invoke("hi"));
  console.log(JSON.stringify({ agent, init, missed: String(vcr.stats().missed) }));
})();
`,
    });
    expect(await run(dir, "app.cjs")).to.deep.equal({ agent: "VcrMissError", init: "VcrMissError", missed: "2" });
    expect(fake.count()).to.equal(0);
  });

  it("an ES-module process: OpenAIEmbeddings, imported after install(), misses under replay_only with 0 requests once `uninstall.ready` settles", async () => {
    // install() wraps the class when its own import() resolves. On Node 20 that came before the app's import did; on Node 24
    // the app's came first, and a call made at once went live (measured: 1 request). Code outside a test waits (docs/zero-touch.md).
    const dir = project("module", {
      "app.mjs": `
import { Vcr } from ${JSON.stringify(path.join(ROOT, "dist/esm/index.mjs"))};
const vcr = new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" });
const uninstall = vcr.install();
const { OpenAIEmbeddings } = await import("@langchain/openai");
await uninstall.ready;
${OUTCOME}
const embeddings = new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "sk-test-0000", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });
const query = await outcome(() => embeddings.embedQuery("hello"));
const documents = await outcome(() => embeddings.embedDocuments(["a"]));
console.log(JSON.stringify({ query, documents, missed: String(vcr.stats().missed) }));
`,
    });
    expect(await run(dir, "app.mjs")).to.deep.equal({ query: "VcrMissError", documents: "VcrMissError", missed: "2" });
    expect(fake.count()).to.equal(0);
  });

  it("a CommonJS process: the project's Embeddings class required through a tsconfig paths alias misses under replay_only, its body run 0 times", async () => {
    const dir = project("commonjs", {
      "tsconfig.json": JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@app/*": ["src/*"] } } }),
      "app.ts": `
const { Vcr } = require(${JSON.stringify(path.join(ROOT, "dist/cjs/index.js"))});
const vcr = new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" });
vcr.install();
const { MyEmbeddings, runs } = require("@app/embed");
${OUTCOME}
(async () => {
  const query = await outcome(() => new MyEmbeddings().embedQuery("hello"));
  console.log(JSON.stringify({ query, runs: String(runs.count) }));
})();
`,
    });
    fs.mkdirSync(path.join(dir, "src"));
    fs.writeFileSync(
      path.join(dir, "src", "embed.ts"),
      `import { Embeddings } from "@langchain/core/embeddings";
export const runs = { count: 0 };
export class MyEmbeddings extends Embeddings {
  constructor() { super({}); }
  async embedDocuments(texts: string[]) { runs.count++; return texts.map(() => [0.1]); }
  async embedQuery(text: string) { runs.count++; return [0.1]; }
}
`,
    );
    expect(await run(dir, "app.ts")).to.deep.equal({ query: "VcrMissError", runs: "0" });
  });

  it("an ES-module process that imported OpenAIEmbeddings before install(): after `await uninstall.ready` its calls miss under replay_only, 0 requests", async () => {
    // install() wraps the class when its import() resolves; `ready` settles after that (before, a call right after install() went live)
    const dir = project("module", {
      "app.mjs": `
import { OpenAIEmbeddings } from "@langchain/openai";
import { Vcr } from ${JSON.stringify(path.join(ROOT, "dist/esm/index.mjs"))};
const vcr = new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" });
const uninstall = vcr.install();
await uninstall.ready;
${OUTCOME}
const embeddings = new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "sk-test-0000", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });
const query = await outcome(() => embeddings.embedQuery("hello"));
console.log(JSON.stringify({ query, missed: String(vcr.stats().missed) }));
`,
    });
    expect(await run(dir, "app.mjs")).to.deep.equal({ query: "VcrMissError", missed: "1" });
    expect(fake.count()).to.equal(0);
  });
});
