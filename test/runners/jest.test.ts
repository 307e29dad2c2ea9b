/** langchain-vcr/jest in a user's project: jest 30, CommonJS test files, the setup file and the reporter. */
import * as path from "node:path";
import { ROOT } from "../helpers/built";
import { DASH_T, describeParity } from "./helpers/parity";

describeParity({
  name: "langchain-vcr/jest (jest 30)",
  command: [path.join(ROOT, "node_modules/jest/bin/jest.js"), "--ci"],
  ...DASH_T,
  concurrent: false,
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
    "test/b.test.cjs": [
      `const { askAgent, lookupTwice } = require("../scenario.cjs");`,
      `describe("agent", () => {`,
      `  test("refund once", () => askAgent("agent refund once"));`,
      `  test("refund again", () => askAgent("agent refund again"));`,
      `});`,
      `describe("lookups", () => {`,
      `  test("first", () => lookupTwice("first"));`,
      `  test("second", () => lookupTwice("second"));`,
      `});`,
      ``,
    ].join("\n"),
  },
});
