/**
 * langchain-vcr/node-test in a user's project: `node --require langchain-vcr/node-test --test`
 * on Node 20, one ESM and one CommonJS test file (each in its own child process).
 */
import { expect } from "chai";
import { withFakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs } from "../helpers/tmp";
import { describeParity } from "./helpers/parity";
import { cachelessAppFiles, embeddingTestFile, expectPrintedCommandRecords, FIXTURES, makeProject, REFUND_ANSWERS, summaryLines } from "./helpers/project";

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
