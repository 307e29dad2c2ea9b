// Requires the package's CommonJS entry and uses it (a VcrCache on a CommonJS ChatOpenAI),
// then prints every CommonJS file the process loaded (ES modules are in $LOADED_LOG).
const { ChatOpenAI } = require("@langchain/openai");
const { Vcr } = require("langchain-vcr");

(async () => {
  const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
  const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } });
  const a = await model.invoke("cjs only");
  const b = await model.invoke("cjs only");
  console.log(JSON.stringify({ a: a.content, b: b.content, stats: vcr.stats(), cjsFiles: Object.keys(require.cache) }));
})();
