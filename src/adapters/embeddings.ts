/** The embeddings adapter lives in ./embeddings/; this path is kept for src/vcr.ts and src/index.ts. */
export { VcrEmbeddings } from "./embeddings/vcrEmbeddings";
