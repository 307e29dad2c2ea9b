/** langchain-vcr/jest in a user's project: jest 30, CommonJS test files, the setup file and the reporter. */
import * as path from "node:path";
import { ROOT } from "../helpers/built";
import { withFakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs } from "../helpers/tmp";
import { DASH_T, describeParity } from "./helpers/parity";
import { agentAndLookupsCjs, cachelessAppFiles, expectPrintedCommandRecords, makeProject } from "./helpers/project";

const JEST = path.join(ROOT, "node_modules/jest/bin/jest.js");

describeParity({
  name: "langchain-vcr/jest (jest 30)",
  // two workers, so the two test files run in two processes
  command: [JEST, "--ci", "--maxWorkers=2"],
  ...DASH_T,
  hint: `LANGCHAIN_VCR_MODE=record_or_replay npx jest -t "chat asks"`,
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
    "jest.config.cjs": [
      `module.exports = {`,
      `  testEnvironment: "node",`,
      `  transform: {},`,
      `  testMatch: ["**/test/**/*.test.cjs"],`,
      `  testTimeout: 20000,`,
      `  setupFilesAfterEnv: ["langchain-vcr/jest"],`,
      `  reporters: ["default", "langchain-vcr/jest/reporter"],`,
      `};`,
      ``,
    ].join("\n"),
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
        "jest.llm.config.cjs": [
          `module.exports = {`,
          `  testEnvironment: "node",`,
          `  transform: {},`,
          `  testMatch: ["**/llm/**/*.test.cjs"],`,
          `  testTimeout: 20000,`,
          `  setupFilesAfterEnv: ["langchain-vcr/jest", "<rootDir>/vcr-setup.cjs"],`,
          `  reporters: ["default", "langchain-vcr/jest/reporter"],`,
          `};`,
          ``,
        ].join("\n"),
      });
      await expectPrintedCommandRecords(p, fake, { FAKE_URL: fake.openaiBaseURL }, {
        miss: [JEST, "--ci", "-c", "jest.llm.config.cjs"],
        hint: `LANGCHAIN_VCR_MODE=record_or_replay npx jest -c jest.llm.config.cjs -t "asks the app"`,
        // what the command used to be: the default config, no test of this name
        plain: [JEST, "--ci", "-t", "asks the app"],
        printed: [JEST, "--ci", "-c", "jest.llm.config.cjs", "-t", "asks the app"],
      });
    });
  });
});
