// Run by test/integration/mocha-plugin.test.ts in a child mocha process, as a user's suite runs,
// against the built package (dist/). FAKE_URL points at the parent's loopback fake;
// FIXTURE_DIR is a scratch directory.
const { ChatOpenAI } = require("@langchain/openai");
const { Vcr } = require("../../dist/cjs/index.js");

const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
const model = () =>
  new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } });

describe("a user's suite", () => {
  it("passes after recording", async () => {
    if (!process.env.SKIP_KEPT) await model().invoke("kept question");
  });
  it("fails after recording", async () => {
    await model().invoke("question of a failing test");
    await model().invoke(process.env.OVERWRITE_PROMPT || "second question of a failing test");
    throw new Error("assertion failed after the model answered");
  });
});
