/**
 * Example: Ollama. ChatOllama and OllamaEmbeddings record and replay exactly like the OpenAI
 * clients (the model name is part of the key, even though LangChain's own cache key lacks it).
 */
import { expect } from "chai";
import { ChatOllama, OllamaEmbeddings } from "@langchain/ollama";
import { Vcr } from "../src/index"; // in your project: from "langchain-vcr"
import { provider } from "./provider/config";
import { CASSETTES } from "./support/cassettes";

const FAQ = [
  "You can change the delivery address on the Orders page until the order ships.",
  "We ship to the EU, the UK, Canada and the United States.",
  "Gift cards never expire.",
];

function cosine(a: number[], b: number[]): number {
  const dot = a.reduce((n, x, i) => n + x * b[i], 0);
  return dot / (Math.hypot(...a) * Math.hypot(...b));
}

describe("ollama: ChatOllama + OllamaEmbeddings", () => {
  // #region ollama
  const vcr = new Vcr({ dir: CASSETTES });
  const model = new ChatOllama({ ...provider.ollama, model: "llama3.2", temperature: 0, cache: vcr.cache });
  const embeddings = vcr.embeddings(new OllamaEmbeddings({ ...provider.ollama, model: "nomic-embed-text" }));

  it("finds the FAQ entry closest to a question", async () => {
    const [docs, query] = await Promise.all([embeddings.embedDocuments(FAQ), embeddings.embedQuery("How do I change my delivery address?")]);
    const scores = docs.map((d) => cosine(d, query));
    expect(scores.indexOf(Math.max(...scores))).to.equal(0);
  });

  it("answers with a local model", async () => {
    const answer = await model.invoke("Can I change my delivery address? Answer in one sentence.");
    expect(answer.text.toLowerCase()).to.include("address");
  });
  // #endregion ollama
});
