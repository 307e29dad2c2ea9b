/**
 * `vcr.install()` from a CommonJS setup file (node:test's `--require ./vcr-setup.cjs`) with ES-module
 * test files, where `require()` cannot load ES modules (Yarn PnP's zip archives on Node 20, an older
 * Node; here --no-experimental-require-module): the ESM copy of @langchain/core and the known
 * integrations' Embeddings classes are both loaded with `import()`. The scan of an integration
 * knows its classes by the copy of core's `Embeddings` they extend, which the core patch
 * registers, so it must come after that patch. Found in a user trial under Yarn PnP: in some runs
 * the integration's import finished first, its scan found no class, wrapped nothing and never
 * looked again, and OpenAIEmbeddings answered live under CI=true with the summary at "0 missed".
 * Here a loader hook holds langchain-vcr's own import() of core's files (by file URL; a provider
 * imports them by package name), so the scan's import finishes first.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { runChild } from "../helpers/child";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { tmpDir } from "../helpers/tmp";

const ROOT = path.resolve(__dirname, "../..");
const NO_REQUIRE_ESM = "--no-experimental-require-module";

/** Holds each import() of a core file by its file URL (how langchain-vcr loads core) for 300 ms. */
const SLOW_CORE_HOOK = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith("file:") && specifier.includes("/@langchain/core/")) await new Promise((r) => setTimeout(r, 300));
  return next(specifier, context);
}`;

describe("vcr.install() scans an integration imported with import() after the copy of core it extends is patched", function () {
  this.timeout(60000);
  let fake: FakeProvider;
  let fixtures: string;
  useFakeAndDir((f, d) => ((fake = f), (fixtures = d)));

  it("a CommonJS setup file's install(), core's files loading slowly: OpenAIEmbeddings in an ES module, imported after `await uninstall.ready`, misses under replay_only with 0 requests (it answered live before)", async function () {
    if (!process.allowedNodeEnvironmentFlags.has(NO_REQUIRE_ESM)) this.skip();
    const dir = tmpDir();
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "app", private: true, type: "module" }));
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
    // a CommonJS setup file (node:test's --require ./vcr-setup.cjs), whose install() cannot require() core's ES modules
    fs.writeFileSync(
      path.join(dir, "vcr-setup.cjs"),
      [
        `require("node:module").register("data:text/javascript," + encodeURIComponent(${JSON.stringify(SLOW_CORE_HOOK)}));`,
        `const { Vcr } = require(${JSON.stringify(path.join(ROOT, "dist/cjs/index.js"))});`,
        `globalThis.vcr = new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" });`,
        `globalThis.ready = globalThis.vcr.install().ready;`,
        ``,
      ].join("\n"),
    );
    fs.writeFileSync(
      path.join(dir, "app.mjs"),
      [
        `await globalThis.ready;`,
        `const { OpenAIEmbeddings } = await import("@langchain/openai");`,
        `const embeddings = new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "sk-test-0000", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });`,
        `const query = await embeddings.embedQuery("hello").then(() => "answered", (e) => e.name);`,
        `console.log(JSON.stringify({ query, missed: globalThis.vcr.stats().missed }));`,
        ``,
      ].join("\n"),
    );
    const out = await runChild(process.execPath, [NO_REQUIRE_ESM, "--require", "./vcr-setup.cjs", "app.mjs"], {
      cwd: dir,
      env: { ...process.env, NODE_PATH: "", FIXTURE_DIR: fixtures, FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "" },
      timeoutMs: 45000,
    });
    expect(out.status, out.stderr).to.equal(0);
    expect(JSON.parse(out.stdout.trim().split("\n").pop()!)).to.deep.equal({ query: "VcrMissError", missed: 1 });
    expect(fake.count()).to.equal(0);
  });
});
