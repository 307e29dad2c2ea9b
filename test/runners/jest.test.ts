/** langchain-vcr/jest in a user's project: jest 30, CommonJS test files, the setup file and the reporter. */
import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "chai";
import { ROOT } from "../helpers/built";
import type { ChildResult } from "../helpers/child";
import { withFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs } from "../helpers/tmp";
import { descriptorsCheck } from "../../src/store/heldFiles";
import { DASH_T, describeParity } from "./helpers/parity";
import {
  agentAndLookupsCjs,
  cachelessAppFiles,
  expectPrintedCommandRecords,
  FIXTURES,
  fixturesOf,
  JEST_LLM_CONFIG,
  jestConfigCjs,
  makeProject,
  summaryLines,
  type Project,
  INSTALL_SETUP_CJS,
  INSTALL_SETUP_MJS,
} from "./helpers/project";

const JEST = path.join(ROOT, "node_modules/jest/bin/jest.js");

/** A string model's provider (loaded with import()) pointed at the fake; jest with its ESM support on. */
const VM_MODULES_ENV = (fake: FakeProvider) => ({
  OPENAI_BASE_URL: fake.openaiBaseURL,
  OPENAI_API_KEY: "test-key",
  NODE_OPTIONS: "--experimental-vm-modules --no-warnings",
});

/**
 * Runs jest twice: recording (`n` requests to paths starting with `prefix`, `n` fixtures), then
 * sealed as a pull request's CI runs it (no request more, `n` replayed).
 */
async function recordThenReplay(p: Project, fake: FakeProvider, env: NodeJS.ProcessEnv, n: number, prefix = ""): Promise<ChildResult> {
  const rec = await p.run([JEST, "--ci"], { ...env, LANGCHAIN_VCR_MODE: "record_or_replay" });
  expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
  expect([fake.count(prefix), p.fixtures().length], rec.stdout + rec.stderr).to.deep.equal([n, n]);
  const replay = await p.run([JEST, "--ci"], { ...env, CI: "true" });
  expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
  expect(fake.count(), replay.stdout + replay.stderr).to.equal(n);
  expect(summaryLines(replay)[0]).to.match(new RegExp(`^langchain-vcr: ${n} replayed, 0 recorded`));
  return rec;
}

describeParity({
  runnerNeedsTmpdir: true,
  name: "langchain-vcr/jest (jest 30)",
  // two workers, so the two test files run in two processes
  command: [JEST, "--ci", "--maxWorkers=2"],
  ...DASH_T,
  hint: `LANGCHAIN_VCR_MODE=record_or_replay npx jest test/a.test.cjs -t "chat asks"`,
  narrowing: { args: ["--testPathIgnorePatterns", "b\\.test"], option: "--testPathIgnorePatterns" },
  concurrent: false,
  changedOnly: {
    args: ["--onlyChanged"],
    file: "test/a.test.cjs",
    reason: "only the test files related to changed files ran (--onlyChanged/--changedSince/--lastCommit)",
  },
  failuresOnly: { args: ["--onlyFailures"], reason: "--onlyFailures ran only the tests that failed in the run before" },
  skippedFile: { name: "test/c.test.cjs", text: `test.skip("skipped", () => {});\n` },
  onlyFile: { name: "test/c.test.cjs", text: `test("left out", () => {});\ntest.only("focused", () => {});\n` },
  files: {
    "jest.config.cjs": jestConfigCjs("test", [
      `  testTimeout: 20000,`,
      `  setupFilesAfterEnv: ["langchain-vcr/jest"],`,
      `  reporters: ["default", "langchain-vcr/jest/reporter"],`,
    ]),
    "test/a.test.cjs": [
      `const { askChat, hang } = require("../scenario.cjs");`,
      `describe("chat", () => { test("asks", () => askChat("chat asks")); });`,
      `describe("hang", () => { (process.env.HANG_URL ? test : test.skip)("times out", () => hang("hang times out"), 1500); });`,
      ``,
    ].join("\n"),
    // a fixture used only in a test file's top-level afterAll, which jest runs after the plugin's: still in the ledger
    "test/b.test.cjs": agentAndLookupsCjs("test") + `afterAll(() => require("../scenario.cjs").askInHook("b's afterAll"));\n`,
  },
});

describe("langchain-vcr/jest: a miss's command to record the test runs it with the suite's own config", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("a suite run with -c jest.llm.config.cjs (its setup file calls vcr.install()): the command carries -c, and as printed it records (the plain one finds no test)", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({
        ...cachelessAppFiles("llm/app.test.cjs"),
        // the default config runs other tests: the plain `npx jest -t …` never reaches the model test
        "jest.config.cjs": `module.exports = { testEnvironment: "node", transform: {}, testMatch: ["**/test/**/*.test.cjs"] };\n`,
        "jest.llm.config.cjs": JEST_LLM_CONFIG,
      });
      await expectPrintedCommandRecords(
        p,
        fake,
        { FAKE_URL: fake.openaiBaseURL },
        {
          miss: [JEST, "--ci", "-c", "jest.llm.config.cjs"],
          hint: `LANGCHAIN_VCR_MODE=record_or_replay npx jest -c jest.llm.config.cjs llm/app.test.cjs -t "asks the app"`,
          // what the command used to be: the default config, no test of this name
          plain: [JEST, "--ci", "-t", "asks the app"],
          printed: [JEST, "--ci", "-c", "jest.llm.config.cjs", "llm/app.test.cjs", "-t", "asks the app"],
        },
      );
    });
  });
});

describe('langchain-vcr/jest under --experimental-vm-modules: createAgent with a "provider:model" string (its provider loaded with import(), on jest\'s own ESM copy of core)', function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("vcr.install() reaches the model: the first run records it (1 request, 1 fixture), a CI run replays it (0 requests)", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({
        "vcr-setup.cjs": INSTALL_SETUP_CJS,
        "jest.config.cjs": JEST_LLM_CONFIG,
        "llm/agent.test.cjs": [
          `const { createAgent } = require("langchain");`,
          `test("agent answers", async () => {`,
          `  const agent = createAgent({ model: "openai:gpt-4o-mini", tools: [] });`,
          `  const out = await agent.invoke({ messages: [{ role: "user", content: "a question for the agent" }] });`,
          `  expect(out.messages.length).toBe(2);`,
          `});`,
          ``,
        ].join("\n"),
      });
      const rec = await recordThenReplay(p, fake, VM_MODULES_ENV(fake), 1, "/v1/responses");
      expect(rec.stderr).to.not.include("could not load the ESM copy");
    });
  });
});

describe("langchain-vcr/jest under --experimental-vm-modules: ES modules on jest's own ES-module copies of LangChain (an ESM test file; ESM app code a CommonJS test imports)", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  const client = `const client = { apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } };`;
  /** Records the project's tests under --experimental-vm-modules (`n` requests, `n` fixtures), then replays them under CI with 0 requests. */
  const recordsThenReplays = (files: Record<string, string>, n: number) =>
    withFakeProvider({}, async (fake) => {
      await recordThenReplay(makeProject(files), fake, { ...VM_MODULES_ENV(fake), FAKE_URL: fake.openaiBaseURL }, n);
    });
  const cjsSetup = INSTALL_SETUP_CJS;
  /** The ESM app module (app/answer.mjs): `answer` asks a ChatOpenAI, `embed` an OpenAIEmbeddings. */
  const ESM_APP = [
    `import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";`,
    client,
    `export const answer = async (q) => (await new ChatOpenAI({ model: "gpt-4o-mini", ...client }).invoke(q)).content;`,
    `export const embed = (t) => new OpenAIEmbeddings(client).embedQuery(t);`,
    ``,
  ].join("\n");

  /** An ES-module test file whose one test asks a ChatOpenAI `question`. */
  const esmAsks = (question: string) =>
    [
      `import { ChatOpenAI } from "@langchain/openai";`,
      client,
      `test("asks", async () => { expect((await new ChatOpenAI({ model: "gpt-4o-mini", ...client }).invoke("${question}")).content).toBe("echo: ${question}"); });`,
      ``,
    ].join("\n");

  for (const setup of ["vcr-setup.cjs", "vcr-setup.mjs"])
    it(`ChatOpenAI (invoke, stream), OpenAIEmbeddings and a string model in an ESM test file, and in ESM app code a CommonJS test loads with import(), install() in ${setup}: recorded (6 requests, 6 fixtures), then replayed under CI (0 requests; before, every one of them answered live under replay_only)`, async () => {
      await recordsThenReplays(
        {
          "vcr-setup.cjs": cjsSetup,
          // an ESM setup file that does not wait for uninstall.ready: langchain-vcr/jest, before it, has
          "vcr-setup.mjs": INSTALL_SETUP_MJS,
          "jest.config.cjs": JEST_LLM_CONFIG.replace(`"**/llm/**/*.test.cjs"`, `"**/llm/**/*.test.{cjs,mjs}"`).replace(
            "<rootDir>/vcr-setup.cjs",
            `<rootDir>/${setup}`,
          ),
          "llm/esm.test.mjs": [
            `import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";`,
            `import { createAgent } from "langchain";`,
            client,
            `const chat = () => new ChatOpenAI({ model: "gpt-4o-mini", ...client });`,
            `test("asks", async () => { expect((await chat().invoke("an ESM question")).content).toBe("echo: an ESM question"); });`,
            `test("streams", async () => { let text = ""; for await (const c of await chat().stream("an ESM stream")) text += c.content; expect(text).toBe("echo: an ESM stream"); });`,
            `test("embeds", async () => { expect(await new OpenAIEmbeddings(client).embedQuery("an ESM text")).toHaveLength(8); });`,
            `test("asks an agent", async () => {`,
            `  const out = await createAgent({ model: "openai:gpt-4o-mini", tools: [] }).invoke({ messages: [{ role: "user", content: "an ESM agent question" }] });`,
            `  expect(out.messages.length).toBe(2);`,
            `});`,
            ``,
          ].join("\n"),
          "app/answer.mjs": ESM_APP,
          "llm/app.test.cjs": [
            `test("asks the ESM app", async () => {`,
            `  const { answer, embed } = await import("../app/answer.mjs");`,
            `  expect(await answer("an app question")).toBe("echo: an app question");`,
            `  expect(await embed("an app text")).toHaveLength(8);`,
            `});`,
            ``,
          ].join("\n"),
        },
        6,
      );
    });
  it("after each registry reset (resetModules: true), ESM app code each test imports afresh: recorded (2 requests, 2 fixtures), then replayed under CI (0 requests; before, both answered live: the reset gave fresh, unpatched copies)", async () => {
    const ask = (name: string, question: string) =>
      `test("${name}", async () => { const { answer } = await import("../app/answer.mjs"); expect(await answer("${question}")).toBe("echo: ${question}"); });`;
    await recordsThenReplays(
      {
        "vcr-setup.cjs": cjsSetup,
        "jest.config.cjs": JEST_LLM_CONFIG.replace(`  testTimeout: 20000,`, `  testTimeout: 20000,\n  resetModules: true,`),
        "app/answer.mjs": ESM_APP,
        "llm/reset.test.cjs": [ask("first", "asked after one reset"), ask("second", "asked after another reset"), ``].join("\n"),
      },
      2,
    );
  });

  it("ESM app code that only a CommonJS helper module imports (the test file has no import( of its own): recorded (2 requests, 2 fixtures), then replayed under CI (0 requests; before, both answered live)", async () => {
    await recordsThenReplays(
      {
        "vcr-setup.cjs": cjsSetup,
        "jest.config.cjs": JEST_LLM_CONFIG,
        "app/answer.mjs": ESM_APP,
        "app/load.cjs": `exports.loadApp = () => import("./answer.mjs");\n`,
        "llm/helper.test.cjs": [
          `const { loadApp } = require("../app/load.cjs");`,
          `test("asks through a helper", async () => {`,
          `  const app = await loadApp();`,
          `  expect(await app.answer("a helper's question")).toBe("echo: a helper's question");`,
          `  expect(await app.embed("a helper's text")).toHaveLength(8);`,
          `});`,
          ``,
        ].join("\n"),
      },
      2,
    );
  });

  it("an ESM test file's top-level await, and an import() inside jest.isolateModulesAsync (a registry of its own) after one outside it: recorded (3 requests, 3 fixtures), then replayed under CI (0 requests)", async () => {
    await recordsThenReplays(
      {
        "vcr-setup.cjs": cjsSetup,
        "jest.config.cjs": JEST_LLM_CONFIG.replace(`"**/llm/**/*.test.cjs"`, `"**/llm/**/*.test.mjs"`),
        "app/answer.mjs": ESM_APP,
        "llm/tla.test.mjs": [
          `import { jest } from "@jest/globals";`,
          `import { OpenAIEmbeddings } from "@langchain/openai";`,
          client,
          // at the module's top level: before any test, before the watch's reach of this load
          `const vector = await new OpenAIEmbeddings(client).embedQuery("embedded at the top level");`,
          `test("top level", () => expect(vector).toHaveLength(8));`,
          `test("isolated", async () => {`,
          `  expect(await (await import("../app/answer.mjs")).answer("asked outside")).toBe("echo: asked outside");`,
          `  await jest.isolateModulesAsync(async () => {`,
          `    expect(await (await import("../app/answer.mjs")).answer("asked in isolation")).toBe("echo: asked in isolation");`,
          `  });`,
          `});`,
          ``,
        ].join("\n"),
      },
      3,
    );
  });

  it("CommonJS test files that load none of LangChain's ES modules load no LangChain for it: not at setup, not at a reset, not at teardown", async () => {
    const seen = (name: string) =>
      `test("${name}", () => { expect(Object.keys(require.cache).filter((k) => /[\\\\/]@langchain[\\\\/]/.test(k))).toEqual([]); });\n`;
    const p = makeProject({
      // no install(): the setup file alone, as in a suite whose other tests use it
      "jest.config.cjs": JEST_LLM_CONFIG.replace(`, "<rootDir>/vcr-setup.cjs"`, "").replace(
        `  testTimeout: 20000,`,
        `  testTimeout: 20000,\n  resetModules: true,`,
      ),
      "llm/a.test.cjs": seen("a") + seen("a again"),
      "llm/b.test.cjs": seen("b"),
      // loaded by the last test file's teardown if anything were: a preload counts LangChain's files read
      "count.cjs": [
        `const fs = require("node:fs");`,
        `const read = fs.readFileSync;`,
        `fs.readFileSync = function (file, ...rest) { if (/[\\\\/]@langchain[\\\\/]core[\\\\/]/.test(String(file))) fs.appendFileSync(process.env.SIDE_FILE, String(file) + "\\n"); return read.call(this, file, ...rest); };`,
        ``,
      ].join("\n"),
    });
    const run = await p.run([JEST, "--ci", "--runInBand"], {
      NODE_OPTIONS: `--experimental-vm-modules --no-warnings --require ${path.join(p.dir, "count.cjs")}`,
    });
    expect(run.status, run.stdout + run.stderr).to.equal(0);
    expect(run.stderr).to.match(/Tests:\s+3 passed, 3 total/);
    expect(p.sideLines(), "files of @langchain/core read").to.deep.equal([]);
  });

  /**
   * Another jest, whose loads langchain-vcr cannot watch: jest-runtime's own code as jest's `runtime` option names it
   * (`runtime.cjs`), with `resetModules: true`. Each test of the CommonJS test file imports ESM app code afresh through
   * a helper module (nothing in the test file says so), the last one inside `jest.isolateModulesAsync` when `isolate`;
   * the ESM test file asks one question. Recorded (`n` requests, `n` fixtures), then replayed under CI (0 requests),
   * with the note naming what was not found.
   */
  const underAnotherJest = (runtime: string, notFound: string, { isolate = false } = {}) => {
    const ask = (name: string, wrap = (body: string) => body) =>
      [
        `test("${name}", async () => {`,
        wrap(
          [
            `  const app = await loadApp();`,
            `  expect(await app.answer("${name}, another jest")).toBe("echo: ${name}, another jest");`,
            `  expect(await app.embed("${name}'s text, another jest")).toHaveLength(8);`,
          ].join("\n"),
        ),
        `});`,
      ].join("\n");
    const isolated = (body: string) => `  await jest.isolateModulesAsync(async () => {\n${body}\n  });`;
    const files = {
      "vcr-setup.cjs": cjsSetup,
      "jest.config.cjs": JEST_LLM_CONFIG.replace(`"**/llm/**/*.test.cjs"`, `"**/llm/**/*.test.{cjs,mjs}"`).replace(
        `  transform: {},`,
        `  transform: {},\n  runtime: "<rootDir>/runtime.cjs",\n  resetModules: true,`,
      ),
      "runtime.cjs": runtime,
      "app/answer.mjs": ESM_APP,
      "app/load.cjs": `exports.loadApp = () => import("./answer.mjs");\n`,
      "llm/helper.test.cjs": [
        `const { loadApp } = require("../app/load.cjs");`,
        ask("first"),
        ask("second"),
        isolate ? ask("isolated", isolated) : "",
        ``,
      ].join("\n"),
      "llm/esm.test.mjs": esmAsks("an ESM question, another jest"),
    };
    return withFakeProvider({}, async (fake) => {
      const n = isolate ? 7 : 5;
      const rec = await recordThenReplay(makeProject(files), fake, { ...VM_MODULES_ENV(fake), FAKE_URL: fake.openaiBaseURL }, n);
      expect(rec.stdout + rec.stderr).to.include(`cannot watch jest's ES-module loads under --experimental-vm-modules: it found no jest ${notFound}`);
    });
  };
  /** jest-runtime's module, required as jest would: from jest's own directory. */
  const realRuntime = `const real = require.resolve("jest-runtime", { paths: [path.dirname(fs.realpathSync(require.resolve("jest")))] });`;

  it("a jest whose runtime langchain-vcr cannot find (jest-runtime's code compiled under another file name), with resetModules: true: every test file is reached ahead of time and afresh before each test, so ESM app code only a helper module imports, and an ESM test file, are recorded (5 requests, 5 fixtures), then replayed under CI (0 requests; before, the helper's answered live)", async () => {
    await underAnotherJest(
      [
        `const fs = require("node:fs");`,
        `const path = require("node:path");`,
        `const Module = require("node:module");`,
        realRuntime,
        `const file = path.join(path.dirname(real), "another-jest-runtime.js");`,
        `const m = new Module(file, module);`,
        `m.filename = file;`,
        `m.paths = Module._nodeModulePaths(path.dirname(file));`,
        `m._compile(fs.readFileSync(real, "utf8"), file);`,
        `module.exports = m.exports;`,
        ``,
      ].join("\n"),
      "runtime (jest-runtime's Runtime.prototype.requireModule)",
    );
  });

  it("a jest whose ES-module loader langchain-vcr cannot find (its linkAndEvaluateModule hidden), with resetModules: true: the fresh copies after each reset, and inside jest.isolateModulesAsync, are reached, so 7 requests are recorded, then replayed under CI (0 requests)", async () => {
    await underAnotherJest(
      [
        `const fs = require("node:fs");`,
        `const path = require("node:path");`,
        realRuntime,
        `const Runtime = require(real).default;`,
        // jest's own calls reach the loader's methods bound to it; a look from outside finds no linkAndEvaluateModule
        `module.exports = class AnotherRuntime extends Runtime {`,
        `  constructor(...args) {`,
        `    super(...args);`,
        `    const loader = this.esmLoader;`,
        `    this.esmLoader = new Proxy(loader, { get: (t, k) => (k === "linkAndEvaluateModule" ? undefined : typeof t[k] === "function" ? t[k].bind(t) : t[k]) });`,
        `  }`,
        `};`,
        ``,
      ].join("\n"),
      "ES-module loader (linkAndEvaluateModule on the Runtime or on its esmLoader)",
      { isolate: true },
    );
  });

  it('a TypeScript test file jest loads as an ES module only through extensionsToTreatAsEsm (no "type": "module"): recorded (1 request, 1 fixture), then replayed under CI (0 requests; before, it answered live)', async () => {
    await recordsThenReplays(
      {
        "vcr-setup.cjs": cjsSetup,
        // no TypeScript in it: jest's default transform is off, so the file is loaded as written, as an ES module
        "jest.config.cjs": JEST_LLM_CONFIG.replace(`"**/llm/**/*.test.cjs"`, `"**/llm/**/*.test.ts"`).replace(
          `  transform: {},`,
          `  transform: {},\n  extensionsToTreatAsEsm: [".ts"],`,
        ),
        "llm/esm.test.ts": esmAsks("a .ts question"),
      },
      1,
    );
  });
});

describe("langchain-vcr/jest after a module registry reset (resetModules: true, jest.isolateModules): the fresh copies of LangChain a test requires are recorded and replayed too", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("a chat model and embeddings required inside each test, with no cache of their own: recorded (3 requests, 3 fixtures), then replayed under CI (0 requests)", async () => {
    await withFakeProvider({}, async (fake) => {
      const models = [
        `const client = () => ({ apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });`,
        // required inside the test: after jest's reset, a fresh @langchain/core and @langchain/openai
        `const chat = () => new (require("@langchain/openai").ChatOpenAI)({ model: "gpt-4o-mini", ...client() });`,
        `const embeddings = () => new (require("@langchain/openai").OpenAIEmbeddings)({ model: "text-embedding-3-small", ...client() });`,
      ];
      const p = makeProject({
        "vcr-setup.cjs": INSTALL_SETUP_CJS,
        "jest.config.cjs": jestConfigCjs("llm", [
          `  resetModules: true,`,
          `  setupFilesAfterEnv: ["langchain-vcr/jest", "<rootDir>/vcr-setup.cjs"],`,
          `  reporters: ["default", "langchain-vcr/jest/reporter"],`,
        ]),
        "llm/reset.test.cjs": [
          ...models,
          `test("asks after a reset", async () => { expect((await chat().invoke("asked after a reset")).content).toBe("echo: asked after a reset"); });`,
          `test("embeds after a reset", async () => { expect(await embeddings().embedQuery("embedded after a reset")).toHaveLength(8); });`,
          `test("asks in isolated modules", async () => {`,
          `  let model;`,
          `  jest.isolateModules(() => { model = chat(); });`,
          `  expect((await model.invoke("asked in isolation")).content).toBe("echo: asked in isolation");`,
          `});`,
          ``,
        ].join("\n"),
      });
      await recordThenReplay(p, fake, { FAKE_URL: fake.openaiBaseURL }, 3);
    });
  });

  it('under --experimental-vm-modules, createAgent with a "provider:model" string required inside each test (a fresh langchain, and a fresh ESM copy of core, after every reset): recorded (2 requests, 2 fixtures), then replayed under CI (0 requests)', async () => {
    await withFakeProvider({}, async (fake) => {
      const ask = (name: string, question: string) => [
        `test("${name}", async () => {`,
        `  const agent = require("langchain").createAgent({ model: "openai:gpt-4o-mini", tools: [] });`,
        `  const out = await agent.invoke({ messages: [{ role: "user", content: "${question}" }] });`,
        `  expect(out.messages.length).toBe(2);`,
        `});`,
      ];
      const p = makeProject({
        "vcr-setup.cjs": INSTALL_SETUP_CJS,
        "jest.config.cjs": JEST_LLM_CONFIG.replace(`  testTimeout: 20000,`, `  testTimeout: 20000,\n  resetModules: true,`),
        "llm/agent.test.cjs": [...ask("first agent", "a first question"), ...ask("second agent", "a second question"), ``].join("\n"),
      });
      await recordThenReplay(p, fake, VM_MODULES_ENV(fake), 2, "/v1/responses");
    });
  });
});

describe("langchain-vcr/jest: jest's --ci without the CI environment variable", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("says that the run is not sealed (a request without a fixture is recorded), with the command that is; not when CI or LANGCHAIN_VCR_MODE is set (trial 38)", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({
        "vcr-setup.cjs": INSTALL_SETUP_CJS,
        "jest.config.cjs": JEST_LLM_CONFIG,
        "llm/a.test.cjs": [
          `const { ChatOpenAI } = require("@langchain/openai");`,
          `test("asks", async () => { expect((await new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } }).invoke("hi")).content).toBe("echo: hi"); });`,
          ``,
        ].join("\n"),
      });
      const note = "jest runs with --ci, but the CI environment variable is not set, so langchain-vcr's mode is record_or_replay (unless your code sets one)";
      const loud = { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_QUIET: "" };
      const unsealed = await p.run([JEST, "--ci"], loud);
      expect(unsealed.status, unsealed.stdout + unsealed.stderr).to.equal(0);
      expect(unsealed.stderr).to.include(note).and.include("To replay only, as in CI: CI=true npx jest --ci (or LANGCHAIN_VCR_MODE=replay_only).");
      expect(fake.count(), "recorded live, as the note says").to.equal(1);
      // under jest's ESM support the command keeps it (trial 48: CI=true npx jest --ci failed with "Must use import")
      const esm = await p.run([JEST, "--ci"], { ...loud, NODE_OPTIONS: "--experimental-vm-modules --no-warnings" });
      expect(esm.status, esm.stdout + esm.stderr).to.equal(0);
      expect(esm.stderr).to.include('To replay only, as in CI: NODE_OPTIONS="--experimental-vm-modules --no-warnings" CI=true npx jest --ci (or');
      for (const env of [{ CI: "true" }, { LANGCHAIN_VCR_MODE: "replay_only" }]) {
        const sealed = await p.run([JEST, "--ci"], { ...loud, ...env });
        expect(sealed.status, sealed.stdout + sealed.stderr).to.equal(0);
        expect(sealed.stderr, JSON.stringify(env)).to.not.include(note);
      }
    });
  });
});

describe("langchain-vcr/jest: a fixture replayed again and again in jest's per-file contexts", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  // Where a kept fixture would be checked through a descriptor held open (src/store/heldFiles.ts): not in jest, which evaluates
  // langchain-vcr again in a new context for every test file, where what one file's copy held would stay open for the process.
  (process.platform === "linux" ? it : it.skip)(
    "holds no descriptor open on it (two test files, 6 replays each: 0 open on the fixture); a plain Node process replaying it holds 1",
    async () => {
      await withFakeProvider({}, async (fake) => {
        const openOnFixtures = `() => require("node:fs").readdirSync("/proc/self/fd").map((fd) => { try { return require("node:fs").readlinkSync("/proc/self/fd/" + fd); } catch { return ""; } }).filter((t) => t.includes("${FIXTURES}"))`;
        const chat = `const chat = () => new (require("@langchain/openai").ChatOpenAI)({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });`;
        const replays = (n: number) => [
          `  for (let i = 0; i < ${n}; i++) expect((await chat().invoke("asked again and again")).content).toBe("echo: asked again and again");`,
        ];
        const testFile = [chat, `test("asks again and again", async () => {`, ...replays(6), `  expect((${openOnFixtures})()).toEqual([]);`, `});`, ``].join(
          "\n",
        );
        const p = makeProject({
          "vcr-setup.cjs": INSTALL_SETUP_CJS,
          "jest.config.cjs": `module.exports = { testEnvironment: "node", transform: {}, maxWorkers: 1, testMatch: ["**/llm/**/*.test.cjs"], setupFilesAfterEnv: ["langchain-vcr/jest", "<rootDir>/vcr-setup.cjs"] };\n`,
          "llm/a.test.cjs": testFile,
          "llm/b.test.cjs": testFile,
          "plain.cjs": [
            `const assert = require("node:assert");`,
            `const { Vcr } = require("langchain-vcr");`,
            `new Vcr({ dir: "${FIXTURES}", mode: "replay_only" }).install();`,
            chat,
            `(async () => {`,
            ...replays(6).map((l) => l.replace("expect(", "assert.equal(").replace(").toBe(", ", ")),
            `  console.log(JSON.stringify((${openOnFixtures})().length));`,
            `})();`,
            ``,
          ].join("\n"),
        });
        const rec = await p.run([JEST, "--ci"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
        expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
        expect([fake.count(), p.fixtures().length]).to.deep.equal([1, 1]);
        const old = Date.now() / 1000 - 3600; // a committed fixture: kept from its second replay in a process
        fs.utimesSync(path.join(p.dir, FIXTURES, p.fixtures()[0]), old, old);
        await new Promise((r) => setTimeout(r, 1100)); // its last change a second back: a descriptor would be held from its third replay
        const replay = await p.run([JEST, "--ci"], { FAKE_URL: fake.openaiBaseURL, CI: "true" });
        expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
        const plain = await p.run(["plain.cjs"], { FAKE_URL: fake.openaiBaseURL });
        expect(plain.status, plain.stderr).to.equal(0);
        expect(plain.stdout.trim()).to.equal(descriptorsCheck(p.dir) ? "1" : "0");
        expect(fake.count()).to.equal(1);
      });
    },
  );
});

describe("langchain-vcr/jest: a copy of @langchain/core that cannot be patched, first required inside a test", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("a provider with its own copy of core lacking the internals langchain-vcr relies on: the require fails with the VcrConfigError naming that copy and the internal, the test fails, and so does the same require in the next test", async () => {
    const stub = (name: string) => `exports.${name} = class ${name} {};\n`;
    const core = "node_modules/old-provider/node_modules/@langchain/core";
    const p = makeProject({
      "vcr-setup.cjs": INSTALL_SETUP_CJS,
      "jest.config.cjs": JEST_LLM_CONFIG,
      "llm/old.test.cjs": `test("uses an old provider", () => { require("old-provider"); });\ntest("uses it again", () => { require("old-provider"); });\n`,
      "node_modules/old-provider/package.json": `{ "name": "old-provider", "version": "1.0.0", "main": "index.js" }\n`,
      "node_modules/old-provider/index.js": `exports.BaseChatModel = require("@langchain/core/language_models/chat_models").BaseChatModel;\n`,
      [`${core}/package.json`]: `{ "name": "@langchain/core", "version": "0.0.1" }\n`,
      [`${core}/language_models/chat_models.js`]: stub("BaseChatModel"),
      [`${core}/language_models/llms.js`]: stub("BaseLLM"),
      [`${core}/tools.js`]: stub("StructuredTool"),
      [`${core}/embeddings.js`]: stub("Embeddings"),
      [`${core}/messages.js`]: stub("AIMessageChunk"),
      [`${core}/outputs.js`]: stub("ChatGenerationChunk"),
    });
    const run = await p.run([JEST, "--ci"], { LANGCHAIN_VCR_MODE: "record_or_replay" });
    expect(run.status, run.stdout + run.stderr).to.equal(1);
    expect(run.stderr).to.match(/✕ uses an old provider/);
    expect(run.stderr).to.match(/✕ uses it again/); // not loaded unpatched on a second try
    expect(run.stderr).to.match(
      /langchain-vcr: cannot work with the copy of @langchain\/core in \S+old-provider[\\/]node_modules[\\/]@langchain[\\/]core, which \S+old-provider[\\/]index\.js uses: it has no BaseChatModel\.prototype\.\w+\.\n\s+that copy: @langchain\/core 0\.0\.1;/,
    );
  });
});

describe("langchain-vcr/jest: the project's own Embeddings classes (SWC and esbuild output, where every export is a getter; a require cycle)", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("required by a relative path, through a moduleNameMapper alias, and in a require cycle: recorded (3 body runs, 3 fixtures), then replayed under CI with the bodies run 0 times more", async () => {
    // before: under jest a module's getters were never read, so the first two classes ran their bodies on every replay;
    // and a module in a cycle was scanned while still loading (its class not yet exported), then never again
    const embeddingsModule = (name: string, style: "getter" | "data" = "getter", requires = "") =>
      [
        `Object.defineProperty(exports, "__esModule", { value: true });`,
        style === "getter" ? `Object.defineProperty(exports, "${name}", { enumerable: true, get: () => ${name} });` : ``,
        requires,
        `const fs = require("node:fs");`,
        `const { Embeddings } = require("@langchain/core/embeddings");`,
        `class ${name} extends Embeddings {`,
        `  constructor() { super({}); }`,
        `  async embedDocuments(texts) { return Promise.all(texts.map((t) => this.embedQuery(t))); }`,
        `  async embedQuery(text) { fs.appendFileSync(process.env.SIDE_FILE, "${name} ran\\n"); return [text.length, 0.5]; }`,
        `}`,
        style === "data" ? `exports.${name} = ${name};` : ``,
        ``,
      ].join("\n");
    const p = makeProject({
      "vcr-setup.cjs": INSTALL_SETUP_CJS,
      "jest.config.cjs": JEST_LLM_CONFIG.replace(`  testTimeout: 20000,`, `  testTimeout: 20000,\n  moduleNameMapper: { "^@app/(.*)$": "<rootDir>/src/$1" },`),
      "src/relative.cjs": embeddingsModule("RelativeEmbeddings"),
      "src/aliased.cjs": embeddingsModule("AliasedEmbeddings"),
      // as tsc or plain JS writes it: the export assigned once the class is defined, after a require of a module that requires this one back
      "src/cycle.cjs": embeddingsModule("CycleEmbeddings", "data", `require("./back.cjs");`),
      "src/back.cjs": `exports.cycle = require("./cycle.cjs");\n`,
      "llm/own.test.cjs": [
        `test("embeds with the project's own classes", async () => {`,
        `  const { RelativeEmbeddings } = require("../src/relative.cjs");`,
        `  const { AliasedEmbeddings } = require("@app/aliased.cjs");`,
        `  expect(await new RelativeEmbeddings().embedQuery("one")).toEqual([3, 0.5]);`,
        `  expect(await new AliasedEmbeddings().embedQuery("three")).toEqual([5, 0.5]);`,
        `  const { CycleEmbeddings } = require("../src/cycle.cjs");`,
        `  expect(await new CycleEmbeddings().embedQuery("five")).toEqual([4, 0.5]);`,
        `});`,
        ``,
      ].join("\n"),
    });
    const rec = await p.run([JEST, "--ci"], { LANGCHAIN_VCR_MODE: "record_or_replay" });
    expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
    expect([p.sideLines(), p.fixtures().length]).to.deep.equal([["RelativeEmbeddings ran", "AliasedEmbeddings ran", "CycleEmbeddings ran"], 3]);
    const replay = await p.run([JEST, "--ci"], { CI: "true" });
    expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
    expect(p.sideLines()).to.have.length(3);
    expect(summaryLines(replay)[0]).to.match(/^langchain-vcr: 3 replayed, 0 recorded/);
  });
});

describe("langchain-vcr/jest: a setup file ending with afterAll(() => uninstall())", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("jest runs it before the test file's own afterAll, whose model calls then go live: a warning naming the class, once per test file, and none for an explicit vcr.embeddings() there (before: nothing said it)", async () => {
    await withFakeProvider({}, async (fake) => {
      const asking = (name: string) =>
        [
          `const { Vcr } = require("langchain-vcr");`,
          `const { ChatOpenAI, OpenAIEmbeddings } = require("@langchain/openai");`,
          `const client = { apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } };`,
          `const model = () => new ChatOpenAI({ model: "gpt-4o-mini", ...client });`,
          `afterAll(async () => {`,
          // wrapped explicitly, with a Vcr of its own: recorded, so no warning
          `  await new Vcr({ dir: "cassettes" }).embeddings(new OpenAIEmbeddings(client)).embedQuery("embedded in ${name}'s afterAll");`,
          `  await model().invoke("asked in ${name}'s afterAll");`,
          `  await model().invoke("asked again in ${name}'s afterAll");`,
          `});`,
          `test("asks ${name}", async () => { await model().invoke("a question from ${name}"); });`,
          ``,
        ].join("\n");
      const p = makeProject({
        "vcr-setup.cjs": `const { Vcr } = require("langchain-vcr");\nconst uninstall = new Vcr({ dir: "cassettes" }).install();\nafterAll(() => uninstall());\n`,
        "jest.config.cjs": JEST_LLM_CONFIG,
        "llm/a.test.cjs": asking("a"),
        "llm/b.test.cjs": asking("b"),
      });
      const run = await p.run([JEST, "--ci", "--maxWorkers=1"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      const out = run.stdout + run.stderr;
      expect(run.status, out).to.equal(0);
      // per file: the test's call and the explicit embedding recorded; the two model calls in afterAll went live, unrecorded
      expect([fake.count(), p.fixtures().length]).to.deep.equal([8, 4]);
      expect(
        out.match(/a model call \(ChatOpenAI\) was made after this test file's vcr\.install\(\) was undone, so no Vcr recorded or replayed it/g),
        out,
      ).to.have.length(2);
      expect(out).to.not.include("an embeddings call");
    });
  });
});

describe("langchain-vcr/jest: test.concurrent tests, which jest runs without beforeEach/afterEach, each get a scope of their own", function () {
  this.timeout(120000);
  after(removeTmpDirs);
  const CONFIG = `module.exports = { testEnvironment: "node", transform: {}, testMatch: ["**/test/**/*.test.cjs"], testTimeout: 20000, setupFilesAfterEnv: ["langchain-vcr/jest"], reporters: ["default", "langchain-vcr/jest/reporter"] };\n`;
  const CITIES = [
    `const fs = require("node:fs");`,
    `const { ChatOpenAI } = require("@langchain/openai");`,
    `const { tool } = require("@langchain/core/tools");`,
    `const { z } = require("zod");`,
    `const { Vcr } = require("langchain-vcr");`,
    `const vcr = new Vcr({ dir: "cassettes" });`,
    `const side = (line) => fs.appendFileSync(process.env.SIDE_FILE, line + "\\n");`,
    `const model = () => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } });`,
    `const lookup = vcr.tool(tool(async ({ q }) => { side("lookup " + q); await new Promise((r) => setTimeout(r, 20)); return "found " + q; }, { name: "lookup", description: "Looks a thing up.", schema: z.object({ q: z.string() }) }));`,
    `describe("cities", () => {`,
    `  test.concurrent.each(["Athens", "Sofia"])("weather in %s", async (city) => {`,
    `    await lookup.invoke({ q: "same" });`,
    `    await lookup.invoke({ q: "same" });`,
    `    await model().invoke("What is the weather in " + city + "?" + (process.env.SUFFIX || ""));`,
    `    if (process.env.FAIL_CITY === city) throw new Error("fails after recording");`,
    `  });`,
    `});`,
    ``,
  ].join("\n");
  const chatQuestions = (p: Project) =>
    fixturesOf(p, "chat")
      .map((f) => JSON.parse(fs.readFileSync(path.join(p.dir, FIXTURES, f), "utf8")).request.messages[0].content as string)
      .sort();

  it("each numbers its own tool calls (2 tool fixtures and 2 body runs for two tests calling lookup twice, not 4); a miss names the test, and the printed command records just it", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({ "jest.config.cjs": CONFIG, "test/cities.test.cjs": CITIES });
      const env = { FAKE_URL: fake.openaiBaseURL };
      const rec = await p.run([JEST, "--ci"], { ...env, LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
      expect(fixturesOf(p, "tool", "lookup"), rec.stdout + rec.stderr).to.have.length(2); // calls 1 and 2 of each test
      expect(p.sideLines()).to.deep.equal(["lookup same", "lookup same"]); // the twin waited on the one live call
      expect(chatQuestions(p)).to.deep.equal(["What is the weather in Athens?", "What is the weather in Sofia?"]);
      const replay = await p.run([JEST, "--ci"], { ...env, CI: "true" });
      expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
      expect(fake.count()).to.equal(2);
      expect(summaryLines(replay)[0]).to.match(/^langchain-vcr: 6 replayed, 0 recorded/);

      const miss = await p.run([JEST, "--ci"], { ...env, CI: "true", SUFFIX: " Be brief." });
      expect(miss.status).to.equal(1);
      const out = miss.stdout + miss.stderr;
      expect(out).to.include("test:     cities weather in Athens").and.include("test:     cities weather in Sofia");
      expect(out).to.include(`LANGCHAIN_VCR_MODE=record_or_replay npx jest test/cities.test.cjs -t "cities weather in Athens"`);
      const printed = await p.run([JEST, "--ci", "test/cities.test.cjs", "-t", "cities weather in Athens"], {
        ...env,
        SUFFIX: " Be brief.",
        LANGCHAIN_VCR_MODE: "record_or_replay",
      });
      expect(printed.status, printed.stdout + printed.stderr).to.equal(0);
      expect(fake.count()).to.equal(3); // that test's question alone
      expect(chatQuestions(p)).to.include("What is the weather in Athens? Be brief.").and.not.include("What is the weather in Sofia? Be brief.");
      // Sofia's miss now shows its own old fixture, not Athens's new one that this run replayed (whose text differs by less)
      const half = await p.run([JEST, "--ci"], { ...env, CI: "true", SUFFIX: " Be brief." });
      expect(half.status).to.equal(1);
      const halfOut = half.stdout + half.stderr;
      expect(halfOut).to.include(`messages[0].content: "What is the weather in Sofia?" → "What is the weather in Sofia? Be brief."`);
      expect(halfOut).not.to.include(`"What is the weather in Athens? Be brief." → "What is the weather in Sofia? Be brief."`);
    });
  });

  it("two with the same title are two tests: each numbers its own tool calls (2 tool fixtures, not 4)", async () => {
    await withFakeProvider({}, async (fake) => {
      const twins = CITIES.replace(
        `test.concurrent.each(["Athens", "Sofia"])("weather in %s", async (city) => {`,
        `test.concurrent.each(["Athens", "Athens"])("weather in Athens", async (city) => {`,
      );
      const p = makeProject({ "jest.config.cjs": CONFIG, "test/cities.test.cjs": twins });
      const rec = await p.run([JEST, "--ci"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
      expect(fixturesOf(p, "tool", "lookup"), rec.stdout + rec.stderr).to.have.length(2);
    });
  });

  it("a failed one's recordings are undone, not its neighbour's", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({ "jest.config.cjs": CONFIG, "test/cities.test.cjs": CITIES });
      const rec = await p.run([JEST, "--ci"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay", FAIL_CITY: "Athens" });
      expect(rec.status).to.equal(1);
      expect(fake.count()).to.equal(2);
      expect(chatQuestions(p), rec.stdout + rec.stderr).to.deep.equal(["What is the weather in Sofia?"]);
      expect(summaryLines(rec)[0]).to.match(/^langchain-vcr: \d+ replayed, \d+ recorded \(\d+ more undone: their tests failed\)/);
      // the tool calls both tests made: recorded once, by whichever asked first; the other replayed them and passed, so they stay
      expect(fixturesOf(p, "tool", "lookup"), rec.stdout + rec.stderr).to.have.length(2);
      expect(rec.stdout + rec.stderr).to.include(`test "cities weather in Athens" failed, but 2 fixture(s) it recorded stay: tests beside it replayed them.`);
      expect((rec.stdout + rec.stderr).match(/\(kept: test "cities weather in Sofia" passed with it\)/g)).to.have.length(2);
    });
  });
});

describe("langchain-vcr/jest: a failed test's recording that a later test of the file replayed and passed with", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("stays (jest undoes a failed test's recordings once the file has run, after the later test replayed it)", async () => {
    await withFakeProvider({}, async (fake) => {
      const CONFIG = `module.exports = { testEnvironment: "node", transform: {}, testMatch: ["**/test/**/*.test.cjs"], testTimeout: 20000, setupFilesAfterEnv: ["langchain-vcr/jest"], reporters: ["default", "langchain-vcr/jest/reporter"] };\n`;
      const p = makeProject({
        "jest.config.cjs": CONFIG,
        "test/two.test.cjs": [
          `const { ChatOpenAI } = require("@langchain/openai");`,
          `const { Vcr } = require("langchain-vcr");`,
          `const vcr = new Vcr({ dir: "cassettes" });`,
          `const ask = () => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } }).invoke("asked by two tests");`,
          `test("fails", async () => { await ask(); throw new Error("fails after recording"); });`,
          `test("passes", async () => { await ask(); });`,
          `test("fails alone", async () => { await new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } }).invoke("asked by one failing test"); throw new Error("fails"); });`,
          ``,
        ].join("\n"),
      });
      const out = await p.run([JEST, "--ci"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      const text = out.stdout + out.stderr;
      expect(out.status, text).to.equal(1);
      expect(fake.count(), "the later test replayed").to.equal(2);
      expect(text).to.include(`test "fails" failed, but 1 fixture(s) it recorded stay: tests beside it replayed them.`);
      expect(text).to.include(`(kept: test "passes" passed with it)`);
      expect(text).to.include(`test "fails alone" (test/two.test.cjs) failed: removed 1 fixture(s) it recorded`);
      expect(p.fixtures(), text).to.have.length(1);
      const replay = await p.run([JEST, "--ci", "-t", "^passes$"], { FAKE_URL: fake.openaiBaseURL, CI: "true" });
      expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
      expect(fake.count()).to.equal(2);
    });
  });
});

describe("langchain-vcr/jest: a test jest.retryTimes() runs again", function () {
  this.timeout(120000);
  after(removeTmpDirs);
  const CONFIG = `module.exports = { testEnvironment: "node", transform: {}, testMatch: ["**/test/**/*.test.cjs"], testTimeout: 20000, setupFilesAfterEnv: ["langchain-vcr/jest"], reporters: ["default", "langchain-vcr/jest/reporter"] };\n`;
  const ASK = [
    `const { ChatOpenAI } = require("@langchain/openai");`,
    `const { Vcr } = require("langchain-vcr");`,
    `const vcr = new Vcr({ dir: "cassettes" });`,
    `const ask = (q) => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } }).invoke(q + (process.env.SUFFIX || ""));`,
    `const attempts = {};`,
    // records, then fails its first attempt (FAIL_ALL: every attempt)
    `const flaky = (title) => async () => {`,
    `  attempts[title] = (attempts[title] || 0) + 1;`,
    `  await ask("asked by " + title);`,
    `  if (attempts[title] === 1 || process.env.FAIL_ALL) throw new Error("attempt " + attempts[title] + " fails");`,
    `};`,
  ];
  const FILES = {
    "jest.config.cjs": CONFIG,
    "test/retry.test.cjs": [
      ...ASK,
      `jest.retryTimes(2);`,
      `test("flaky", flaky("flaky"));`,
      `test("steady", () => ask("asked by steady"));`,
      `test.concurrent("concurrent flaky", flaky("concurrent flaky"));`,
      ``,
    ].join("\n"),
    "test/describe.test.cjs": [
      ...ASK,
      `describe("block", () => {`,
      `  jest.retryTimes(1, { entireDescribe: true });`,
      `  test("flaky", flaky("block flaky"));`,
      `  test("steady", () => ask("asked by block steady"));`,
      `});`,
      ``,
    ].join("\n"),
  };

  it("a failed attempt's recordings are undone before the retry, which records again (8 requests, not 5: the retries replayed the failures' recordings); the summary says so; a CI run replays all", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject(FILES);
      const out = await p.run([JEST, "--ci"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      const text = out.stdout + out.stderr;
      expect(out.status, text).to.equal(0);
      // each flaky test twice (its first attempt undone), block flaky's describe twice (block steady replays its own the second time), steady once
      expect(fake.count(), text).to.equal(8);
      expect(p.fixtures(), text).to.have.length(5);
      expect(text).to.include(`test "flaky" (test/retry.test.cjs) failed an attempt, which its runner's retry runs again: removed 1 fixture(s) it recorded`);
      expect(text).to.include(
        `test "concurrent flaky" (test/retry.test.cjs) failed an attempt, which its runner's retry runs again: removed 1 fixture(s) it recorded`,
      );
      expect(text).to.include(
        `test "block flaky" (test/describe.test.cjs) failed an attempt, which its runner's retry runs again: removed 1 fixture(s) it recorded`,
      );
      expect(text).to.not.include(`test "block steady" failed`);
      expect(summaryLines(out)[0], text).to.match(
        /^langchain-vcr: 1 replayed, 5 recorded \(3 more undone: failed attempts the runner retried\), 0 bypassed, 0 missed/,
      );
      const check = await p.cli(["prune", "--check", FIXTURES]);
      expect(check.status, check.stdout + check.stderr).to.equal(0);
      const replay = await p.run([JEST, "--ci"], { FAKE_URL: fake.openaiBaseURL, CI: "true" });
      expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
      expect(fake.count(), "no request in CI").to.equal(8);
    });
  });

  it("a failed attempt's recording that a test jest ran before the retry replayed and passed with stays (the retry replays it: 1 request); with retryImmediately nothing runs between, and the retry records again (2 requests)", async () => {
    await withFakeProvider({}, async (fake) => {
      const shared = (options: string) =>
        [...ASK, `jest.retryTimes(1${options});`, `test("flaky shared", flaky("shared"));`, `test("replays it", () => ask("asked by shared"));`, ``].join("\n");
      const p = makeProject({ "jest.config.cjs": CONFIG, "test/shared.test.cjs": shared("") });
      const out = await p.run([JEST, "--ci"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      const text = out.stdout + out.stderr;
      expect(out.status, text).to.equal(0);
      expect(fake.count(), text).to.equal(1);
      expect(text).to.include(
        `test "flaky shared" failed an attempt, which its runner's retry runs again, but 1 fixture(s) it recorded stay: tests beside it replayed them.`,
      );
      expect(text).to.include(`(kept: test "replays it" passed with it)`);
      expect(p.fixtures()).to.have.length(1);
      const immediate = makeProject({ "jest.config.cjs": CONFIG, "test/shared.test.cjs": shared(", { retryImmediately: true }") });
      const again = await immediate.run([JEST, "--ci"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(again.status, again.stdout + again.stderr).to.equal(0);
      expect(fake.count(), again.stdout + again.stderr).to.equal(3);
      expect(again.stdout + again.stderr).to.include(`test "flaky shared" (test/shared.test.cjs) failed an attempt, which its runner's retry runs again`);
      expect(immediate.fixtures()).to.have.length(1);
    });
  });

  it("a test failing every attempt: the retried attempts undone in the test process, the last by the reporter; a request missing on each attempt in CI is 1 request to the summary's roll-up", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({ "jest.config.cjs": CONFIG, "test/retry.test.cjs": FILES["test/retry.test.cjs"] });
      const out = await p.run([JEST, "--ci"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay", FAIL_ALL: "1" });
      const text = out.stdout + out.stderr;
      expect(out.status, text).to.equal(1);
      expect(fake.count(), text).to.equal(7); // 3 attempts of each flaky test, steady once
      expect(p.fixtures(), text).to.have.length(1); // steady's
      expect(summaryLines(out)[0], text).to.match(
        /^langchain-vcr: 0 replayed, 1 recorded \(2 more undone: their tests failed; 4 more undone: failed attempts the runner retried\), 0 bypassed/,
      );
      const miss = await p.run([JEST, "--ci", "-t", "^flaky$"], { FAKE_URL: fake.openaiBaseURL, CI: "true", SUFFIX: " Be brief." });
      const missText = miss.stdout + miss.stderr;
      expect(miss.status, missText).to.equal(1);
      expect(fake.count(), "no request in CI").to.equal(7);
      expect(summaryLines(miss)[0], missText).to.match(/ 0 recorded, 0 bypassed, 3 missed — mode replay_only/);
      expect(missText).to.not.include("share their first difference");
    });
  });
});

describe("langchain-vcr/jest with projects: setupFilesAfterEnv at the root only (jest ignores it there)", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  const cases = [
    {
      where: "root",
      args: [],
      title: "no test file loads the plugin: the reporter warns once, naming the fix (before: a live run with nothing said)",
      counts: [1, 0, 1],
    },
    {
      where: "root",
      args: ["llm/ask"],
      title: "the same, in a run narrowed to some test files: no warning (a narrowed run may leave out the projects that use it)",
      counts: [1, 0, 0],
    },
    { where: "project", args: [], title: "in each project: no warning, and the model is recorded", counts: [1, 1, 0] },
  ] as const;
  for (const { where, args, title, counts } of cases)
    it(title, async () => {
      await withFakeProvider({}, async (fake) => {
        const setup = `setupFilesAfterEnv: ["langchain-vcr/jest", "<rootDir>/vcr-setup.cjs"]`;
        const p = makeProject({
          "vcr-setup.cjs": INSTALL_SETUP_CJS,
          "jest.config.cjs": [
            `module.exports = {`,
            where === "root" ? `  ${setup},` : ``,
            `  reporters: ["default", "langchain-vcr/jest/reporter"],`,
            `  projects: [{ displayName: "llm", testEnvironment: "node", transform: {}, testMatch: ["<rootDir>/llm/**/*.test.cjs"]${where === "project" ? `, ${setup}` : ""} }],`,
            `};`,
            ``,
          ].join("\n"),
          "llm/ask.test.cjs": [
            `const { ChatOpenAI } = require("@langchain/openai");`,
            `test("asks", async () => {`,
            `  await new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } }).invoke("a question");`,
            `});`,
            ``,
          ].join("\n"),
        });
        const run = await p.run([JEST, "--ci", ...args], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
        const out = run.stdout + run.stderr;
        expect(run.status, out).to.equal(0);
        const warnings = out.match(/tests ran in 1 test file\(s\), and none of them loaded langchain-vcr\/jest/g) ?? [];
        expect([fake.count(), p.fixtures().length, warnings.length], out).to.deep.equal([...counts]);
        if (counts[2]) expect(out).to.include(`Fix it: add setupFilesAfterEnv: ["langchain-vcr/jest", …] to the config of every project that calls models`);
      });
    });

  it("a project whose setup file calls vcr.install() without langchain-vcr/jest: its fixtures replay, the reporter names the test file in a narrowed run too, and prune will not trust the run (before: the summary said 0 used, no warning, and prune kept the suite's fixtures as another suite's)", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({
        "vcr-setup.cjs": INSTALL_SETUP_CJS,
        "jest.config.cjs": [
          `module.exports = {`,
          `  reporters: ["default", "langchain-vcr/jest/reporter"],`,
          `  projects: [{ displayName: "llm", testEnvironment: "node", transform: {}, testMatch: ["<rootDir>/llm/**/*.test.cjs"], setupFilesAfterEnv: ["<rootDir>/vcr-setup.cjs"] }],`,
          `};`,
          ``,
        ].join("\n"),
        "llm/ask.test.cjs": [
          `const { ChatOpenAI } = require("@langchain/openai");`,
          `const ask = (q) => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } }).invoke(q);`,
          `test("asks", () => ask("a question"));`,
          ``,
        ].join("\n"),
        "llm/other.test.cjs": `test("calls no model", () => {});\n`,
      });
      const warning = "1 test file(s) used langchain-vcr without loading langchain-vcr/jest, so their fixture use was not counted (llm/ask.test.cjs)";
      const record = await p.run([JEST, "--ci"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      let out = record.stdout + record.stderr;
      expect(record.status, out).to.equal(0);
      expect([fake.count(), p.fixtures().length, out.split(warning).length - 1], out).to.deep.equal([1, 1, 1]);
      expect(out).to.include(`Fix it: put "langchain-vcr/jest" first in that setupFilesAfterEnv`);
      expect(out, "the other warning is for runs where nothing used langchain-vcr").to.not.include("none of them loaded langchain-vcr/jest");
      const narrowed = await p.run([JEST, "--ci", "llm/ask"], { FAKE_URL: fake.openaiBaseURL, CI: "true" });
      out = narrowed.stdout + narrowed.stderr;
      expect(narrowed.status, out).to.equal(0);
      expect([fake.count(), out.split(warning).length - 1], out).to.deep.equal([1, 1]);
      const prune = await p.cli(["prune", "--dry-run", FIXTURES]);
      out = prune.stdout + prune.stderr;
      expect(prune.status, out).to.equal(1);
      expect(out).to.include("1 test file(s) used langchain-vcr without loading langchain-vcr/jest");
      expect(p.fixtures(), out).to.have.length(1);
    });
  });
});

describe("langchain-vcr/jest: the two jest modules in the wrong slot, or not in the config at all (trial 41)", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  const ASK = [
    `const { ChatOpenAI } = require("@langchain/openai");`,
    `test("asks", async () => {`,
    `  await new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } }).invoke(__filename.slice(-12));`,
    `});`,
    ``,
  ].join("\n");
  const FIX = `Fix it: in jest.config, setupFilesAfterEnv: ["langchain-vcr/jest", `;
  /** A project of two test files that ask a model, with `config`'s lines in jest.config; its run (two workers) against the fake. */
  async function runWith(fake: FakeProvider, config: string[], mode = "record_or_replay"): Promise<{ status: number | null; out: string; p: Project }> {
    const p = makeProject({
      "vcr-setup.cjs": INSTALL_SETUP_CJS,
      "jest.config.cjs": jestConfigCjs("test", config),
      "test/a.test.cjs": ASK,
      "test/b.test.cjs": ASK,
    });
    const run = await p.run([JEST, "--ci", "--maxWorkers=2"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: mode });
    return { status: run.status, out: run.stdout + run.stderr, p };
  }
  const count = (out: string, text: string) => out.split(text).length - 1;

  it("langchain-vcr/jest in setupFiles: each test file fails with what is wrong and the config, no stack into langchain-vcr (before: TypeError reading 'getState')", async () => {
    await withFakeProvider({}, async (fake) => {
      const { status, out } = await runWith(fake, [
        `  setupFiles: ["langchain-vcr/jest", "<rootDir>/vcr-setup.cjs"],`,
        `  reporters: ["default", "langchain-vcr/jest/reporter"],`,
      ]);
      expect(status, out).to.equal(1);
      expect([count(out, "it is in setupFiles, which jest runs before beforeEach"), count(out, FIX), fake.count()], out).to.deep.equal([2, 2, 0]);
      expect(out)
        .to.not.include("getState")
        .and.not.match(/^\s+at /m);
    });
  });

  it("langchain-vcr/jest in reporters: jest stops with what is wrong and the config, no stack into @jest/globals (before: 'Do not import @jest/globals outside of the Jest test environment')", async () => {
    await withFakeProvider({}, async (fake) => {
      const { status, out } = await runWith(fake, [`  setupFilesAfterEnv: ["<rootDir>/vcr-setup.cjs"],`, `  reporters: ["default", "langchain-vcr/jest"],`]);
      expect(status, out).to.equal(1);
      expect([count(out, "langchain-vcr/jest was loaded outside a jest test file"), count(out, FIX), fake.count()], out).to.deep.equal([1, 1, 0]);
      expect(out)
        .to.not.include("@jest/globals/build")
        .and.not.match(/^\s+at /m); // jest's own line names the module's path
    });
  });

  for (const slot of ["setupFilesAfterEnv", "setupFiles"])
    it(`langchain-vcr/jest/reporter in ${slot}: each test file fails with what is wrong and the config (before: 'Class constructor … cannot be invoked without new')`, async () => {
      await withFakeProvider({}, async (fake) => {
        const config = slot === "setupFiles" ? [`  setupFiles: ["langchain-vcr/jest/reporter"],`] : [];
        const after = slot === "setupFiles" ? `"langchain-vcr/jest", ` : `"langchain-vcr/jest", "langchain-vcr/jest/reporter", `;
        const { status, out } = await runWith(fake, [...config, `  setupFilesAfterEnv: [${after}"<rootDir>/vcr-setup.cjs"],`]);
        expect(status, out).to.equal(1);
        expect([count(out, "langchain-vcr/jest/reporter was loaded in a jest test file"), count(out, FIX), fake.count()], out).to.deep.equal([2, 2, 0]);
        expect(out).to.not.include("cannot be invoked without 'new'");
      });
    });

  it("neither module, a setup file calling vcr.install(): recorded and replayed, and one warning for the run of two test files (before: nothing said, and a failed test's recording stayed)", async () => {
    await withFakeProvider({}, async (fake) => {
      const { status, out, p } = await runWith(fake, [`  setupFilesAfterEnv: ["<rootDir>/vcr-setup.cjs"],`]);
      expect(status, out).to.equal(0);
      expect(
        [fake.count(), p.fixtures().length, count(out, "langchain-vcr: this jest run loads neither langchain-vcr/jest nor its reporter"), count(out, FIX)],
        out,
      ).to.deep.equal([2, 2, 1, 1]);
    });
  });

  it("the setup file without the reporter: one warning for the run of two test files (before: one per test file)", async () => {
    await withFakeProvider({}, async (fake) => {
      const { status, out, p } = await runWith(fake, [`  setupFilesAfterEnv: ["langchain-vcr/jest", "<rootDir>/vcr-setup.cjs"],`]);
      expect(status, out).to.equal(0);
      expect([fake.count(), p.fixtures().length, count(out, "the jest setup file is loaded but not its reporter")], out).to.deep.equal([2, 2, 1]);
      expect(out).to.not.include("loads neither langchain-vcr/jest nor its reporter");
    });
  });
});
