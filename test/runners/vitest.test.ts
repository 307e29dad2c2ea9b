/** langchain-vcr/vitest in a user's project: vitest 4, ESM test files, `plugins: [langchainVcr()]`. */
import * as path from "node:path";
import { ROOT } from "../helpers/built";
import { DASH_T, describeParity } from "./helpers/parity";

describeParity({
  name: "langchain-vcr/vitest (vitest 4)",
  command: [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run"],
  ...DASH_T,
  list: [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "list"],
  hint: `LANGCHAIN_VCR_MODE=record_or_replay npx vitest run -t "chat asks"`,
  concurrent: true,
  changedOnly: { args: ["--changed"], file: "test/a.test.mjs", reason: "--changed ran only the test files related to changed files" },
  onlyFile: { name: "test/c.test.mjs", text: `import { test } from "vitest";\ntest("left out", () => {});\ntest.only("focused", () => {});\n` },
  files: {
    "vitest.config.mjs": [
      `import langchainVcr from "langchain-vcr/vitest";`,
      `export default { plugins: [langchainVcr()], test: { include: ["test/**/*.test.mjs"], testTimeout: 20000 } };`,
      ``,
    ].join("\n"),
    // two test files, so vitest forks two test processes (and a --shard pair has one each)
    "test/a.test.mjs": [
      `import { describe, test } from "vitest";`,
      `import { askChat, hang } from "../scenario.mjs";`,
      `describe("chat", () => { test("asks", () => askChat("chat asks")); });`,
      `describe("hang", () => { test.skipIf(!process.env.HANG_URL)("times out", () => hang("hang times out"), 1500); });`,
      ``,
    ].join("\n"),
    "test/b.test.mjs": [
      `import { describe, test } from "vitest";`,
      `import { askAgent, lookupTwice } from "../scenario.mjs";`,
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
  },
});
