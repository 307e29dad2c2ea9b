/**
 * Section 3 — `embedDocuments` of 1,000 texts (1,536 dimensions, as text-embedding-3-small)
 * through the real OpenAIEmbeddings: replayed by `vcr.embeddings(...)` (one fixture per
 * text), by @langchain/classic `CacheBackedEmbeddings` over `LocalFileStore` (one file per
 * text), and live on the loopback fake (two batched requests of 512 + 488 texts).
 */
import { CacheBackedEmbeddings } from "@langchain/classic/embeddings/cache_backed";
import { LocalFileStore } from "@langchain/classic/storage/file_system";
import { OpenAIEmbeddings } from "@langchain/openai";
import { Vcr } from "../../src/index";
import { startFakeProvider } from "../helpers/fakeProvider";
import { API_KEY, expectRequests, realFetch, tmpDir } from "./env";
import { compare, type Measured } from "./harness";

export const EMBED_TEXTS = 1000;
export const EMBED_DIMS = 1536;

export function embedTexts(n = EMBED_TEXTS): string[] {
  return Array.from({ length: n }, (_, i) => `Document ${i}: the quick brown fox jumps over the lazy dog, chapter ${i % 37}.`);
}

export interface EmbeddingsResult {
  replay: Measured[];
  /** First fill: recording every text into an empty directory / store. */
  fill: Measured[];
}

export async function benchEmbeddings(opts: { rounds: number; warmup: number; fillRounds: number }): Promise<EmbeddingsResult> {
  const fake = await startFakeProvider();
  try {
    const inner = new OpenAIEmbeddings({
      model: "text-embedding-3-small",
      dimensions: EMBED_DIMS,
      apiKey: API_KEY,
      maxRetries: 0,
      configuration: { baseURL: fake.openaiBaseURL, fetch: realFetch },
    });
    const texts = embedTexts();
    const vcr = new Vcr({ dir: tmpDir("embeddings"), mode: "record_or_replay" });
    const viaVcr = vcr.embeddings(inner);
    const viaStore = CacheBackedEmbeddings.fromBytesStore(inner, await LocalFileStore.fromPath(tmpDir("localfilestore")), {
      namespace: "text-embedding-3-small",
    });

    const expected = await inner.embedDocuments(texts);
    const perLive = fake.count();
    for (const e of [viaVcr, viaStore]) sameVectors(await e.embedDocuments(texts), expected, "recording");
    sameVectors(await viaVcr.embedDocuments(texts), expected, "vcr replay");
    sameVectors(await viaStore.embedDocuments(texts), expected, "CacheBackedEmbeddings replay");
    if (vcr.stats().replayed !== EMBED_TEXTS) throw new Error(`bench: VcrEmbeddings replayed ${vcr.stats().replayed} of ${EMBED_TEXTS}`);
    const before = fake.count();

    let liveCalls = 0;
    const results = await compare(
      [
        { name: `vcr.embeddings replay (${EMBED_TEXTS} fixtures)`, run: () => viaVcr.embedDocuments(texts) },
        { name: "CacheBackedEmbeddings + LocalFileStore hit", run: () => viaStore.embedDocuments(texts) },
        { name: "live OpenAIEmbeddings on the loopback fake", run: () => (liveCalls++, inner.embedDocuments(texts)) },
      ],
      opts,
    );
    expectRequests(fake, before + perLive * liveCalls, "embeddings replays");

    // First fill into empty directories (each round gets fresh ones, created untimed).
    let freshVcr = viaVcr;
    let freshStore = viaStore;
    const fill = await compare(
      [
        {
          name: `vcr.embeddings recording ${EMBED_TEXTS} fixtures`,
          before: () => void (freshVcr = new Vcr({ dir: tmpDir("embed-fill"), mode: "record_or_replay" }).embeddings(inner)),
          run: () => freshVcr.embedDocuments(texts),
        },
        {
          name: "CacheBackedEmbeddings + LocalFileStore, first fill",
          before: async () => {
            const store = await LocalFileStore.fromPath(tmpDir("store-fill"));
            freshStore = CacheBackedEmbeddings.fromBytesStore(inner, store, { namespace: "text-embedding-3-small" });
          },
          run: () => freshStore.embedDocuments(texts),
        },
        { name: "live OpenAIEmbeddings on the loopback fake", run: () => inner.embedDocuments(texts) },
      ],
      { rounds: opts.fillRounds, warmup: 0 },
    );
    return { replay: results, fill };
  } finally {
    await fake.close();
  }
}

function sameVectors(got: number[][], expected: number[][], what: string): void {
  const ok = got.length === expected.length && got.every((v, i) => v.length === expected[i].length && v.every((x, j) => x === expected[i][j]));
  if (!ok) throw new Error(`bench: ${what} returned different vectors`);
}
