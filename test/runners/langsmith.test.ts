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
import { expectPrintedCommandRecords, JEST_LLM_CONFIG, makeProject, VITEST_DIR, vitestMajor, INSTALL_SETUP_CJS, INSTALL_SETUP_MJS } from "./helpers/project";

const VITEST = path.join(VITEST_DIR, "vitest.mjs");
const JEST = path.join(ROOT, "node_modules/jest/bin/jest.js");
const ENV = (url: string) => ({ FAKE_URL: url, LANGSMITH_TEST_TRACKING: "false", LANGSMITH_TRACING: "" });
/**
 * A test's line in the side file: the LANGCHAIN_* variables its process has (LangSmith copies each into every trace's
 * metadata), but LANGCHAIN_VCR_MODE and LANGCHAIN_VCR_QUIET, which the runs here set as a user would.
 */
const ENV_LINE = `require("node:fs").appendFileSync(process.env.SIDE_FILE, "env " + JSON.stringify(Object.keys(process.env).filter((k) => k.startsWith("LANGCHAIN_") && !/^LANGCHAIN_VCR_(MODE|QUIET)$/.test(k))) + "\\n");`;

/** Two ls.tests in one ls.describe, each one chat call of a model built without a cache (install() reaches it). */
function lsTests(esm: boolean): string {
  return [
    esm ? `import * as ls from "langsmith/vitest";` : `const ls = require("langsmith/jest");`,
    esm ? `import { ChatOpenAI } from "@langchain/openai";` : `const { ChatOpenAI } = require("@langchain/openai");`,
    `const ask = (q) => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } }).invoke(q);`,
    esm ? `import { createRequire } from "node:module"; const require = createRequire(import.meta.url);` : ``,
    `ls.describe("ls suite", () => {`,
    `  ls.test("asks the app", { inputs: { q: "a question from app code" } }, async ({ inputs }) => { ${ENV_LINE} await ask(inputs.q); });`,
    `  ls.test("asks the app again", { inputs: { q: "a second question" } }, async ({ inputs }) => { await ask(inputs.q); });`,
    `});`,
    ``,
  ].join("\n");
}

describe("LangSmith's test integration (ls.test) and its traces under the runner plugins: a miss's printed command records that one test; no LANGCHAIN_* variable of langchain-vcr's in a test process", function () {
  this.timeout(120000);
  after(removeTmpDirs);

  it("vitest (langsmith/vitest): the command leaves ls.test's run id open, and as printed records 1 request into 1 fixture", async () => {
    await expectLsMissRecords(
      {
        "vitest.config.mjs": [
          `import langchainVcr from "langchain-vcr/vitest";`,
          `export default { plugins: [langchainVcr()], test: { include: ["test/*.test.mjs"], setupFiles: ["./vcr-setup.mjs"], testTimeout: 20000 } };`,
          ``,
        ].join("\n"),
        "vcr-setup.mjs": INSTALL_SETUP_MJS,
        "test/ls.test.mjs": lsTests(true),
      },
      { run: [VITEST, "run"], miss: ["--maxWorkers=1"], words: "vitest run", file: "test/ls.test.mjs" },
      `${vitestMajor() >= 5 ? "ls suite > asks the app" : "ls suite asks the app"}, test_id=`,
    );
  });

  it("jest (langsmith/jest): the command leaves ls.test's run id open, and as printed records 1 request into 1 fixture", async () => {
    await expectLsMissRecords(
      {
        "jest.config.cjs": JEST_LLM_CONFIG,
        "vcr-setup.cjs": INSTALL_SETUP_CJS,
        "llm/ls.test.cjs": lsTests(false),
      },
      { run: [JEST, "--ci"], miss: [], words: "jest", file: "llm/ls.test.cjs" },
      "ls suite asks the app, test_id=",
    );
  });

  it("mocha, serial and --parallel: no LANGCHAIN_* variable of langchain-vcr's own in a test's process (LangSmith would copy it into each trace)", async () => {
    const p = makeProject(
      {
        ".mocharc.json": JSON.stringify({ spec: ["test/*.spec.cjs"], require: ["langchain-vcr/mocha"], timeout: 20000 }),
        "test/a.spec.cjs": `it("a", () => { ${ENV_LINE} });\n`,
        "test/b.spec.cjs": `it("b", () => { ${ENV_LINE} });\n`,
      },
      { mocha: true },
    );
    for (const args of [[], ["--parallel", "--jobs", "2"]]) {
      const r = await p.run(["node_modules/mocha/bin/mocha.js", ...args]);
      expect(r.status, r.stdout + r.stderr).to.equal(0);
    }
    expect(p.sideLines()).to.have.length(4);
    expectNoLangchainEnv(p.sideLines());
  });
});

/**
 * Every test process's LANGCHAIN_* variables, as the test wrote them: none (the user sets none here). langchain-vcr's own
 * (the run's share: paths, pids, the runner's arguments) are named _LANGCHAIN_VCR_*, which LangSmith's trace metadata leaves out.
 */
function expectNoLangchainEnv(lines: string[]): void {
  const env = lines.filter((l) => l.startsWith("env "));
  expect(env.length, lines.join("\n")).to.be.greaterThan(0);
  for (const l of env) expect(l).to.equal("env []");
}

/**
 * The project of `files` under one runner (`run`: its command; `miss`: more arguments for the run that misses; `words`: the
 * runner's words in the printed command): the miss prints the command for `title`, which as printed records 1 request into 1
 * fixture; a complete run after it leaves a ledger naming the tests without their ids, and no test process had a LANGCHAIN_*
 * variable of langchain-vcr's.
 */
async function expectLsMissRecords(
  files: Record<string, string>,
  runner: { run: string[]; miss: string[]; words: string; file: string },
  title: string,
): Promise<void> {
  await withFakeProvider({}, async (fake) => {
    const p = makeProject(files);
    await expectPrintedCommandRecords(p, fake, ENV(fake.openaiBaseURL), {
      miss: [...runner.run, ...runner.miss],
      hint: `LANGCHAIN_VCR_MODE=record_or_replay npx ${runner.words} ${runner.file} -t "${title}"`,
      printed: [...runner.run, runner.file, "-t", title],
    });
    const used = await p.run(runner.run, { ...ENV(fake.openaiBaseURL), LANGCHAIN_VCR_MODE: "record_or_replay" });
    expect(used.status, used.stdout + used.stderr).to.equal(0);
    expectLedgerNamesWithoutIds((await p.cli(["stats", "--by-test"])).stdout);
    expectNoLangchainEnv(p.sideLines());
  });
}

/** `stats --by-test` after a complete run names both tests by their ls.test names, without the run's ids. */
function expectLedgerNamesWithoutIds(out: string): void {
  expect(out, out).to.match(/ls suite (?:> )?asks the app: 1 fixture/); // "suite > test" under vitest 5
  expect(out, out).to.match(/ls suite (?:> )?asks the app again: 1 fixture/);
  expect(out, out).to.not.include("test_id");
}
