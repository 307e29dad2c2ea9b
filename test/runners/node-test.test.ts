/**
 * langchain-vcr/node-test in a user's project: `node --require langchain-vcr/node-test --test`
 * on Node 20, one ESM and one CommonJS test file (each in its own child process).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { requestHash } from "../../src/canonical/json";
import { SCHEMA_VERSION } from "../../src/store/fixture";
import { formatFixture } from "../../src/store/format";
import { withFakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs } from "../helpers/tmp";
import { describeParity } from "./helpers/parity";
import {
  belowRootFiles,
  cachelessAppFiles,
  hasLedgers,
  embeddingTestFile,
  expectPrintedCommandRecords,
  FIXTURES,
  makeProject,
  REFUND_ANSWERS,
  summaryLines,
} from "./helpers/project";

const FILES: Record<string, string> = {
  "test/a.test.mjs": [
    `import { describe, it } from "node:test";`,
    `import { askChat, hang } from "../scenario.mjs";`,
    `describe("chat", () => { it("asks", () => askChat("chat > asks")); });`,
    `describe("hang", () => { it("times out", { timeout: 1500, skip: !process.env.HANG_URL }, () => hang("hang > times out")); });`,
    ``,
  ].join("\n"),
  "test/b.test.cjs": [
    `const { after, describe, it } = require("node:test");`,
    `const { askAgent, askInHook, lookupTwice } = require("../scenario.cjs");`,
    `after(() => askInHook("b's after"));`,
    `describe("agent", () => {`,
    `  it("refund once", () => askAgent("agent refund once"));`,
    `  it("refund again", () => askAgent("agent refund again"));`,
    `});`,
    `describe("concurrent", { concurrency: true }, () => {`,
    `  it("c1", () => lookupTwice("c1"));`,
    `  it("c2", () => lookupTwice("c2"));`,
    `});`,
    ``,
  ].join("\n"),
};

describeParity({
  name: "langchain-vcr/node-test (node --test)",
  failureUnseen: true,
  // two test files at once whatever the core count
  command: ["--require", "langchain-vcr/node-test", "--test", "--test-concurrency=2"],
  filter: (pattern) => [`--test-name-pattern=${pattern}`],
  shard: (i, n) => [`--test-shard=${i}/${n}`],
  skippedFile: { name: "test/c.test.cjs", text: `const { it } = require("node:test");\nit("skipped", { skip: true }, () => {});\n` },
  chatOnly: "chat",
  chatAndHang: "asks|times out",
  chatTitle: "chat > asks",
  hangTitle: "hang > times out",
  hint: `LANGCHAIN_VCR_MODE=record_or_replay node --require langchain-vcr/node-test --test --test-name-pattern "asks"`,
  concurrent: true,
  filterReason: `--test-name-pattern "chat" selected only some tests`,
  files: FILES,
});

describe("langchain-vcr/node-test loaded with --import (test processes only)", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("scopes and records in each test file, prints one summary line per file, and leaves prune refusing", async () => {
    await withFakeProvider({ answers: REFUND_ANSWERS }, async (fake) => {
      const p = makeProject(FILES);
      const out = await p.run(["--import", "langchain-vcr/node-test", "--test"], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(out.status, out.stdout + out.stderr).to.equal(0);
      expect(p.sideLines().filter((l) => l.startsWith("refund "))).to.have.length(1); // per-test scope in the test processes
      expect(summaryLines(out)).to.have.length(2); // one per test file: no runner process to add them up
      const prune = await p.cli(["prune", FIXTURES]);
      expect(prune.status).to.equal(1);
      expect(prune.stderr).to.include("loaded with --import");
    });
  });
});

describe("langchain-vcr/node-test next to a module-hooks loader (--import tsx)", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("a complete run with --import tsx records, sums one summary line and lets prune run (the hooks thread takes no part)", async () => {
    await withFakeProvider({ answers: REFUND_ANSWERS }, async (fake) => {
      const p = makeProject(FILES);
      const out = await p.run(["--require", "langchain-vcr/node-test", "--import", "tsx", "--test"], {
        FAKE_URL: fake.openaiBaseURL,
        LANGCHAIN_VCR_MODE: "record_or_replay",
      });
      expect(out.status, out.stdout + out.stderr).to.equal(0);
      expect(summaryLines(out)).to.have.length(1);
      const prune = await p.cli(["prune", FIXTURES, "--dry-run"]);
      expect(prune.stderr, prune.stderr).to.not.include("stopped before they finished");
      expect(prune.status, prune.stderr).to.equal(0);
    });
  });
});

describe("langchain-vcr/node-test with the user's own setup file (--require ./vcr-setup.cjs, where vcr.install() goes)", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("a miss's command to record it keeps the setup file and names the test file, and that command, run as printed, records the app's cacheless model", async () => {
    await withFakeProvider({}, async (fake) => {
      // a file `node --test` does not find by itself (on Node 20, neither is a .ts file): the command must name it
      const p = makeProject(cachelessAppFiles("checks/app.spec.cjs", "node:test"));
      const args = ["--require", "langchain-vcr/node-test", "--require", "./vcr-setup.cjs", "--test"];
      const env = { FAKE_URL: fake.openaiBaseURL };
      await expectPrintedCommandRecords(p, fake, env, {
        miss: [...args, "--test-name-pattern=app", "checks/app.spec.cjs"],
        hint: `LANGCHAIN_VCR_MODE=record_or_replay node --require langchain-vcr/node-test --require ./vcr-setup.cjs --test --test-name-pattern "asks the app" checks/app.spec.cjs`,
        // what the command used to be: no file named, no test found, nothing recorded
        plain: [...args, "--test-name-pattern", "asks the app"],
        plainStatus: 0, // "# tests 0": a green run that records nothing
        printed: [...args, "--test-name-pattern", "asks the app", "checks/app.spec.cjs"],
      });
      const replay = await p.run([...args, "checks/app.spec.cjs"], { ...env, LANGCHAIN_VCR_MODE: "replay_only" });
      expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
      expect(fake.count()).to.equal(1);
    });
  });
});

describe("langchain-vcr/node-test run from a directory below the package root (trial 50)", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("the ledger goes under the package root's node_modules, so the CLI finds the run and the package's cassettes/ from the root and from that directory (before: test/node_modules/.cache, and validate there looked for test/cassettes)", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject(belowRootFiles("test/ask.test.cjs", "node:test"));
      const ledgers = (at: string) => hasLedgers(p, at);
      for (const env of [{ LANGCHAIN_VCR_MODE: "record_or_replay" }, { CI: "true" }]) {
        const out = await p.run(["--require", "langchain-vcr/node-test", "--test"], { FAKE_URL: fake.openaiBaseURL, ...env }, "test");
        expect(out.status, out.stdout + out.stderr).to.equal(0);
      }
      expect(fake.count()).to.equal(1);
      expect(p.fixtures()).to.have.length(1);
      expect([ledgers(""), ledgers("test")]).to.deep.equal([true, false]);
      // a ledger directory an older version left in test/ (a run started there) is not the package's (recheck 60)
      fs.mkdirSync(path.join(p.dir, "test/node_modules/.cache/langchain-vcr/ledgers/old-run"), { recursive: true });
      for (const at of ["", "test"]) {
        const validate = await p.cli(["validate"], at);
        expect(validate.status, validate.stdout + validate.stderr).to.equal(0);
        expect(validate.stdout).to.include("cassettes: all fixtures are valid").and.not.include("test/cassettes");
        const prune = await p.cli(["prune", "--dry-run"], at);
        expect(prune.status, prune.stdout + prune.stderr).to.equal(0);
        expect(prune.stdout).to.include("would remove 0 of 1 fixture(s)").and.include("kept 1 used by the last run");
        const stats = await p.cli(["stats", "--by-test"], at);
        expect(stats.status, stats.stdout + stats.stderr).to.equal(0);
        expect(stats.stdout).to.include(", complete)").and.include("asks from test/: 1 fixture(s)");
      }
    });
  });
});

describe("langchain-vcr/node-test: a miss in a subtest (t.test())", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("the command names its top-level test, which node:test runs with its subtests, and as printed records (before: the subtest's name, which node:test 20 skips at the top level: 0 tests, green)", async () => {
    await withFakeProvider({}, async (fake) => {
      const files = cachelessAppFiles("checks/app.spec.cjs", "node:test");
      files["checks/app.spec.cjs"] = [
        `const { test } = require("node:test");`,
        `const { ChatOpenAI } = require("@langchain/openai");`,
        `test("the app", async (t) => {`,
        `  await t.test("asks the app", async () => {`,
        `    const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });`,
        `    await model.invoke("a question from app code");`,
        `  });`,
        `});`,
        ``,
      ].join("\n");
      const p = makeProject(files);
      const args = ["--require", "langchain-vcr/node-test", "--require", "./vcr-setup.cjs", "--test"];
      await expectPrintedCommandRecords(
        p,
        fake,
        { FAKE_URL: fake.openaiBaseURL },
        {
          miss: [...args, "checks/app.spec.cjs"],
          hint: `LANGCHAIN_VCR_MODE=record_or_replay node --require langchain-vcr/node-test --require ./vcr-setup.cjs --test --test-name-pattern "the app" checks/app.spec.cjs`,
          printed: [...args, "--test-name-pattern", "the app", "checks/app.spec.cjs"],
        },
      );
    });
  });
});

describe("langchain-vcr/node-test with tsx in an ES-module project (--import tsx --import ./vcr-setup.mjs)", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("OpenAIEmbeddings with no wrapper, embedded in the file's first test: recorded (1 request, 1 fixture), then replayed with 0 requests (before: 0 fixtures, live on replay)", async () => {
    // under tsx, install() gets the integrations' ES modules with import(), and wraps their classes when it resolves: after the first test had begun
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({
        "package.json": JSON.stringify({ name: "app", private: true, type: "module" }),
        "vcr-setup.mjs": `import { Vcr } from "langchain-vcr";\nexport const uninstall = new Vcr({ dir: "cassettes" }).install();\n`,
        "test/embed.test.ts": embeddingTestFile(`import { test } from "node:test";`),
      });
      const args = ["--require", "langchain-vcr/node-test", "--import", "tsx", "--import", "./vcr-setup.mjs", "--test", "test/embed.test.ts"];
      const rec = await p.run(args, { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
      expect([fake.count(), p.fixtures().length]).to.deep.equal([1, 1]);
      expect(rec.stdout + rec.stderr).to.not.include("is still loading"); // the wait waited (a limit of NaN once ended it at once)
      const replay = await p.run(args, { FAKE_URL: fake.openaiBaseURL, CI: "true" });
      expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
      expect(fake.count(), "requests on replay").to.equal(1);
      expect(summaryLines(replay)[0]).to.match(/^langchain-vcr: 1 replayed, 0 recorded/);
    });
  });
});

describe("langchain-vcr/node-test with an entry file that imports the test files (docs/runners.md: Node 20 and .ts files)", function () {
  this.timeout(90000);
  after(removeTmpDirs);

  it("the run names the files that declared the tests, so a run of one of them alone is the same suite: prune after the next complete run goes ahead, and stats --by-test names each file; a helper that declares a test is not one (trial 36a)", async () => {
    await withFakeProvider({}, async (fake) => {
      const spec = (name: string) =>
        [
          `import { describe, it } from "node:test";`,
          `import { askChat } from "../scenario.mjs";`,
          `describe("${name}", () => { it("asks", () => askChat("${name} > asks")); });`,
          ``,
        ].join("\n");
      // outside test/: node --test runs the entry file alone, as it would with .ts files on Node 20
      // a helper that declares a test for the files that import it is no test file: its test is the entry's
      const shared = [
        `import { it } from "node:test";`,
        `import { askChat } from "../scenario.mjs";`,
        `it("shared asks", () => askChat("shared asks"));`,
        ``,
      ].join("\n");
      const p = makeProject({
        "test/all.mjs": `import "../specs/a.spec.mjs";\nimport "../specs/b.spec.mjs";\n`,
        "specs/a.spec.mjs": spec("a"),
        "specs/b.spec.mjs": `import "./shared.mjs";\n` + spec("b"),
        "specs/shared.mjs": shared,
      });
      const args = ["--require", "langchain-vcr/node-test", "--test"];
      const env = { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" };
      for (const run of [args, [...args, "specs/a.spec.mjs"], args]) {
        const out = await p.run(run, env);
        expect(out.status, out.stdout + out.stderr).to.equal(0);
      }
      expect(fake.count()).to.equal(1); // both tests ask the same question: one fixture
      // a fixture no test uses any more: prune weighs the run of one file alone only when something is unused
      const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: "a question from a deleted test" }] };
      const hash = requestHash("chat", request);
      const response = { generations: [{ text: "old" }] };
      const dead = { schemaVersion: SCHEMA_VERSION, kind: "chat" as const, hash, recordedAt: "2026-01-01T00:00:00.000Z", request, response };
      fs.writeFileSync(path.join(p.dir, FIXTURES, `${hash}.json`), formatFixture(dead));
      const prune = await p.cli(["prune", FIXTURES, "--dry-run"]);
      expect(prune.status, prune.stderr).to.equal(0);
      expect(prune.stdout).to.match(/would remove 1 of 2 fixture\(s\) in \S+; kept 1 used by the last run/);
      const byTest = await p.cli(["stats", FIXTURES, "--by-test"]);
      expect(byTest.stdout).to.include("specs/a.spec.mjs").and.include("specs/b.spec.mjs").and.include("test/all.mjs");
      expect(byTest.stdout).to.not.include("specs/shared.mjs");
    });
  });
});

/** An ES-module project whose setup file, `vcr-setup.mjs`, installs `new Vcr(<options>)`, and `files`. */
function setupProject(options: string, files: Record<string, string>): ReturnType<typeof makeProject> {
  return makeProject({
    "package.json": JSON.stringify({ name: "app", private: true, type: "module" }),
    "vcr-setup.mjs": `import { Vcr } from "langchain-vcr";\nnew Vcr(${options}).install();\n`,
    ...files,
  });
}

/** Two test files of one test each that call no model, one ES module and one CommonJS. */
const TWO_FILES = {
  "test/a.test.mjs": `import { it } from "node:test";\nit("a", () => {});\n`,
  "test/b.test.cjs": `const { it } = require("node:test");\nit("b", () => {});\n`,
};

describe("langchain-vcr/node-test with a setup file whose options are wrong (--import ./vcr-setup.mjs)", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("each test file fails with the config error's message and its name, no stack and exit code 1 (before: node:test's harness rethrew it, Node's stack per file, exit code 7); an error once a test has started stays that test's", async () => {
    const p = setupProject(`{ dir: "cassettes", mode: "bogus" }`, {
      ...TWO_FILES,
      "later/c.test.mjs": [
        `import { it } from "node:test";`,
        `import { Vcr } from "langchain-vcr";`,
        `it("throws later", () => new Promise((resolve) => { setTimeout(() => new Vcr({ mode: "nope" })); setTimeout(resolve, 50); }));`,
        `it("runs after", () => {});`,
      ].join("\n"),
    });
    const bad = await p.run(["--require", "langchain-vcr/node-test", "--import", "./vcr-setup.mjs", "--test", "test/a.test.mjs", "test/b.test.cjs"]);
    const out = bad.stdout + bad.stderr;
    expect(bad.status, out).to.equal(1);
    expect(out.match(/"bogus" is not a valid mode \(options\.mode\)/g), out).to.have.length(2);
    for (const file of ["test/a.test.mjs", "test/b.test.cjs"]) expect(out, out).to.include(`${file} was stopped before its tests ran.`);
    expect(out, out).to.not.match(/at checkMode|exitCode: 7|node:internal\/test_runner/);
    expect(out, out).to.not.include("No test process built a Vcr"); // the setup file was loaded: its Vcr counts, though its options failed

    const later = await p.run(["--require", "langchain-vcr/node-test", "--test", "--test-reporter=tap", "later/c.test.mjs"]);
    const laterOut = later.stdout + later.stderr;
    expect(later.status, laterOut).to.equal(1);
    expect(laterOut, laterOut).to.match(/not ok 1 - throws later[\s\S]*failureType: 'uncaughtException'[\s\S]*"nope" is not a valid mode/);
    expect(laterOut, laterOut).to.include("ok 2 - runs after");
    expect(laterOut, laterOut).to.not.include("was stopped before its tests ran");
  });
});

describe("langchain-vcr/node-test in a run whose command leaves the setup file out (trial 42)", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("the summary says no test process built a Vcr and how to load the setup file; with the setup file, it does not", async () => {
    const p = setupProject(`{ dir: "cassettes" }`, TWO_FILES);
    const note = "No test process built a Vcr, so langchain-vcr recorded and replayed nothing";
    const bare = await p.run(["--require", "langchain-vcr/node-test", "--test"], { CI: "true" });
    expect(bare.status, bare.stdout + bare.stderr).to.equal(0);
    expect(bare.stdout.split(note), bare.stdout).to.have.length(2); // once, for the run
    expect(bare.stdout, bare.stdout).to.include(
      "load the setup file that calls vcr.install() (node --require langchain-vcr/node-test --import ./vcr-setup.mjs --test)",
    );
    const set = await p.run(["--require", "langchain-vcr/node-test", "--import", "./vcr-setup.mjs", "--test"], { CI: "true" });
    expect(set.status, set.stdout + set.stderr).to.equal(0);
    expect(summaryLines(set), set.stdout).to.have.length(1);
    expect(set.stdout + set.stderr, set.stdout).to.not.include(note);
  });
});

const INSTALLED_ARGS = ["--require", "langchain-vcr/node-test", "--import", "./vcr-setup.mjs", "--test"];

/** An ES-module project whose setup file installs a Vcr over the fixture directory, and one test file: `model` (a ChatOpenAI at FAKE_URL), then `lines`. */
function installedProject(testFile: string, lines: string[]): ReturnType<typeof makeProject> {
  const model = `const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-unused", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });`;
  return setupProject(`{ dir: "${FIXTURES}" }`, {
    [testFile]: [lines[0], `import { ChatOpenAI } from "@langchain/openai";`, model, ...lines.slice(1)].join("\n"),
  });
}

describe("langchain-vcr/node-test and a test file whose top level misses (await of a model call before any test)", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("the file fails and the summary counts the miss (before: node:test's harness ended the process without its exit event, the file's report was never written, and the summary said 0 missed)", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = installedProject("test/top.test.mjs", [
        `import { it } from "node:test";`,
        `const greeting = await model.invoke("A top-level greeting");`,
        `it("uses it", async () => { if (!greeting.text) throw new Error("no greeting"); await model.invoke("In a test"); });`,
      ]);
      const args = INSTALLED_ARGS;
      const rec = await p.run(args, { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
      expect(summaryLines(rec)[0]).to.match(/^langchain-vcr: 0 replayed, 2 recorded, 0 bypassed, 0 missed/);
      // show and stats --by-test say where the top-level fixture was used (trial 42 L1: "its ledger does not name tests", and left out)
      const topLevel = p.fixtures().find((f) => fs.readFileSync(path.join(p.dir, FIXTURES, f), "utf8").includes("A top-level greeting"))!;
      const show = await p.cli(["show", topLevel.slice(0, 12)]);
      expect(show.stdout, show.stderr).to.match(/^ {2}used by: {2}the last run \(\S+\), outside any test \(a test file's top level, or a hook\)$/m);
      const stats = await p.cli(["stats", "--by-test", FIXTURES]);
      expect(stats.stdout, stats.stderr).to.include(
        `    uses it: 1 fixture(s)\n      ${FIXTURES}/${p.fixtures().find((f) => f !== topLevel)}\n  outside any test (a test file's top level, or a hook): 1 fixture(s)\n      ${FIXTURES}/${topLevel}\n`,
      );
      fs.writeFileSync(
        path.join(p.dir, "test/top.test.mjs"),
        fs.readFileSync(path.join(p.dir, "test/top.test.mjs"), "utf8").replace('greeting"', 'greeting!"'),
      );
      const miss = await p.run(args, { FAKE_URL: fake.openaiBaseURL, CI: "true" });
      expect(miss.status, miss.stdout + miss.stderr).to.equal(1);
      expect(miss.stdout + miss.stderr).to.include("VcrMissError: langchain-vcr: no recorded fixture");
      expect(summaryLines(miss), miss.stdout).to.deep.equal([
        `langchain-vcr: 0 replayed, 0 recorded, 0 bypassed, 1 missed — mode replay_only (default, CI is set), fixtures: ${fs.realpathSync(path.join(p.dir, FIXTURES))}`,
      ]);
      expect(fake.count(), "requests: the recordings only").to.equal(2);
    });
  });
});

describe("langchain-vcr/node-test and an error a file's before() hook throws asynchronously (review)", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("node:test reports it against the hook and runs the tests, which are counted (before: the load-time monitor took it, stopped the file's counting, and the summary said 0 missed)", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = installedProject("test/hook.test.mjs", [
        `import { before, it } from "node:test";`,
        `before(() => new Promise((resolve) => { setTimeout(() => { throw new Error("a hook's stray error"); }); setTimeout(resolve, 30); }));`,
        `it("first", () => model.invoke("first never recorded"));`,
        `it("second", () => model.invoke("second never recorded"));`,
      ]);
      const out = await p.run(INSTALLED_ARGS, { FAKE_URL: fake.openaiBaseURL, CI: "true" });
      expect(out.status, out.stdout + out.stderr).to.equal(1);
      expect(out.stdout + out.stderr).to.include("a hook's stray error");
      expect(summaryLines(out)[0], out.stdout).to.match(/^langchain-vcr: 0 replayed, 0 recorded, 0 bypassed, 2 missed — mode replay_only/);
      expect(fake.count()).to.equal(0);
    });
  });
});
