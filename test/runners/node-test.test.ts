/**
 * langchain-vcr/node-test in a user's project: `node --require langchain-vcr/node-test --test`
 * on Node 20, one ESM and one CommonJS test file (each in its own child process).
 */
import { describeParity } from "./helpers/parity";

describeParity({
  name: "langchain-vcr/node-test (node --test)",
  command: ["--require", "langchain-vcr/node-test", "--test"],
  filter: (pattern) => [`--test-name-pattern=${pattern}`],
  shard: (i, n) => [`--test-shard=${i}/${n}`],
  chatOnly: "chat",
  chatAndHang: "asks|times out",
  chatTitle: "chat > asks",
  hangTitle: "hang > times out",
  hint: `add --test-name-pattern "asks" to the node --test command to record just this test`,
  concurrent: true,
  filterReason: `--test-name-pattern "chat" selected only some tests`,
  files: {
    "test/a.test.mjs": [
      `import { describe, it } from "node:test";`,
      `import { askChat, hang } from "../scenario.mjs";`,
      `describe("chat", () => { it("asks", () => askChat("chat > asks")); });`,
      `describe("hang", () => { it("times out", { timeout: 1500, skip: !process.env.HANG_URL }, () => hang("hang > times out")); });`,
      ``,
    ].join("\n"),
    "test/b.test.cjs": [
      `const { describe, it } = require("node:test");`,
      `const { askAgent, lookupTwice } = require("../scenario.cjs");`,
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
  },
});
