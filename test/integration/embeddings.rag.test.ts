/**
 * A RAG pipeline end to end: embed documents into MemoryVectorStore, retrieve with
 * asRetriever, answer with ChatOpenAI through vcr.cache — then replay the whole thing
 * offline (server closed, replay_only) with 0 requests and the same answer.
 */
import { expect } from "chai";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { Document } from "@langchain/core/documents";
import { OpenAIEmbeddings } from "@langchain/openai";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import { Vcr, withVcr } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai, TEST_KEY } from "../helpers/models";
import { fixtureFiles, readFixtures } from "../helpers/tmp";

const DOCS = [
  new Document({ pageContent: "Refunds are issued within 14 days of purchase.", metadata: { id: "refunds" } }),
  new Document({ pageContent: "Shipping to Canada takes 5 to 7 business days.", metadata: { id: "shipping" } }),
  new Document({ pageContent: "Gift cards never expire and cannot be refunded.", metadata: { id: "gift" } }),
];
const QUESTION = "How long do refunds take?";

/** Index, retrieve, answer: everything a RAG test does, with whatever server `fake` points at. */
async function rag(vcr: Vcr, fake: { openaiBaseURL: string }) {
  const embeddings = vcr.embeddings(
    new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } }),
  );
  const store = await MemoryVectorStore.fromDocuments(DOCS, embeddings);
  const retrieved = await store.asRetriever({ k: 2 }).invoke(QUESTION);
  const context = retrieved.map((d) => d.pageContent).join("\n");
  const model = openai(fake as FakeProvider, vcr.cache);
  const answer = await model.invoke(`Answer from the context only.\nContext:\n${context}\nQuestion: ${QUESTION}`);
  return { retrieved: retrieved.map((d) => d.metadata.id as string), answer: answer.content };
}

describe("embeddings: RAG with MemoryVectorStore, a retriever and ChatOpenAI", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)), "vcr-emb-rag-");

  it("records once, then replays the whole pipeline offline with 0 requests and the same answer", async () => {
    const live = await withVcr({ mode: "record_or_replay" }, () => rag(new Vcr({ dir }), fake));
    expect(fake.count("/v1/embeddings")).to.equal(2); // the documents, then the question
    expect(fake.count("/v1/chat/completions")).to.equal(1);
    expect(live.retrieved).to.have.length(2);
    expect(live.answer)
      .to.be.a("string")
      .and.match(/^echo: Answer from the context only\./);
    expect(
      readFixtures(dir)
        .map((f) => f.kind)
        .sort(),
    ).to.deep.equal(["chat", "embedding", "embedding", "embedding", "embedding"]);

    const before = fake.count();
    const url = fake.openaiBaseURL;
    await fake.close(); // nothing listens on that port any more: a live call would fail, not pass
    const vcr2 = new Vcr({ dir });
    const replayed = await withVcr({ mode: "replay_only" }, () => rag(vcr2, { openaiBaseURL: url }));
    expect(fake.count()).to.equal(before);
    expect(replayed).to.deep.equal(live);
    expect(vcr2.stats()).to.deep.equal({ replayed: 5, recorded: 0, bypassed: 0, missed: 0 });
    expect(fixtureFiles(dir)).to.have.length(5);
  });
});
