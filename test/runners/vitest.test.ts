/**
 * langchain-vcr/vitest in a user's project: ESM test files, `plugins: [langchainVcr()]`. vitest 4
 * (this repository's), or the newest vitest (`npm run test:vitest-latest` sets VCR_TEST_VITEST).
 */
import * as path from "node:path";
import { expect } from "chai";
import * as fs from "node:fs";
import { withFakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs } from "../helpers/tmp";
import { git } from "../helpers/git";
import { DASH_T, describeParity } from "./helpers/parity";
import {
  addDeadFixture,
  cachelessAppFiles,
  expectPrintedCommandRecords,
  FIXTURES,
  makeProject,
  REFUND_ANSWERS,
  summaryLines,
  VITEST_DIR,
  vitestMajor,
} from "./helpers/project";

import { MERGE_LINE } from "../../src/vitest/reporter";

const VITEST = path.join(VITEST_DIR, "vitest.mjs");
const MAJOR = vitestMajor();
/** A test's name as vitest's -t matches it: "suite > test" from vitest 5, "suite test" before. */
const named = (suite: string, test: string) => (MAJOR >= 5 ? `${suite} > ${test}` : `${suite} ${test}`);
const CHAT = named("chat", "asks");
/** Where the blob reporter writes by default. */
const BLOB_DIR = MAJOR >= 5 ? ".vitest/blob" : ".vitest-reports";

const CONFIG = (reporters = "") =>
  [
    `import langchainVcr from "langchain-vcr/vitest";`,
    `export default { plugins: [langchainVcr()], test: { include: ["test/**/*.test.mjs"], testTimeout: 20000${reporters} } };`,
    ``,
  ].join("\n");

const FILES: Record<string, string> = {
  "vitest.config.mjs": CONFIG(),
  // two test files, so vitest forks two test processes (and a --shard pair has one each)
  "test/a.test.mjs": [
    `import { describe, test } from "vitest";`,
    `import { askChat, hang } from "../scenario.mjs";`,
    `describe("chat", () => { test("asks", () => askChat("${CHAT}")); });`,
    `describe("hang", () => { test.skipIf(!process.env.HANG_URL)("times out", () => hang("${named("hang", "times out")}"), 1500); });`,
    ``,
  ].join("\n"),
  "test/b.test.mjs": [
    `import { afterAll, describe, test } from "vitest";`,
    `import { askAgent, askInHook, lookupTwice } from "../scenario.mjs";`,
    `afterAll(() => askInHook("b's afterAll"));`,
    `describe("agent", () => {`,
    `  test("refund once", () => askAgent("agent refund once"));`,
    `  test("refund again", () => askAgent("agent refund again"));`,
    `});`,
    `describe("concurrent", () => {`,
    `  test.concurrent("c1", () => lookupTwice("c1"));`,
    `  test.concurrent("c2", () => lookupTwice("c2"));`,
    `});`,
    ``,
  ].join("\n"),
};

describeParity({
  runnerNeedsTmpdir: true,
  name: `langchain-vcr/vitest (vitest ${MAJOR})`,
  // two workers, so the two test files run in two processes at once whatever the core count
  command: [VITEST, "run", "--maxWorkers=2"],
  ...DASH_T,
  chatAndHang: `${CHAT}|hang`,
  chatTitle: CHAT,
  hangTitle: named("hang", "times out"),
  list: [VITEST, "list"],
  narrowing: { args: ["--exclude", "test/b.test.mjs"], option: "--exclude" },
  skippedFile: { name: "test/c.test.mjs", text: `import { test } from "vitest";\ntest.skip("skipped", () => {});\n` },
  hint: `LANGCHAIN_VCR_MODE=record_or_replay npx vitest run test/a.test.mjs -t "${CHAT}"`,
  concurrent: true,
  changedOnly: { args: ["--changed"], file: "test/a.test.mjs", reason: "--changed ran only the test files related to changed files" },
  onlyFile: { name: "test/c.test.mjs", text: `import { test } from "vitest";\ntest("left out", () => {});\ntest.only("focused", () => {});\n` },
  files: FILES,
});

describe("langchain-vcr/vitest and vitest's reporters (--reporter, blob reports of CI shards, --merge-reports)", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("shards with the blob reporter in the config write their ledgers (prune merges them); a --merge-reports run writes none and leaves the shards' run the last", async () => {
    await withFakeProvider({ answers: REFUND_ANSWERS }, async (fake) => {
      // as docs/runners.md shows: --merge-reports refuses a config naming the blob reporter, so only shard runs name it
      const p = makeProject({
        ...FILES,
        "vitest.config.mjs": CONFIG(`, reporters: process.argv.some((a) => a.startsWith("--shard")) ? ["default", "blob"] : ["default"]`),
      });
      const env = { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay", LANGCHAIN_VCR_RUN_ID: `blob-${Date.now()}` };
      for (const i of [1, 2]) {
        const out = await p.run([VITEST, "run", `--shard=${i}/2`], env);
        expect(out.status, out.stdout + out.stderr).to.equal(0);
        expect(out.stderr).to.not.include("replaces the ones in the config");
      }
      expect(fs.readdirSync(path.join(p.dir, BLOB_DIR))).to.have.length(2);
      const shards = await p.cli(["prune", "--dry-run", FIXTURES]);
      expect(shards.status, shards.stdout + shards.stderr).to.equal(0);
      expect(shards.stdout).to.include("2 shard(s)");
      const merged = await p.run([VITEST, "run", "--merge-reports"], { FAKE_URL: fake.openaiBaseURL });
      expect(merged.status, merged.stdout + merged.stderr).to.equal(0);
      // a merge runs no test: it says so instead of a summary of 0 calls, and leaves the shards' run the last on record
      expect(merged.stdout).to.include(MERGE_LINE);
      expect(summaryLines(merged)).to.deep.equal([]);
      const after = await p.cli(["prune", "--dry-run", FIXTURES]);
      expect(after.status, after.stdout + after.stderr).to.equal(0);
      expect(after.stdout).to.equal(shards.stdout);
    });
  });

  it("sequence.hooks 'list' (the setup file's afterAll runs first), isolated or not: a fixture used only by a file's top-level afterAll stays in the ledger, counted once", async () => {
    await withFakeProvider({ answers: REFUND_ANSWERS }, async (fake) => {
      const p = makeProject({ ...FILES, "vitest.config.mjs": CONFIG(`, sequence: { hooks: "list" }`) });
      const env = { FAKE_URL: fake.openaiBaseURL };
      // one worker for both files, not isolated: the first file's report follows late use only until the second file starts
      const rec = await p.run([VITEST, "run", "--no-isolate", "--maxWorkers=1"], { ...env, LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
      const recorded = p.fixtures();
      expect(summaryLines(rec)[0], "each recording counted once").to.include(`, ${recorded.length} recorded,`);
      const hookFixture = recorded.find((f) => fs.readFileSync(path.join(p.dir, FIXTURES, f), "utf8").includes("asked in b's afterAll"));
      expect(hookFixture, "the hook recorded its question").to.be.a("string");
      const replay = await p.run([VITEST, "run"], { ...env, LANGCHAIN_VCR_MODE: "replay_only" });
      expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
      const dead = addDeadFixture(p, "hooks list");
      const prune = await p.cli(["prune", FIXTURES]);
      expect(prune.status, prune.stdout + prune.stderr).to.equal(0);
      expect(prune.stdout).to.include(`removed 1 of ${recorded.length + 1} fixture(s)`);
      expect(p.fixtures()).to.deep.equal(recorded).and.not.include(dead);
    });
  });

  it("--reporter on the command line drops the plugin's reporter: the run says so and how to fix it, and writes no ledger", async () => {
    await withFakeProvider({ answers: REFUND_ANSWERS }, async (fake) => {
      const p = makeProject(FILES);
      const out = await p.run([VITEST, "run", "--reporter=dot"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(out.status, out.stdout + out.stderr).to.equal(0);
      expect(out.stderr).to.include(
        "langchain-vcr: vitest's command line set the reporters (dot), which replaces the ones in the config, langchain-vcr's among them.\n" +
          "  So this run prints no langchain-vcr summary and writes no usage ledger: `langchain-vcr prune` will not count what it used.\n" +
          "  Fix: name the reporters in vitest.config instead of with --reporter",
      );
      expect(fs.existsSync(path.join(p.dir, "node_modules/.cache/langchain-vcr/ledgers"))).to.equal(false);
    });
  });

  it("a workspace whose projects name the plugin but whose root config does not: the run says so and how to fix it; with the plugin in the root too, one summary line and a ledger", async () => {
    await withFakeProvider({ answers: REFUND_ANSWERS }, async (fake) => {
      const pkg = (name: string) => ({
        [`packages/${name}/vitest.config.mjs`]: CONFIG().replace(`test: {`, `test: { name: "${name}",`),
        [`packages/${name}/test/a.test.mjs`]: `import { test } from "vitest";\nimport { askChat } from "../../../scenario.mjs";\ntest("asks", () => askChat("${name} asks"));\n`,
      });
      const roots = [`export default { test: { projects: ["packages/*"] } };\n`, CONFIG().replace(/test: \{[^}]*\}/, `test: { projects: ["packages/*"] }`)];
      const outs = [];
      for (const root of roots) {
        const p = makeProject({ "vitest.config.mjs": root, ...pkg("one"), ...pkg("two") });
        const out = await p.run([VITEST, "run"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
        expect(out.status, out.stdout + out.stderr).to.equal(0);
        outs.push({ out, ledger: fs.existsSync(path.join(p.dir, "node_modules/.cache/langchain-vcr/ledgers")) });
      }
      const [without, withRoot] = outs;
      expect(without.out.stderr).to.include(
        "langchain-vcr: vitest's reporters (default) do not include langchain-vcr's: the plugin is named in a config that does not set them (in a workspace, the root config does).\n" +
          "  So this run prints no langchain-vcr summary and writes no usage ledger: `langchain-vcr prune` will not count what it used.\n" +
          "  Fix: add langchainVcr() to the plugins of the root vitest.config too.\n",
      );
      expect(without.out.stderr.split("do not include langchain-vcr's")).to.have.length(2, "warned once for two projects");
      expect([without.ledger, summaryLines(without.out).length]).to.deep.equal([false, 0]);
      expect(withRoot.out.stderr).to.not.include("do not include langchain-vcr's");
      expect([withRoot.ledger, summaryLines(withRoot.out).length]).to.deep.equal([true, 1]);
    });
  });
});

describe("langchain-vcr/vitest: a miss's command to record the test runs it with the suite's own config", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("a suite run with -c vitest.llm.config.mjs (its setup file calls vcr.install()): the command carries -c, and as printed it records (the plain one finds no test)", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({
        // the default config runs other tests: the plain `npx vitest run -t …` never reaches the model test
        "vitest.config.mjs": `export default { test: { include: ["test/**/*.test.mjs"] } };\n`,
        "vitest.llm.config.mjs": [
          `import langchainVcr from "langchain-vcr/vitest";`,
          `export default { plugins: [langchainVcr()], test: { include: ["llm/*.test.mjs"], setupFiles: ["./vcr-setup.mjs"], testTimeout: 20000 } };`,
          ``,
        ].join("\n"),
        "vcr-setup.mjs": [
          `import { afterAll } from "vitest";`,
          `import { Vcr } from "langchain-vcr";`,
          `const uninstall = new Vcr({ dir: "cassettes" }).install();`,
          `afterAll(() => uninstall());`,
          ``,
        ].join("\n"),
        ...cachelessAppFiles("llm/app.test.mjs"),
      });
      await expectPrintedCommandRecords(
        p,
        fake,
        { FAKE_URL: fake.openaiBaseURL },
        {
          miss: [VITEST, "run", "-c", "vitest.llm.config.mjs", "--maxWorkers=1"],
          hint: `LANGCHAIN_VCR_MODE=record_or_replay npx vitest run -c vitest.llm.config.mjs llm/app.test.mjs -t "asks the app"`,
          // what the command used to be: the default config, no test of this name
          plain: [VITEST, "run", "-t", "asks the app"],
          printed: [VITEST, "run", "-c", "vitest.llm.config.mjs", "llm/app.test.mjs", "-t", "asks the app"],
        },
      );
    });
  });
});

describe("langchain-vcr/vitest: test.concurrent tests asking the same thing, one of which fails", function () {
  this.timeout(120000);
  after(removeTmpDirs);
  // "fails" records (it asks first); "passes" waits on that live call and replays the recording
  const TWO = [
    `import { test } from "vitest";`,
    `import { ChatOpenAI } from "@langchain/openai";`,
    `import { Vcr } from "langchain-vcr";`,
    `const vcr = new Vcr({ dir: "cassettes" });`,
    `const ask = () => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } }).invoke("asked by two tests at once");`,
    `const wait = (ms) => new Promise((r) => setTimeout(r, ms));`,
    `test.concurrent("fails", async () => { await ask(); await wait(Number(process.env.FAIL_AFTER)); throw new Error("fails after recording"); });`,
    `test.concurrent("passes", async () => { await ask(); await wait(Number(process.env.PASS_AFTER)); if (process.env.BOTH_FAIL) throw new Error("fails too"); });`,
    ``,
  ].join("\n");

  for (const c of [
    { name: "the other passed first: the recording stays", env: { FAIL_AFTER: "400", PASS_AFTER: "0" }, kept: 1, says: `kept: test "passes" passed with it` },
    {
      name: "the other still running: the recording is handed to it, and stays once it passes",
      env: { FAIL_AFTER: "0", PASS_AFTER: "400" },
      kept: 1,
      says: `now "passes"'s: still running`,
    },
    {
      name: "handed to the other, which fails too: undone",
      env: { FAIL_AFTER: "0", PASS_AFTER: "400", BOTH_FAIL: "1" },
      kept: 0,
      says: `now "passes"'s: still running`,
    },
  ]) {
    it(c.name, async () => {
      await withFakeProvider({}, async (fake) => {
        const p = makeProject({ "vitest.config.mjs": CONFIG(), "test/two.test.mjs": TWO });
        const out = await p.run([VITEST, "run"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay", ...c.env });
        expect(out.status).to.equal(1);
        expect(fake.count(), "one live call").to.equal(1);
        expect(out.stdout + out.stderr).to.include(`test "fails" failed, but 1 fixture(s) it recorded stay: tests beside it replayed them.`);
        expect(out.stdout + out.stderr).to.include(c.says);
        expect(p.fixtures(), out.stdout + out.stderr).to.have.length(c.kept);
        if (!c.kept) return;
        const replay = await p.run([VITEST, "run", "-t", "passes"], { FAKE_URL: fake.openaiBaseURL, CI: "true" });
        expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
        expect(fake.count(), "replayed").to.equal(1);
      });
    });
  }
});

describe("langchain-vcr/vitest: a test vitest's retry runs again", function () {
  this.timeout(120000);
  after(removeTmpDirs);
  // fails its first attempt after recording; FAIL_ALL: every attempt
  const FLAKY = [
    `import { test } from "vitest";`,
    `import * as fs from "node:fs";`,
    `import { ChatOpenAI } from "@langchain/openai";`,
    `import { Vcr } from "langchain-vcr";`,
    `const vcr = new Vcr({ dir: "cassettes" });`,
    `const ask = (q) => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } }).invoke(q + (process.env.SUFFIX || ""));`,
    `let attempts = 0;`,
    `test("flaky", { retry: 2 }, async () => {`,
    `  attempts++;`,
    `  await ask("asked by a flaky test");`,
    `  if (attempts === 1 || process.env.FAIL_ALL) throw new Error("attempt " + attempts + " fails");`,
    `});`,
    `test("steady", () => ask("asked by a steady test"));`,
    ``,
  ].join("\n");

  it("passing on a later attempt is passing: the run is complete and prune --check judges it, and the summary says the undone recording was a retried attempt's; failing every attempt is still a failure", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({ "vitest.config.mjs": CONFIG(), "test/flaky.test.mjs": FLAKY });
      const out = await p.run([VITEST, "run"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(out.status, out.stdout + out.stderr).to.equal(0);
      expect(fake.count(), "the first attempt's recording was undone, the second records again").to.equal(3);
      const cleanup = (out.stdout + out.stderr).split("\n").filter((l) => l.includes('test "flaky"'));
      expect(cleanup, out.stdout + out.stderr).to.have.length(1);
      expect(cleanup[0]).to.include(
        "failed an attempt, which its runner's retry runs again: removed 1 fixture(s) it recorded: nothing a failed attempt records is kept.",
      );
      expect(p.fixtures()).to.have.length(2);
      // the attempt's recording is undone as a retried attempt's, not as a failed test's (before: "their tests failed")
      expect(summaryLines(out)[0], out.stdout + out.stderr).to.match(
        /^langchain-vcr: 0 replayed, 2 recorded \(1 more undone: a failed attempt the runner retried\), 0 bypassed/,
      );
      const check = await p.cli(["prune", "--check", FIXTURES]);
      expect(check.status, check.stdout + check.stderr).to.equal(0);
      expect(check.stderr).to.not.include("refused");
      const failing = await p.run([VITEST, "run"], { FAKE_URL: fake.openaiBaseURL, CI: "true", FAIL_ALL: "1" });
      expect(failing.status).to.equal(1);
      const refused = await p.cli(["prune", "--check", FIXTURES]);
      expect(refused.status).to.equal(1);
      expect(refused.stderr).to.include(`1 test(s) failed (first: "flaky")`);
    });
  });

  it("a request that misses on each of a test's 3 attempts is 1 request to the summary's roll-up of shared differences: not rolled up (before: 3 of the 4 misses share …)", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({ "vitest.config.mjs": CONFIG(), "test/flaky.test.mjs": FLAKY });
      const rec = await p.run([VITEST, "run"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
      const out = await p.run([VITEST, "run"], { FAKE_URL: fake.openaiBaseURL, CI: "true", SUFFIX: " Be brief." });
      const text = out.stdout + out.stderr;
      expect(out.status, text).to.equal(1);
      expect(fake.count(), "no request in CI").to.equal(3);
      expect(summaryLines(out)[0], text).to.match(/ 0 recorded, 0 bypassed, 4 missed — mode replay_only/); // flaky's 3 attempts, steady's 1
      expect(text).to.include(`messages[0].content: "asked by a flaky test" → "asked by a flaky test Be brief."`);
      expect(text).to.not.include("share their first difference");
    });
  });
});

describe("langchain-vcr/vitest: a test file's own afterAll that throws or times out", function () {
  this.timeout(120000);
  after(removeTmpDirs);
  // vitest skips the setup file's afterAll (which finishes the file's report) once the file's own throws or times out
  const HOOKED = [
    `import { afterAll, test } from "vitest";`,
    `import { ChatOpenAI } from "@langchain/openai";`,
    `import { Vcr } from "langchain-vcr";`,
    `const vcr = new Vcr({ dir: "cassettes" });`,
    `const ask = (q) => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } }).invoke(q);`,
    `test("first", () => ask("asked first"));`,
    `test("second", () => ask("asked second"));`,
    `afterAll(async () => {`,
    `  if (process.env.HOOK === "throw") throw new Error("teardown failed");`,
    `  if (process.env.HOOK === "hang") await new Promise(() => {});`,
    `});`,
    ``,
  ].join("\n");

  it("the summary still counts what its tests used, and prune refuses naming the hook, not only a crashed worker", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({ "vitest.config.mjs": CONFIG(`, hookTimeout: 1000`), "test/hooked.test.mjs": HOOKED });
      const env = { FAKE_URL: fake.openaiBaseURL };
      const rec = await p.run([VITEST, "run"], { ...env, LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
      expect(p.fixtures()).to.have.length(2);
      for (const hook of ["throw", "hang"]) {
        const out = await p.run([VITEST, "run"], { ...env, CI: "true", HOOK: hook });
        expect(out.status, out.stdout + out.stderr).to.equal(1);
        expect(summaryLines(out), hook).to.have.length(1);
        expect(summaryLines(out)[0], hook).to.match(/^langchain-vcr: 2 replayed, 0 recorded, 0 bypassed, 0 missed/);
        const check = await p.cli(["prune", "--check", FIXTURES]);
        expect(check.status, hook).to.equal(1);
        expect(check.stderr, hook).to.include("1 test file(s) stopped before they finished (an afterAll hook of the file failed or timed out");
      }
      expect(fake.count(), "replays call no model").to.equal(2);
    });
  });
});

describe("langchain-vcr/vitest: a test whose tool call another test of the file recorded", function () {
  this.timeout(120000);
  after(removeTmpDirs);
  // the msw pattern: the second test sets up its own answer for the same call (server.use), which the shared fixture hides
  const SHARED_TOOL = [
    `import { test, expect } from "vitest";`,
    `import { tool } from "@langchain/core/tools";`,
    `import { z } from "zod";`,
    `import { Vcr } from "langchain-vcr";`,
    `const vcr = new Vcr({ dir: "cassettes" });`,
    `let status = "pending";`,
    `let ran = 0;`,
    `const [orderStatus] = vcr.tools([tool(async ({ orderId }) => (ran++, orderId + " is " + status), { name: "order_status", description: "status", schema: z.object({ orderId: z.string() }) })]);`,
    `test("pending order", async () => expect(await orderStatus.invoke({ orderId: "42" })).toBe("42 is pending"));`,
    `test("shipped order", async () => {`,
    `  status = "shipped"; // the test's own answer for the call, as msw's server.use would set it`,
    `  expect(await orderStatus.invoke({ orderId: "42" })).toBe("42 is shipped");`,
    `});`,
    `test("ran once", () => expect(ran).toBe(1));`,
    ``,
  ].join("\n");

  it("fails with a note naming the call, its fixture and the fix; the test that recorded it gets none, nor does a later run", async () => {
    const p = makeProject({ "vitest.config.mjs": CONFIG(), "test/orders.test.mjs": SHARED_TOOL });
    const out = await p.run([VITEST, "run"], { LANGCHAIN_VCR_MODE: "record_or_replay" });
    const text = out.stdout + out.stderr;
    expect(out.status, text).to.equal(1);
    const notes = text
      .split("\n")
      .filter((l) => l.includes("of its tool call(s) were answered by fixtures recorded earlier in its test process by other tests"));
    expect(notes.length, text).to.be.at.least(1);
    expect(
      notes.every((l) => l.includes('test "shipped order" failed, and 1 of its tool call(s)')),
      text,
    ).to.equal(true);
    expect(text).to.match(/ {2}- order_status\(\{"orderId":"42"\}\): \S+\.json \(recorded by test "pending order"\)\n/);
    expect(text).to.include(`Fix: give the call distinct arguments in this test, or run its body here with withVcr({ toolMode: "execute" }, …).`);
    expect(p.fixtures()).to.have.length(1);
    const again = await p.run([VITEST, "run"], { CI: "true" });
    expect(again.status).to.equal(1);
    expect(again.stdout + again.stderr, "a fixture committed before the process started is the same answer every run").to.not.include(
      "answered by fixtures recorded earlier",
    );
  });
});

describe("langchain-vcr/vitest: the first recording of a suite of templated tests, one file each", function () {
  this.timeout(120000);
  after(removeTmpDirs);
  const file = (city: string) =>
    [
      `import { test, expect } from "vitest";`,
      `import { FakeListChatModel } from "@langchain/core/utils/testing";`,
      `import { Vcr } from "langchain-vcr";`,
      `const vcr = new Vcr({ dir: "cassettes" });`,
      `test(${JSON.stringify(city)}, async () => {`,
      `  const m = new FakeListChatModel({ responses: [${JSON.stringify(city)}], cache: vcr.cache });`,
      `  expect((await m.invoke("What is the capital of the country whose capital is ${city}? Answer in one word.")).content).toBe(${JSON.stringify(city)});`,
      `});`,
      ``,
    ].join("\n");

  it("prints no near-miss note: each test's nearest is a sibling another test process of the run recorded moments before", async () => {
    const cities = ["Paris", "Rome", "Madrid", "Berlin"];
    const p = makeProject({ "vitest.config.mjs": CONFIG(), ...Object.fromEntries(cities.map((c) => [`test/${c}.test.mjs`, file(c)])) });
    const out = await p.run([VITEST, "run", "--maxWorkers=1"], { LANGCHAIN_VCR_MODE: "record_or_replay", LANGCHAIN_VCR_QUIET: "" });
    expect(out.status, out.stdout + out.stderr).to.equal(0);
    expect(p.fixtures()).to.have.length(4);
    expect(out.stdout + out.stderr).to.not.include("the nearest recorded one");
    // the control: a prompt edited since that run is an edit of a fixture an earlier run wrote, and is noted
    const edited = path.join(p.dir, "test/Rome.test.mjs");
    fs.writeFileSync(edited, fs.readFileSync(edited, "utf8").replace("Answer in one word.", "Answer in one short word."));
    const next = await p.run([VITEST, "run", "--maxWorkers=1"], { LANGCHAIN_VCR_MODE: "record_or_replay", LANGCHAIN_VCR_QUIET: "" });
    expect(next.status, next.stdout + next.stderr).to.equal(0);
    const notes = (next.stdout + next.stderr).split("\n").filter((l) => l.includes("the nearest recorded one"));
    expect(notes, next.stdout + next.stderr).to.have.length(1);
  });
});

describe("langchain-vcr/vitest: a test file using test.extend fixtures", function () {
  this.timeout(120000);
  after(removeTmpDirs);
  // vitest 4.1 reads a hook's first parameter as the fixtures it asks for, in a file whose tests use test.extend: the
  // plugin's beforeEach took `ctx`, and every test of such a file failed with FixtureParseError (trial 47)
  const EXTENDED = [
    `import { test as base, expect } from "vitest";`,
    `import { FakeListChatModel } from "@langchain/core/utils/testing";`,
    `import { Vcr } from "langchain-vcr";`,
    `const vcr = new Vcr({ dir: "cassettes" });`,
    `const test = base.extend({`,
    `  model: async ({}, use) => use(new FakeListChatModel({ responses: ["Paris"], cache: vcr.cache })),`,
    `  city: async ({ task }, use) => use(task.name),`,
    `});`,
    `test("Paris", async ({ model, city }) => {`,
    `  expect((await model.invoke("The capital of France, in one word?")).content).toBe(city);`,
    `});`,
    ``,
  ].join("\n");

  it('records and replays its tests (before: FixtureParseError, received "ctx")', async () => {
    const p = makeProject({ "vitest.config.mjs": CONFIG(), "test/extended.test.mjs": EXTENDED });
    const out = await p.run([VITEST, "run"], { LANGCHAIN_VCR_MODE: "record_or_replay" });
    expect(out.stdout + out.stderr).to.not.include("FixtureParseError");
    expect(out.status, out.stdout + out.stderr).to.equal(0);
    expect(p.fixtures()).to.have.length(1);
    const again = await p.run([VITEST, "run"], { CI: "true" });
    expect(again.status, again.stdout + again.stderr).to.equal(0);
    expect(summaryLines(again)[0]).to.include("1 replayed, 0 recorded");
  });
});

describe("langchain-vcr/vitest: fixtures the run used that git does not track (trial 58 M1)", function () {
  this.timeout(120000);
  after(removeTmpDirs);
  const APP = [
    `import { test, expect } from "vitest";`,
    `import { FakeListChatModel } from "@langchain/core/utils/testing";`,
    `import { Vcr } from "langchain-vcr";`,
    `const vcr = new Vcr({ dir: "cassettes" });`,
    `test("asks", async () => {`,
    `  const model = new FakeListChatModel({ responses: ["Paris"], cache: vcr.cache });`,
    `  expect((await model.invoke("The capital of France, in one word?")).content).toBe("Paris");`,
    `});`,
    ``,
  ].join("\n");
  const NOTE = "langchain-vcr: 1 fixture this run used is not committed to git: cassettes/";

  it("a run that replays a fixture never git-added says so under its summary, naming it and how a clean checkout fails; once added, nothing", async () => {
    const p = makeProject({ "vitest.config.mjs": CONFIG(), "test/app.test.mjs": APP, ".gitignore": "node_modules\n" });
    git(p.dir, "init", "-q");
    const loud = { LANGCHAIN_VCR_QUIET: "" }; // the note is one, as the near-miss note is
    const rec = await p.run([VITEST, "run"], { ...loud, LANGCHAIN_VCR_MODE: "record_or_replay" });
    expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
    const [file] = p.fixtures();
    git(p.dir, "add", "test", "vitest.config.mjs", ".gitignore");
    git(p.dir, "commit", "-qm", "the test, without its fixture");
    const replay = await p.run([VITEST, "run"], loud);
    const text = replay.stdout + replay.stderr;
    expect(replay.status, text).to.equal(0);
    expect(summaryLines(replay)[0]).to.include("1 replayed, 0 recorded");
    expect(text).to.include(
      `${NOTE}${file}. A clean checkout (CI's) does not have it, so its test misses there: commit it with the tests (git add cassettes).`,
    );
    git(p.dir, "add", "cassettes");
    const added = await p.run([VITEST, "run"], loud);
    expect(added.stdout + added.stderr)
      .to.include("1 replayed, 0 recorded")
      .and.not.include("not committed to git");
  });
});
