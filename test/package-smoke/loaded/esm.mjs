// Imports the package's ESM entry and uses it (a VcrCache on an ESM ChatOpenAI: records,
// then replays), then prints every CommonJS file the process loaded.
import { createRequire } from "node:module";
import { ChatOpenAI } from "@langchain/openai";
import { Vcr } from "langchain-vcr";

const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } });
const a = await model.invoke("esm only");
const b = await model.invoke("esm only");
const cjsFiles = Object.keys(createRequire(import.meta.url).cache);
console.log(JSON.stringify({ a: a.content, b: b.content, stats: vcr.stats(), cjsFiles }));
