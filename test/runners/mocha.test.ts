/**
 * langchain-vcr/mocha in a user's project, through the same parity table as the other runners:
 * `.mocharc.json` with `"node-option"` (mocha re-spawns itself with the config's spec on argv,
 * which must still count as a complete run), CommonJS spec files; shards are spec files named
 * on the command line with LANGCHAIN_VCR_SHARD.
 */
import { expect } from "chai";
import * as path from "node:path";
import { withFakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs } from "../helpers/tmp";
import { git } from "../helpers/git";
import { describeParity } from "./helpers/parity";
import { startHangingServer } from "./helpers/hangingServer";
import {
  agentAndLookupsCjs,
  belowRootFiles,
  hasLedgers,
  cachelessAppFiles,
  embeddingTestFile,
  expectPrintedCommandRecords,
  makeProject,
  summaryLines,
  INSTALL_SETUP_CJS,
} from "./helpers/project";

/** the project's own copy (see makeProject) */
const MOCHA = "node_modules/mocha/bin/mocha.js";

const FILES = {
  ".mocharc.json": JSON.stringify({ spec: ["test/*.spec.cjs"], require: ["langchain-vcr/mocha"], "node-option": ["no-warnings"], timeout: 20000 }),
  "test/a.spec.cjs": [
    `const { askChat, hang } = require("../scenario.cjs");`,
    `describe("chat", () => { it("asks", () => askChat("chat asks")); });`,
    `describe("hang", () => { (process.env.HANG_URL ? it : it.skip)("times out", function () { this.timeout(1500); return hang("hang times out"); }); });`,
    ``,
  ].join("\n"),
  "test/b.spec.cjs": agentAndLookupsCjs("it"),
};

describeParity({
  name: "langchain-vcr/mocha (mocha 12, .mocharc with node-option)",
  command: [MOCHA],
  filter: (pattern) => ["--grep", pattern],
  shard: (i) => [i === 1 ? "test/a.spec.cjs" : "test/b.spec.cjs"],
  shardEnv: (i, n) => ({ LANGCHAIN_VCR_SHARD: `${i}/${n}` }),
  narrowing: { args: ["--ignore", "test/b.spec.cjs"], option: "--ignore" },
  skippedFile: { name: "test/c.spec.cjs", text: `it.skip("skipped", () => {});\n` },
  chatOnly: "chat",
  chatAndHang: "chat asks|hang",
  chatTitle: "chat asks",
  hangTitle: "hang times out",
  hint: `LANGCHAIN_VCR_MODE=record_or_replay npx mocha --grep "chat asks"`,
  concurrent: false,
  mocha: true,
  filterReason: `--grep "chat" selected only some tests`,
  files: FILES,
});

describe("langchain-vcr/mocha run from a directory below the package root (review 61 L5)", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("the ledger goes under the package root's node_modules, so prune there and in test/ judges the run (before: test/node_modules/.cache)", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject(
        {
          ...belowRootFiles("test/ask.spec.cjs"),
          // found from test/ too; its paths are the working directory's (docs/runners.md, mocha)
          ".mocharc.json": JSON.stringify({ spec: ["*.spec.cjs"], require: ["langchain-vcr/mocha"] }),
        },
        { mocha: true },
      );
      const out = await p.run([`../${MOCHA}`], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" }, "test");
      expect(out.status, out.stdout + out.stderr).to.equal(0);
      expect([fake.count(), p.fixtures().length]).to.deep.equal([1, 1]);
      const ledgers = (at: string) => hasLedgers(p, at);
      expect([ledgers(""), ledgers("test")]).to.deep.equal([true, false]);
      for (const at of ["", "test"]) {
        const prune = await p.cli(["prune", "--dry-run"], at);
        expect(prune.status, prune.stdout + prune.stderr).to.equal(0);
        expect(prune.stdout).to.include("would remove 0 of 1 fixture(s)");
      }
    });
  });
});

describe("langchain-vcr/mocha: the summary names the mode in force", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("a Vcr built with mode: record_always says so, not only the environment's default", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject(FILES, { mocha: true });
      const out = await p.run([MOCHA, "--grep", "chat"], { FAKE_URL: fake.openaiBaseURL, VCR_OPTION_MODE: "record_always" });
      expect(out.status, out.stdout + out.stderr).to.equal(0);
      expect(summaryLines(out)).to.deep.equal([
        `langchain-vcr: 0 replayed, 1 recorded, 0 bypassed, 0 missed — mode record_always (set in code; the default is record_or_replay), fixtures: ${path.join(p.dir, "cassettes")}`,
      ]);
    });
  });
});

describe("langchain-vcr/mocha: a timed-out test's failure names the call left in flight", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("mocha's failure list (stdout) carries the note, not only stderr", async () => {
    const hanging = await startHangingServer();
    try {
      const p = makeProject(FILES, { mocha: true });
      const out = await p.run([MOCHA, "--grep", "hang"], { HANG_URL: hanging.url });
      expect(out.status, out.stdout + out.stderr).to.equal(1);
      const failures = out.stdout.slice(out.stdout.indexOf("1 failing"));
      expect(failures).to.include("Timeout of 1500ms exceeded.");
      expect(failures).to.include('langchain-vcr: test "hang times out" ended while 2 live recording call(s) had not answered:');
    } finally {
      await hanging.close();
    }
  });
});

describe("langchain-vcr/mocha with the user's setup file on the command line (-r ./vcr-setup.js, where vcr.install() goes)", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  it("a miss's command to record it carries the run's own mocha arguments, and that command, run as printed, records the app's cacheless model", async () => {
    await withFakeProvider({}, async (fake) => {
      const p = makeProject(cachelessAppFiles("test/app.spec.cjs"), { mocha: true });
      const args = ["-r", "langchain-vcr/mocha", "-r", "./vcr-setup.cjs", "test/app.spec.cjs"];
      await expectPrintedCommandRecords(
        p,
        fake,
        { FAKE_URL: fake.openaiBaseURL },
        {
          miss: [MOCHA, ...args, "--grep", "app"],
          hint: `LANGCHAIN_VCR_MODE=record_or_replay npx mocha -r langchain-vcr/mocha -r ./vcr-setup.cjs test/app.spec.cjs --grep "asks the app"`,
          printed: [MOCHA, ...args, "--grep", "asks the app"],
        },
      );
    });
  });
});

/** A CommonJS setup file calling vcr.install() (the ES-module test file is added per runner). */
const ESM_SPECS_CJS_SETUP: Record<string, string> = {
  "vcr-setup.cjs": INSTALL_SETUP_CJS,
};

describe("langchain-vcr/mocha and node:test: a CommonJS setup file's vcr.install() with ES-module test files", function () {
  this.timeout(60000);
  after(removeTmpDirs);

  for (const runner of ["mocha", "node:test"] as const)
    it(`${runner}: OpenAIEmbeddings with no wrapper recorded (1 request, 1 fixture), then replayed with 0 requests (before: 0 fixtures, live under replay_only)`, async () => {
      await withFakeProvider({}, async (fake) => {
        const files = { ...ESM_SPECS_CJS_SETUP, "test/embed.spec.mjs": embeddingTestFile(runner === "mocha" ? "" : `import { it } from "node:test";`) };
        const p = makeProject(files, { mocha: runner === "mocha" });
        const args =
          runner === "mocha"
            ? [MOCHA, "--require", "langchain-vcr/mocha", "--require", "./vcr-setup.cjs", "test/embed.spec.mjs"]
            : ["--require", "langchain-vcr/node-test", "--require", "./vcr-setup.cjs", "--test", "test/embed.spec.mjs"];
        const rec = await p.run(args, { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
        expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
        expect([fake.count(), p.fixtures().length]).to.deep.equal([1, 1]);
        const replay = await p.run(args, { FAKE_URL: fake.openaiBaseURL, CI: "true" });
        expect(replay.status, replay.stdout + replay.stderr).to.equal(0);
        expect(fake.count(), "requests on replay").to.equal(1);
      });
    });
});

describe("langchain-vcr/mocha: a test mocha's retries run again", function () {
  this.timeout(120000);
  after(removeTmpDirs);
  // fails its first attempt after recording; FAIL_ALL: every attempt. `--retries 2` on the command line, or this.retries(2) in the test (IN_TEST)
  const FLAKY = [
    `const { ChatOpenAI } = require("@langchain/openai");`,
    `const { Vcr } = require("langchain-vcr");`,
    `const vcr = new Vcr({ dir: "cassettes" });`,
    `const ask = (q) => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } }).invoke(q);`,
    `let attempts = 0;`,
    `it("flaky", async function () {`,
    `  if (process.env.IN_TEST) this.retries(2);`,
    `  attempts++;`,
    `  const answer = await ask("asked by a flaky test");`,
    `  if (attempts === 1 || process.env.FAIL_ALL) throw new Error("attempt " + attempts + " fails");`,
    `  return answer;`,
    `});`,
    `it("steady", () => ask("asked by a steady test"));`,
    ``,
  ].join("\n");
  const files = {
    ".mocharc.json": JSON.stringify({ spec: ["test/*.spec.cjs"], require: ["langchain-vcr/mocha"], timeout: 20000 }),
    "test/flaky.spec.cjs": FLAKY,
  };

  for (const [how, args, env] of [
    ["--retries 2", ["--retries", "2"], {}],
    ["this.retries(2)", [], { IN_TEST: "1" }],
    ["--parallel --retries 2 (the root hook pair in a worker)", ["--parallel", "--retries", "2"], {}],
  ] as const) {
    it(`${how}: a failed attempt's recording is undone, so the next attempt records again; failing every attempt keeps nothing (before: kept, and replayed by the next attempts)`, async () => {
      await withFakeProvider({}, async (fake) => {
        const p = makeProject(files, { mocha: true });
        const out = await p.run([MOCHA, ...args], { ...env, FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
        expect(out.status, out.stdout + out.stderr).to.equal(0);
        expect(fake.count(), "the first attempt's recording was undone, the second records again").to.equal(3);
        expect(p.fixtures()).to.have.length(2);
        expect(summaryLines(out)[0], out.stdout + out.stderr).to.match(
          /^langchain-vcr: 0 replayed, 2 recorded \(1 more undone: a failed attempt the runner retried\), 0 bypassed/,
        );
        const check = await p.cli(["prune", "--check", "cassettes"]);
        expect(check.status, check.stdout + check.stderr).to.equal(0);
        const again = makeProject(files, { mocha: true });
        const failing = await again.run([MOCHA, ...args], { ...env, FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay", FAIL_ALL: "1" });
        expect(failing.status).to.equal(1);
        expect(again.fixtures(), "only the steady test's").to.have.length(1);
        expect(summaryLines(failing)[0], failing.stdout + failing.stderr).to.match(
          / 1 recorded \(1 more undone: their tests failed; 2 more undone: failed attempts the runner retried\), /,
        );
      });
    });
  }

  it("a failing beforeEach hook under --retries is not a retried attempt (mocha retries no hook): its recording stays, as without --retries (review 57 M1)", async () => {
    await withFakeProvider({}, async (fake) => {
      const HOOK = [
        `const { ChatOpenAI } = require("@langchain/openai");`,
        `const { Vcr } = require("langchain-vcr");`,
        `const vcr = new Vcr({ dir: "cassettes" });`,
        `describe("set up by a hook", () => {`,
        `  beforeEach(async () => {`,
        `    await new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } }).invoke("asked by a hook");`,
        `    throw new Error("the hook fails");`,
        `  });`,
        `  it("never runs", () => {});`,
        `});`,
        ``,
      ].join("\n");
      const hookFiles = { ".mocharc.json": files[".mocharc.json"], "test/hook.spec.cjs": HOOK };
      const outcomes: [number, string][] = [];
      for (const args of [[], ["--retries", "2"]]) {
        const p = makeProject(hookFiles, { mocha: true });
        const out = await p.run([MOCHA, ...args], { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
        expect(out.status, out.stdout + out.stderr).to.equal(1);
        expect(out.stdout + out.stderr).to.not.include("retried");
        outcomes.push([p.fixtures().length, summaryLines(out)[0].replace(/fixtures: .*/, "")]);
      }
      expect(outcomes[1], "with --retries as without").to.deep.equal(outcomes[0]);
      expect(fake.count()).to.equal(2);
    });
  });
});

describe("langchain-vcr/mocha: fixtures the run used that git does not track (review 68 M1)", function () {
  this.timeout(120000);
  after(removeTmpDirs);
  const SPEC = [
    `const assert = require("node:assert");`,
    `const { FakeListChatModel } = require("@langchain/core/utils/testing");`,
    `const { Vcr } = require("langchain-vcr");`,
    `const vcr = new Vcr({ dir: "cassettes" });`,
    `it("asks", async () => {`,
    `  const model = new FakeListChatModel({ responses: ["Paris"], cache: vcr.cache });`,
    `  assert.equal((await model.invoke("The capital of France, in one word?")).content, "Paris");`,
    `});`,
    ``,
  ].join("\n");

  it("serial and --parallel: the run says so under its summary, naming the fixture; once added, nothing", async () => {
    const p = makeProject(
      {
        ".mocharc.json": JSON.stringify({ require: ["langchain-vcr/mocha"], spec: ["test/*.spec.cjs"], timeout: 20000 }),
        "test/a.spec.cjs": SPEC,
        "test/b.spec.cjs": SPEC.replace(`it("asks"`, `it("asks again"`),
        ".gitignore": "node_modules\n",
      },
      { mocha: true },
    );
    git(p.dir, "init", "-q");
    const loud = { LANGCHAIN_VCR_QUIET: "" };
    const rec = await p.run([MOCHA], { ...loud, LANGCHAIN_VCR_MODE: "record_or_replay" });
    expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
    const [file] = p.fixtures();
    for (const args of [[], ["--parallel", "--jobs", "2"]]) {
      const replay = await p.run([MOCHA, ...args], loud);
      const text = replay.stdout + replay.stderr;
      expect(replay.status, text).to.equal(0);
      expect(text, args.join(" ")).to.include(`langchain-vcr: 1 fixture this run used is not committed to git: cassettes/${file}.`);
    }
    git(p.dir, "add", "cassettes");
    for (const args of [[], ["--parallel", "--jobs", "2"]]) {
      const added = await p.run([MOCHA, ...args], loud);
      expect(added.stdout + added.stderr)
        .to.include("2 replayed, 0 recorded")
        .and.not.include("not committed to git");
    }
  });
});
