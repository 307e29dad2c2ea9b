/**
 * Example: a plain chat test. Two questions, two fixtures in cassettes/: each test replays
 * its own recorded answer (a fixture's name is the hash of the whole request, so a different
 * question can never replay the wrong answer).
 */
import { expect } from "chai";
import { ChatOpenAI } from "@langchain/openai";
import { Vcr } from "../src/index"; // in your project: from "langchain-vcr"
import { provider } from "./provider/config";
import { CASSETTES } from "./support/cassettes";

describe("chat: two questions, two fixtures", () => {
  // #region chat
  const vcr = new Vcr({ dir: CASSETTES });
  const model = new ChatOpenAI({ ...provider.openai, model: "gpt-4o-mini", temperature: 0, cache: vcr.cache });

  it("answers a geography question", async () => {
    const answer = await model.invoke("What is the capital of France? Answer in one word.");
    expect(answer.text).to.include("Paris");
  });

  it("answers an arithmetic question", async () => {
    const answer = await model.invoke("What is 12 times 12? Answer with the number only.");
    expect(answer.text).to.include("144");
  });
  // #endregion chat
});
