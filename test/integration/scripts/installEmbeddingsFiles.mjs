// install() in an ES-module process, then a MistralAIEmbeddings from the package's own entry; prints
// whether install() had loaded that entry (require() of an ES module puts only it in require.cache),
// the vector's length and the stats. Run with the temporary project as the working directory.
import { createRequire } from "node:module";
const require = createRequire(import.meta.url);
const { Vcr } = await import(process.env.VCR_ENTRY);
const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
const uninstall = vcr.install();
await uninstall.ready;
const entryLoaded = Object.keys(require.cache).some((k) => /[\\/]@langchain[\\/]mistralai[\\/]dist[\\/]index\.js$/.test(k));
const { MistralAIEmbeddings } = await import("@langchain/mistralai");
const embeddings = new MistralAIEmbeddings({
  model: "mistral-embed",
  apiKey: "mistral-fake-key-0123456789abcdefABCDEF",
  serverURL: process.env.FAKE_URL,
  maxRetries: 0,
});
const vector = await embeddings.embedQuery("a text for the learned files");
uninstall();
console.log(JSON.stringify({ entryLoaded, dims: vector.length, stats: vcr.stats() }));
