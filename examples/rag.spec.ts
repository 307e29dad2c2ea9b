/**
 * Example: retrieval-augmented generation. Documents are embedded into a MemoryVectorStore
 * through `vcr.embeddings(...)`, the question retrieves the closest ones, and ChatOpenAI
 * answers from them through `vcr.cache`. Every embedding and the answer replay offline.
 */
import { expect } from "chai";
import { Document } from "@langchain/core/documents";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { Vcr } from "../src/index"; // in your project: from "langchain-vcr"
import { provider } from "./provider/config";
import { CASSETTES } from "./support/cassettes";

const POLICIES = [
  new Document({ pageContent: "Refunds are issued within 14 days of purchase.", metadata: { id: "refunds" } }),
  new Document({ pageContent: "Shipping to Canada takes 5 to 7 business days.", metadata: { id: "shipping" } }),
  new Document({ pageContent: "Gift cards never expire and cannot be exchanged for cash.", metadata: { id: "gift-cards" } }),
];

describe("rag: MemoryVectorStore + retrieval + answer", () => {
  // #region rag
  const vcr = new Vcr({ dir: CASSETTES });
  const embeddings = vcr.embeddings(new OpenAIEmbeddings({ ...provider.openai, model: "text-embedding-3-small" }));
  const model = new ChatOpenAI({ ...provider.openai, model: "gpt-4o-mini", temperature: 0, cache: vcr.cache });

  it("retrieves the refund policy and answers from it", async () => {
    const store = await MemoryVectorStore.fromDocuments(POLICIES, embeddings);
    const question = "How long do refunds take?";
    const found = await store.similaritySearch(question, 1);
    expect(found.map((d) => d.metadata.id)).to.deep.equal(["refunds"]);

    const context = found.map((d) => d.pageContent).join("\n");
    const answer = await model.invoke(`Answer from this context only.\nContext:\n${context}\n\nQuestion: ${question}`);
    expect(answer.text).to.include("14 days");
  });
  // #endregion rag
});
