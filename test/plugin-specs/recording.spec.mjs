// The ESM twin of recording.spec.js, run by test/integration/esm-build.test.ts under the
// CommonJS mocha plugin: one process holds both builds of langchain-vcr (the plugin from
// dist/cjs, this file's import from dist/esm, each with its own copy of @langchain/core).
import { createRequire } from "node:module";
import { ChatOpenAI } from "@langchain/openai";
import { Vcr, withVcr } from "../../dist/esm/index.mjs";

const require = createRequire(import.meta.url);
const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
const model = () =>
  new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } });

describe("a user's ESM suite", () => {
  it("passes after recording", async () => {
    await model().invoke("kept question");
  });
  it("fails after recording", async () => {
    await model().invoke("question of a failing test");
    await model().invoke("second question of a failing test");
    throw new Error("assertion failed after the model answered");
  });
  it("sees an error of this build as a VcrError of the CommonJS build", async () => {
    const miss = await withVcr({ mode: "replay_only" }, () => model().invoke("never recorded")).catch((e) => e);
    const cjs = require("../../dist/cjs/index.js");
    if (!cjs.isVcrError(miss) || miss.code !== "VCR_MISS") throw new Error("not a VcrMissError to the CommonJS build: " + miss);
  });
});
