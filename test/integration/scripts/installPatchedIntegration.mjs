// STEP=patch: loads @langchain/mistralai, then patches the project's copy of it on disk (a new
// Embeddings class in a file of its own, exported from the entry), as patch-package or an install
// under way would, and only then calls install() (which learns from what this process loaded).
// STEP=use: install(), then the patched class from the entry embeds one text against the fake.
// Prints the stats; run with the temporary project as the working directory.
import * as fs from "node:fs";
import * as path from "node:path";
const { Vcr } = await import(process.env.VCR_ENTRY);
if (process.env.STEP === "patch") {
  await import("@langchain/mistralai");
  const dist = path.join(process.cwd(), "node_modules/@langchain/mistralai/dist");
  fs.writeFileSync(
    path.join(dist, "patched_embeddings.js"),
    [
      `import { Embeddings } from "@langchain/core/embeddings";`,
      `export class PatchedEmbeddings extends Embeddings {`,
      `  async embedDocuments(texts) {`,
      `    const res = await fetch(process.env.FAKE_URL + "/v1/embeddings", { method: "POST", headers: { "content-type": "application/json", authorization: "Bearer k" }, body: JSON.stringify({ model: "mistral-embed", input: texts }) });`,
      `    return (await res.json()).data.map((d) => d.embedding);`,
      `  }`,
      `  async embedQuery(text) { return (await this.embedDocuments([text]))[0]; }`,
      `}`,
      ``,
    ].join("\n"),
  );
  fs.appendFileSync(path.join(dist, "index.js"), `\nexport { PatchedEmbeddings } from "./patched_embeddings.js";\n`);
}
const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
const uninstall = vcr.install();
await uninstall.ready;
let dims;
if (process.env.STEP === "use") {
  const { PatchedEmbeddings } = await import("@langchain/mistralai");
  dims = (await new PatchedEmbeddings().embedQuery("a text for the patched class")).length;
}
uninstall();
console.log(JSON.stringify({ dims, stats: vcr.stats() }));
