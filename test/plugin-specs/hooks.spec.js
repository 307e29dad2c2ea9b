// Run by test/integration/mocha-plugin.test.ts in a child mocha process: model calls made by a
// test's beforeEach and afterEach hooks belong to that test (a failed test's are removed with
// it); calls made by before/after hooks belong to no test (kept). FAKE_URL points at the
// parent's loopback fake; FIXTURE_DIR is a scratch directory.
const { ChatOpenAI } = require("@langchain/openai");
const { Vcr } = require("../../dist/cjs/index.js");

const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
const ask = (question) =>
  new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } }).invoke(
    question,
  );

describe("the first suite", () => {
  beforeEach(function () {
    return ask(`beforeEach of ${this.currentTest.title}`);
  });
  afterEach(function () {
    return ask(`afterEach of ${this.currentTest.title}`);
  });
  after(() => ask("after of the first suite"));
  it("passes", () => ask("body of passes"));
  it("fails", async () => {
    await ask("body of fails");
    throw new Error("assertion failed after the model answered");
  });
});

describe("the next suite", () => {
  before(() => ask("before of the next suite"));
  it("passes too", function () {
    let root = this.test.parent;
    while (root.parent) root = root.parent;
    // how the plugin scopes tests here: root each-hooks of its own (a --parallel worker) or none (mocha's runner events)
    console.log(`root each-hooks: ${root.getHooks("beforeEach").length} beforeEach, ${root.getHooks("afterEach").length} afterEach`);
    return ask("body of passes too");
  });
});
