/** An app module that exports an embeddings instance of its own class (the class itself is not exported). */
import { Embeddings } from "@langchain/core/embeddings";

class AppEmbeddings extends Embeddings {
  runs = 0;
  async embedQuery(text: string): Promise<number[]> {
    this.runs++;
    return [text.length];
  }
  async embedDocuments(texts: string[]): Promise<number[][]> {
    this.runs++;
    return texts.map((t) => [t.length]);
  }
}

export const embeddings = new AppEmbeddings({});
