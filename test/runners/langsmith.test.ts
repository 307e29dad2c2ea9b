/**
 * LangSmith's test integration (`langsmith/vitest`, `langsmith/jest`: `ls.describe`, `ls.test`) with the
 * runner's langchain-vcr plugin and `vcr.install()`, tracking off (LANGSMITH_TEST_TRACKING=false: nothing
 * leaves the machine). `ls.test` registers each test as "<name>, test_id=<random hex>", new every run: a
 * miss's command to record the test leaves the id open ("…, test_id="), so, copied as printed, it
 * selects that test in the next run and records it (naming the whole title selected none, and the
 * runner passed with nothing recorded). A sibling whose name begins with the same words is not selected.
 */
import * as path from "node:path";
import { expect } from "chai";
import { ROOT } from "../helpers/built";
import { withFakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs } from "../helpers/tmp";
import { expectPrintedCommandRecords, JEST_LLM_CONFIG, makeProject, VITEST_DIR, vitestMajor } from "./helpers/project";

const VITEST = path.join(VITEST_DIR, "vitest.mjs");
const JEST = path.join(ROOT, "node_modules/jest/bin/jest.js");
const ENV = (url: string) => ({ FAKE_URL: url, LANGSMITH_TEST_TRACKING: "false", LANGSMITH_TRACING: "", LANGCHAIN_TRACING_V2: "" });

/** Two ls.tests in one ls.describe, each one chat call of a model built without a cache (install() reaches it). */
function lsTests(esm: boolean): string {
  return [
    esm ? `import * as ls from "langsmith/vitest";` : `const ls = require("langsmith/jest");`,
    esm ? `import { ChatOpenAI } from "@langchain/openai";` : `const { ChatOpenAI } = require("@langchain/openai");`,
    `const ask = (q) => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } }).invoke(q);`,
    `ls.describe("ls suite", () => {`,
    `  ls.test("asks the app", { inputs: { q: "a question from app code" } }, async ({ inputs }) => { await ask(inputs.q); });`,
    `  ls.test("asks the app again", { inputs: { q: "a second question" } }, async ({ inputs }) => { await ask(inputs.q); });`,
    `});`,
    ``,
  ].join("\n");
}

describe("LangSmith's test integration (ls.test) under the runner plugins: a miss's printed command records that one test", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("vitest (langsmith/vitest): the command leaves ls.test's run id open, and as printed records 1 request into 1 fixture", async () => {
    const title = `${vitestMajor() >= 5 ? "ls suite > asks the app" : "ls suite asks the app"}, test_id=`;
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({
        "vitest.config.mjs": [
          `import langchainVcr from "langchain-vcr/vitest";`,
          `export default { plugins: [langchainVcr()], test: { include: ["test/*.test.mjs"], setupFiles: ["./vcr-setup.mjs"], testTimeout: 20000 } };`,
          ``,
        ].join("\n"),
        "vcr-setup.mjs": `import { Vcr } from "langchain-vcr";\nnew Vcr({ dir: "cassettes" }).install();\n`,
        "test/ls.test.mjs": lsTests(true),
      });
      await expectPrintedCommandRecords(p, fake, ENV(fake.openaiBaseURL), {
        miss: [VITEST, "run", "--maxWorkers=1"],
        hint: `LANGCHAIN_VCR_MODE=record_or_replay npx vitest run -t "${title}"`,
        printed: [VITEST, "run", "-t", title],
      });
      const used = await p.run([VITEST, "run"], { ...ENV(fake.openaiBaseURL), LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(used.status, used.stdout + used.stderr).to.equal(0);
      expectLedgerNamesWithoutIds((await p.cli(["stats", "--by-test"])).stdout);
    });
  });

  it("jest (langsmith/jest): the command leaves ls.test's run id open, and as printed records 1 request into 1 fixture", async () => {
    const title = "ls suite asks the app, test_id=";
    await withFakeProvider({}, async (fake) => {
      const p = makeProject({
        "jest.config.cjs": JEST_LLM_CONFIG,
        "vcr-setup.cjs": `const { Vcr } = require("langchain-vcr");\nnew Vcr({ dir: "cassettes" }).install();\n`,
        "llm/ls.test.cjs": lsTests(false),
      });
      await expectPrintedCommandRecords(p, fake, ENV(fake.openaiBaseURL), {
        miss: [JEST, "--ci"],
        hint: `LANGCHAIN_VCR_MODE=record_or_replay npx jest -t "${title}"`,
        printed: [JEST, "--ci", "-t", title],
      });
      const used = await p.run([JEST, "--ci"], { ...ENV(fake.openaiBaseURL), LANGCHAIN_VCR_MODE: "record_or_replay" });
      expect(used.status, used.stdout + used.stderr).to.equal(0);
      expectLedgerNamesWithoutIds((await p.cli(["stats", "--by-test"])).stdout);
    });
  });
});

/** `stats --by-test` after a complete run names both tests by their ls.test names, without the run's ids. */
function expectLedgerNamesWithoutIds(out: string): void {
  expect(out, out).to.match(/ls suite.asks the app: 1 fixture/);
  expect(out, out).to.match(/ls suite.asks the app again: 1 fixture/);
  expect(out, out).to.not.include("test_id");
}
