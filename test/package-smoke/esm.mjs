// Uses the built package through its "exports" map (package self-reference), as an ESM user does.
import { ChatOpenAI } from "@langchain/openai";
import { Vcr, withVcr, isVcrError } from "langchain-vcr";
import { mochaHooks } from "langchain-vcr/mocha";

const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } });
const a = await withVcr({ mode: "record_or_replay" }, () => model.invoke("esm question"));
const b = await withVcr({ mode: "replay_only" }, () => model.invoke("esm question"));
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
