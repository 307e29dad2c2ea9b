/**
 * Example: a live smoke test. `withVcr({ mode: "bypass" })` sends this one call to the real
 * provider — no fixture read, none written — while every other test keeps replaying. It is
 * skipped unless a real provider is configured (OPENAI_API_KEY, or a reachable OLLAMA_HOST:
 * see examples/provider/config.ts), so offline runs and CI without a key stay green.
 */
import { expect } from "chai";
import { ChatOllama } from "@langchain/ollama";
import { ChatOpenAI } from "@langchain/openai";
import { Vcr, withVcr } from "../src/index"; // in your project: from "langchain-vcr"
import { provider } from "./provider/config";
import { CASSETTES } from "./support/cassettes";

describe("live smoke test (runs only with a real provider)", function () {
  before(function () {
    if (!provider.real) this.skip(); // no key, no local Ollama: nothing live to check
  });

  const vcr = new Vcr({ dir: CASSETTES });
  const model = provider.realOpenAI
    ? new ChatOpenAI({ ...provider.openai, model: "gpt-4o-mini", temperature: 0, cache: vcr.cache })
    : new ChatOllama({ ...provider.ollama, model: "llama3.2", temperature: 0, cache: vcr.cache });

  // #region bypass
  it("reaches the real provider", async () => {
    const answer = await withVcr({ mode: "bypass" }, () => model.invoke("Reply with the word: pong"));
    expect(answer.text.toLowerCase()).to.include("pong");
  });
  // #endregion bypass
});
