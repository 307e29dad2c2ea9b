// Uses the built package through its "exports" map (package self-reference), as a CommonJS user does.
const { ChatOpenAI } = require("@langchain/openai");
const { Vcr, withVcr, isVcrError } = require("langchain-vcr");
const { mochaHooks } = require("langchain-vcr/mocha");

(async () => {
  const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
  const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } });
  const a = await withVcr({ mode: "record_or_replay" }, () => model.invoke("cjs question"));
  const b = await withVcr({ mode: "replay_only" }, () => model.invoke("cjs question"));
  const miss = await withVcr({ mode: "replay_only" }, () => model.invoke("never recorded")).catch((e) => e);
  console.log(
    JSON.stringify({
      a: a.content,
      b: b.content,
      usage: b.usage_metadata?.total_tokens,
      missIsVcr: isVcrError(miss),
      code: miss.code,
      stats: vcr.stats(),
      hooks: Object.keys(mochaHooks).sort(),
    }),
  );
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
