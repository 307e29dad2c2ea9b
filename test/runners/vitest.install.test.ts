/**
 * `vcr.install()` in a vitest setup file, with the plugin, where one worker runs several test
 * files in one module graph (`--no-isolate`): the setup file needs no `afterAll(uninstall)`. The
 * next file's install() replaces the Vcr a finished file installed. Before, that install() threw
 * "vcr.install() was called while another Vcr is installed" and failed the file; with the
 * `afterAll(uninstall)` the docs asked for, a file whose tests were all skipped (its afterAll never
 * runs) did the same to every file after it, and under `sequence.hooks: "list"` the uninstall ran
 * before the file's own afterAll, whose model call then went live under replay_only.
 *
 * vitest's VM pools (vmThreads, vmForks): install() could not `require()` the integrations' ES
 * modules there, so an OpenAIEmbeddings with no wrapper answered live under replay_only (2
 * requests, no error); now they are loaded with `import()` and wrapped.
 */
import * as path from "node:path";
import { expect } from "chai";
import { withFakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs } from "../helpers/tmp";
import { makeProject, VITEST_DIR, INSTALL_SETUP_MJS } from "./helpers/project";

const VITEST = path.join(VITEST_DIR, "vitest.mjs");

/** A test file asking a model that app code builds with no cache; `hook`: also in its top-level afterAll. */
const asking = (name: string, hook = false) =>
  [
    `import { afterAll, it } from "vitest";`,
    `import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";`,
    `const model = () => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });`,
    `const embeddings = () => new OpenAIEmbeddings({ apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });`,
    hook ? `afterAll(async () => { await model().invoke("asked in ${name}'s afterAll"); });` : ``,
    `it("asks ${name}", async () => { await model().invoke("a question from ${name}"); await embeddings().embedQuery("a text from ${name}"); });`,
    ``,
  ].join("\n");

const FILES: Record<string, string> = {
  "vitest.config.mjs": [
    `import langchainVcr from "langchain-vcr/vitest";`,
    `export default { plugins: [langchainVcr()], test: { include: ["test/*.test.mjs"], setupFiles: ["./vcr-setup.mjs"], sequence: { hooks: "list" }, testTimeout: 20000 } };`,
    ``,
  ].join("\n"),
  "vcr-setup.mjs": `import { Vcr } from "langchain-vcr";\nexport const vcr = new Vcr({ dir: "cassettes" });\nvcr.install();\n`,
  // the largest file, so vitest runs it first when it has no timings yet
  "test/a.test.mjs": `import { it } from "vitest";\n${"// padding\n".repeat(200)}it.skip("is skipped", () => {});\n`,
  "test/b.test.mjs": asking("b", true),
  "test/c.test.mjs": asking("c"),
};

describe("langchain-vcr/vitest: vcr.install() in the setup file, one worker, files not isolated", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  const fixtures = 5; // per test file b and c: a chat turn and an embedding; b's afterAll: a chat turn
  for (const pool of ["forks", "vmThreads"])
    it(`--pool=${pool}: records ${fixtures} fixtures (chat and embeddings; a skipped file first; a top-level afterAll under sequence.hooks 'list'), then replays them with 0 requests`, async () => {
      await withFakeProvider({}, async (fake) => {
        const p = makeProject(FILES);
        const command = [VITEST, "run", `--pool=${pool}`, "--no-isolate", "--maxWorkers=1"];
        const env = { FAKE_URL: fake.openaiBaseURL };
        const rec = await p.run(command, { ...env, LANGCHAIN_VCR_MODE: "record_or_replay" });
        expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
        expect([fake.count(), p.fixtures().length]).to.deep.equal([fixtures, fixtures]);
        const replay = await p.run(command, { ...env, LANGCHAIN_VCR_MODE: "replay_only" });
        expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
        expect(replay.stdout + replay.stderr).to.not.include("another Vcr is installed");
        expect(rec.stdout + rec.stderr + replay.stdout + replay.stderr).to.not.include("No test process built a Vcr"); // one module graph: the setup file's Vcrs count
        expect(fake.count(), "requests on replay").to.equal(fixtures);
      });
    });
});

describe("langchain-vcr/vitest: a setup file whose install() is not awaited, in the VM pools", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  // What install() loads there with import() is still loading when the setup file returns; a test file
  // importing LangChain's ES modules meanwhile failed at import ("request for './client.mjs' is not in
  // cache", 19 of 24 runs of a four-file suite on a busy 2-core machine, 0 of 24 with the fix). The
  // plugin's last setup file now waits for it: the test file's top level finds nothing still loading.
  const topLevel = [
    `import { it, expect } from "vitest";`,
    `const loading = globalThis[Symbol.for("langchain-vcr.installPending.v3")]?.size ?? -1;`,
    `it("begins after install() has loaded what it loads with import()", () => { expect(loading).toBe(0); });`,
    ``,
  ].join("\n");
  for (const pool of ["vmThreads", "vmForks"])
    it(`--pool=${pool}: at each test file's top level, nothing install() started is still loading`, async () => {
      const p = makeProject({
        "vitest.config.mjs": `import langchainVcr from "langchain-vcr/vitest";\nexport default { plugins: [langchainVcr()], test: { include: ["test/*.test.mjs"], setupFiles: ["./vcr-setup.mjs"] } };\n`,
        "vcr-setup.mjs": INSTALL_SETUP_MJS,
        "test/a.test.mjs": topLevel,
        "test/b.test.mjs": topLevel,
      });
      const r = await p.run([VITEST, "run", `--pool=${pool}`], { LANGCHAIN_VCR_MODE: "replay_only" });
      expect(r.status, r.stdout + r.stderr).to.equal(0);
      expect(r.stdout + r.stderr).to.match(/Tests\s+.*2 passed/);
    });
});

describe("langchain-vcr/vitest: a setup file written to the earlier docs, ending with afterAll(() => uninstall())", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  for (const isolation of [[], ["--no-isolate"]])
    it(`under sequence.hooks 'list'${isolation.length ? ", files not isolated" : ""}: each test file's afterAll model call, which then goes live, is a warning naming the class, once per file (before: nothing said it)`, async () => {
      await withFakeProvider({}, async (fake) => {
        const p = makeProject({
          ...FILES,
          "test/c.test.mjs": asking("c", true),
          "vcr-setup.mjs": `import { afterAll } from "vitest";\nimport { Vcr } from "langchain-vcr";\nconst uninstall = new Vcr({ dir: "cassettes" }).install();\nafterAll(() => uninstall());\n`,
        });
        const warning = /a model call \(ChatOpenAI\) was made after this test file's vcr\.install\(\) was undone, so no Vcr recorded or replayed it/g;
        const command = [VITEST, "run", "--maxWorkers=1", ...isolation];
        const rec = await p.run(command, { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
        const out = rec.stdout + rec.stderr;
        expect(rec.status, out).to.equal(0);
        expect([fake.count(), p.fixtures().length]).to.deep.equal([6, 4]); // b's and c's afterAll calls went live, unrecorded
        expect(out.match(warning), out).to.have.length(2);
        expect(out).to.include("Fix it: remove the afterAll(() => uninstall()) from the setup file");
        const replay = await p.run(command, { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "replay_only" });
        expect(fake.count(), "the two calls no Vcr saw").to.equal(8);
        expect((replay.stdout + replay.stderr).match(warning)).to.have.length(2);
      });
    });
});

describe("langchain-vcr/vitest: LangChain packages that vitest inlines or bundles, which install() cannot reach", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  const ASK = [
    `import { it } from "vitest";`,
    `import { ChatOpenAI } from "@langchain/openai";`,
    `it("asks", async () => { await new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } }).invoke("a question"); });`,
    ``,
  ].join("\n");

  /** The project: `test` as vitest.config's test options beside the setup file, and one test file asking a chat model with no cache. */
  const configured = (test: string) =>
    makeProject({
      "vitest.config.mjs": [
        `import langchainVcr from "langchain-vcr/vitest";`,
        `export default { plugins: [langchainVcr()], test: { include: ["test/*.test.mjs"], setupFiles: ["./vcr-setup.mjs"], testTimeout: 20000, ${test} } };`,
        ``,
      ].join("\n"),
      "vcr-setup.mjs": FILES["vcr-setup.mjs"],
      "test/ask.test.mjs": ASK,
    });

  for (const [what, test, where, fix] of [
    [
      "inlined (server.deps.inline: [/@langchain/])",
      `server: { deps: { inline: [/@langchain/] } }`,
      "server.deps.inline (@langchain/core, @langchain/openai,",
      "Fix it: leave LangChain's packages out of server.deps.inline (narrow a pattern such as /@langchain/ that matches them).",
    ],
    [
      'bundled by the dependency optimizer with @langchain/openai (deps.optimizer.ssr.include: ["@langchain/openai"])',
      `deps: { optimizer: { ssr: { enabled: true, include: ["@langchain/openai"] } } }`,
      "deps.optimizer.ssr.include, whose bundles hold a copy of @langchain/core (@langchain/core, @langchain/openai)",
      `Fix it: remove "@langchain/openai" from deps.optimizer.ssr.include.`,
    ],
  ])
    it(`@langchain/core ${what}: install() is the VcrConfigError naming it and the fix, the file fails, 0 requests (before: live under replay_only, the summary all zero)`, async () => {
      await withFakeProvider({}, async (fake) => {
        const p = configured(test);
        const run = await p.run([VITEST, "run"], { FAKE_URL: fake.openaiBaseURL, CI: "true" });
        const out = run.stdout + run.stderr;
        expect(run.status, out).to.equal(1);
        expect(out).to.include(`vcr.install() cannot reach the copy of @langchain/core that vitest makes: ${where}`);
        expect(out).to.include(fix);
        expect(fake.count()).to.equal(0);
      });
    });

  it('only an integration inlined (inline: ["@langchain/openai"]): a warning that its Embeddings classes are not reached; its chat model is recorded, then replayed with 0 requests', async () => {
    await withFakeProvider({}, async (fake) => {
      const p = configured(`server: { deps: { inline: ["@langchain/openai"] } }`);
      const rec = await p.run([VITEST, "run"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      const out = rec.stdout + rec.stderr;
      expect(rec.status, out).to.equal(0);
      expect(
        out.match(/vcr\.install\(\) cannot reach the Embeddings classes of what vitest inlines: server\.deps\.inline \(@langchain\/openai\)/g),
        out,
      ).to.have.length(1);
      expect([fake.count(), p.fixtures().length]).to.deep.equal([1, 1]);
      const replay = await p.run([VITEST, "run"], { FAKE_URL: fake.openaiBaseURL, CI: "true" });
      expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
      expect(fake.count(), "requests on replay").to.equal(1);
    });
  });

  it("a workspace where another project inlines LangChain: this project's install() is not refused (recorded, then 0 requests); a project that does not extend the root config gets a warning that it runs without the plugin's setup file", async () => {
    // before: the inlining of one project reached every project's test processes through process.env
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({
        "vitest.config.mjs": [
          `import langchainVcr from "langchain-vcr/vitest";`,
          `export default { plugins: [langchainVcr()], test: { testTimeout: 20000, projects: [`,
          `  { extends: true, test: { name: "llm", include: ["llm/*.test.mjs"], setupFiles: ["./vcr-setup.mjs"] } },`,
          `  { extends: true, test: { name: "web", include: ["web/*.test.mjs"], server: { deps: { inline: [/@langchain/] } } } },`,
          `  { test: { name: "bare", include: ["bare/*.test.mjs"], setupFiles: ["./vcr-setup.mjs"] } },`,
          `] } };`,
          ``,
        ].join("\n"),
        "vcr-setup.mjs": FILES["vcr-setup.mjs"],
        "llm/ask.test.mjs": ASK,
        "web/add.test.mjs": `import { it, expect } from "vitest";\nit("adds", () => expect(1 + 1).toBe(2));\n`,
        "bare/add.test.mjs": `import { it, expect } from "vitest";\nit("adds", () => expect(2 + 2).toBe(4));\n`,
      });
      const rec = await p.run([VITEST, "run"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      const out = rec.stdout + rec.stderr;
      expect(rec.status, out).to.equal(0);
      expect([fake.count(), p.fixtures().length]).to.deep.equal([1, 1]);
      expect(out.match(/vitest project "bare" runs without langchain-vcr's setup file/g), out).to.have.length(1);
      expect(out).to.not.match(/project "(llm|web)" runs without/);
      // bare's install(), with the plugin in the run's config: the plugin's warning above, not the one for a config without it
      expect(out).to.not.include("runs under vitest without the langchain-vcr plugin");
      const replay = await p.run([VITEST, "run"], { FAKE_URL: fake.openaiBaseURL, CI: "true" });
      expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
      expect(fake.count(), "requests on replay").to.equal(1);
      // "bare"'s fixture use is not counted: the run is partial, so prune keeps every fixture (before: the run was complete)
      const prune = await p.cli(["prune", "cassettes"]);
      expect(prune.status, prune.stdout + prune.stderr).to.equal(1);
      expect(prune.stderr).to.include(`vitest project "bare" ran without langchain-vcr's setup file, so the fixtures it used are not counted`);
      expect(p.fixtures()).to.have.length(1);
    });
  });
});

describe("langchain-vcr/vitest: install() called again in a test file, the setup file's still in place", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("the file fails with a VcrConfigError naming where each install() was called, and saying both are in one test file's run (not 'add the plugin', which is there)", async () => {
    const p = makeProject({
      "vitest.config.mjs": `import langchainVcr from "langchain-vcr/vitest";\nexport default { plugins: [langchainVcr()], test: { include: ["test/*.test.mjs"], setupFiles: ["./vcr-setup.mjs"] } };\n`,
      "vcr-setup.mjs": `import { Vcr } from "langchain-vcr";\n\nnew Vcr({ dir: "cassettes" }).install();\n`,
      "test/a.test.mjs": `import { it } from "vitest";\nimport { Vcr } from "langchain-vcr";\n\n\nnew Vcr({ dir: "other" }).install();\nit("runs", () => {});\n`,
    });
    const r = await p.run([VITEST, "run"], { LANGCHAIN_VCR_MODE: "replay_only" });
    const out = r.stdout + r.stderr;
    expect(r.status, out).to.equal(1);
    expect(out).to.match(/vcr\.install\(\) was called while another Vcr is installed \(dir \S+cassettes, called at vcr-setup\.mjs:3:\d+\)/);
    expect(out).to.match(/This Vcr: dir \S+other, called at test\/a\.test\.mjs:5:\d+\./);
    expect(out).to.include("Both calls are in the run of one test file");
    expect(out).to.not.include("add the plugin");
  });
});

describe("langchain-vcr/vitest: install() in a setup file, the plugin left out of vitest.config", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("replays as before, and says the run is unscoped and unledgered, with the config line to add (before: nothing, until prune refused later)", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({
        "vitest.config.mjs": `export default { test: { include: ["test/*.test.mjs"], setupFiles: ["./vcr-setup.mjs"] } };\n`,
        "vcr-setup.mjs": INSTALL_SETUP_MJS,
        "test/b.test.mjs": asking("b"),
        "test/c.test.mjs": asking("c"),
        "test/d.test.mjs": asking("d"),
      });
      const env = { FAKE_URL: fake.openaiBaseURL };
      const rec = await p.run([VITEST, "run", "--maxWorkers=1"], { ...env, LANGCHAIN_VCR_MODE: "record_or_replay" });
      const out = rec.stdout + rec.stderr;
      expect(rec.status, out).to.equal(0);
      expect([fake.count(), p.fixtures().length]).to.deep.equal([6, 6]);
      expect(out.split("vcr.install() runs under vitest without the langchain-vcr plugin").length - 1, "once per run, not per test file").to.equal(1);
      expect(out).to.include('Fix it: add the plugin to vitest.config: import langchainVcr from "langchain-vcr/vitest"');
      const withPlugin = makeProject({
        "vitest.config.mjs": `import langchainVcr from "langchain-vcr/vitest";\nexport default { plugins: [langchainVcr()], test: { include: ["test/*.test.mjs"], setupFiles: ["./vcr-setup.mjs"] } };\n`,
        "vcr-setup.mjs": INSTALL_SETUP_MJS,
        "test/b.test.mjs": asking("b"),
      });
      const ok = await withPlugin.run([VITEST, "run"], { ...env, LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(ok.status, ok.stdout + ok.stderr).to.equal(0);
      expect(ok.stdout + ok.stderr).to.not.include("without the langchain-vcr plugin");
    });
  });
});
