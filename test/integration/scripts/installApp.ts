/**
 * An application module that builds its own models at import, as app code does: a ChatOpenAI
 * and an OpenAIEmbeddings (both from the environment: OPENAI_BASE_URL, OPENAI_API_KEY). The
 * test that imports it can't pass them a cache or wrap them.
 */
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";

const chat = new ChatOpenAI({ model: "gpt-4o-mini", maxRetries: 0 });
const embeddings = new OpenAIEmbeddings({ model: "text-embedding-3-small", maxRetries: 0 });
const DOCS = ["Refunds take 5 days.", "Shipping is free over $50.", "Support answers within a day."];

/** Picks the document nearest the question and asks the model about it. */
export async function answer(question: string): Promise<{ doc: string; text: string }> {
  const [docs, query] = await Promise.all([embeddings.embedDocuments(DOCS), embeddings.embedQuery(question)]);
  const score = (v: number[]) => v.reduce((s, x, i) => s + x * query[i], 0);
  const best = docs.map((v, i) => [score(v), i] as const).sort((a, b) => b[0] - a[0])[0][1];
  const reply = await chat.invoke(`Using "${DOCS[best]}": ${question}`);
  return { doc: DOCS[best], text: reply.text };
}
