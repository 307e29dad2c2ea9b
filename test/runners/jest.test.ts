/** langchain-vcr/jest in a user's project: jest 30, CommonJS test files, the setup file and the reporter. */
import * as path from "node:path";
import { ROOT } from "../helpers/built";
import { DASH_T, describeParity } from "./helpers/parity";
import { agentAndLookupsCjs } from "./helpers/project";

describeParity({
  name: "langchain-vcr/jest (jest 30)",
  // two workers, so the two test files run in two processes
  command: [path.join(ROOT, "node_modules/jest/bin/jest.js"), "--ci", "--maxWorkers=2"],
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
