/**
 * Import cost: what `import "langchain-vcr"` (ESM) and `require("langchain-vcr")` (CommonJS)
 * add on top of @langchain/core, in fresh processes of a consumer with the packed build. Each
 * process loads the core modules langchain-vcr uses, then langchain-vcr, and reports both
 * times; ESM and CommonJS processes alternate. Also: whether the process loaded the other
 * module system's copy of langchain-vcr or of core (it must not).
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { consumer } from "./consumer";
import { median } from "./stats";

const CORE = ["language_models/chat_models", "language_models/llms", "messages", "outputs", "tools", "embeddings", "caches"].map((s) => `@langchain/core/${s}`);

const ESM = `
import { createRequire } from "node:module";
const t0 = performance.now();
${CORE.map((s, i) => `const c${i} = await import(${JSON.stringify(s)});`).join("\n")}
const t1 = performance.now();
await import("langchain-vcr");
const t2 = performance.now();
const cjs = Object.keys(createRequire(import.meta.url).cache).filter((f) => f.includes("langchain-vcr/dist/cjs") || /@langchain.core.dist.*\\.cjs$/.test(f));
console.log(JSON.stringify({ core: t1 - t0, vcr: t2 - t1, other: cjs.length }));
`;

const CJS = `
const t0 = performance.now();
${CORE.map((s) => `require(${JSON.stringify(s)});`).join("\n")}
const t1 = performance.now();
require("langchain-vcr");
const t2 = performance.now();
const esm = Object.keys(require.cache).filter((f) => f.includes("langchain-vcr/dist/esm"));
console.log(JSON.stringify({ core: t1 - t0, vcr: t2 - t1, other: esm.length }));
`;

export interface ImportCost {
  system: "ESM" | "CommonJS";
  coreMs: number[];
  addedMs: number[];
}

export function benchImportCost(opts: { processes: number }): { rows: ImportCost[]; tarball: string } {
  const c = consumer();
  const files = { ESM: c.write("import-cost.mjs", ESM), CommonJS: c.write("import-cost.cjs", CJS) };
  const rows: ImportCost[] = [
    { system: "ESM", coreMs: [], addedMs: [] },
    { system: "CommonJS", coreMs: [], addedMs: [] },
  ];
  for (let i = 0; i < opts.processes + 1; i++) {
    for (const row of i % 2 ? [...rows].reverse() : rows) {
      const out = execFileSync(process.execPath, [files[row.system]], { cwd: c.dir, encoding: "utf8", timeout: 60000 });
      const r = JSON.parse(out.trim().split("\n").pop()!) as { core: number; vcr: number; other: number };
      if (r.other) throw new Error(`bench: the ${row.system} entry loaded ${r.other} file(s) of the other build`);
      if (i === 0) continue; // the first process of each warms the disk cache
      row.coreMs.push(r.core);
      row.addedMs.push(r.vcr);
    }
  }
  return { rows, tarball: path.basename(c.tarball) };
}

export const importMedian = (r: ImportCost) => ({ core: median(r.coreMs), added: median(r.addedMs) });
