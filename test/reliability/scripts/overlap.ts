/**
 * The overlapping workload the cross-process concurrency tests record into ONE directory:
 * 12 chat prompts, 8 embedding texts and 6 tool calls. Every participant makes every request,
 * in its own rotated order, four at a time, after a file barrier so that all participants
 * start together and their misses really race. Used by the `mocha --parallel` spec files,
 * by the two-process child (`recordOverlap.ts`) and by the parent's replay check.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { OpenAIEmbeddings } from "@langchain/openai";
import { ChatOpenAI } from "@langchain/openai";
import { tool } from "langchain";
import { z } from "zod";
import { Vcr } from "../../../src/index";
import { inOwnTest } from "../../helpers/ownTest";

export const PROMPTS = Array.from({ length: 12 }, (_, i) => `overlap question ${i}`);
export const TEXTS = Array.from({ length: 8 }, (_, i) => `overlap text ${i}`);
export const TOOL_IDS = Array.from({ length: 6 }, (_, i) => `order-${i}`);
/** How many distinct fixtures the workload makes. */
export const DISTINCT = PROMPTS.length + TEXTS.length + TOOL_IDS.length;
/** The two embedding batches overlap by two texts. */
const BATCH_A = 5;
const BATCH_B_FROM = 3;
/** How many lookups one run of the workload makes (the overlapping texts are looked up twice). */
export const LOOKUPS = PROMPTS.length + BATCH_A + (TEXTS.length - BATCH_B_FROM) + TOOL_IDS.length;

const KEY = "test-key-not-a-secret-1";

function rotate<T>(xs: readonly T[], by: number): T[] {
  const k = ((by % xs.length) + xs.length) % xs.length;
  return [...xs.slice(k), ...xs.slice(0, k)];
}

async function inBatches<T>(xs: readonly T[], size: number, fn: (x: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < xs.length; i += size) await Promise.all(xs.slice(i, i + size).map(fn));
}

export interface Workload {
  vcr: Vcr;
  chat(): Promise<void>;
  embeddings(): Promise<void>;
  tools(): Promise<void>;
  /** How many times a tool body ran in this process. */
  toolRuns(): number;
}

/** Participant `p`'s workload against the fake at `fakeUrl` (http://127.0.0.1:PORT), into `dir`. */
export function workload(p: number, fakeUrl: string, dir: string): Workload {
  const vcr = new Vcr({ dir });
  const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: KEY, maxRetries: 0, cache: vcr.cache, configuration: { baseURL: fakeUrl + "/v1" } });
  const embedder = vcr.embeddings(
    new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: KEY, maxRetries: 0, configuration: { baseURL: fakeUrl + "/v1" } }),
  );
  let runs = 0;
  const status = vcr.tool(
    tool(async ({ id }: { id: string }) => (runs++, `order ${id}: shipped`), {
      name: "order_status",
      description: "The status of an order",
      schema: z.object({ id: z.string() }),
    }),
  );
  return {
    vcr,
    async chat() {
      await inBatches(rotate(PROMPTS, p * 3), 4, async (q) => {
        const answer = await model.invoke(q);
        if (answer.content !== `echo: ${q}`) throw new Error(`participant ${p}: wrong answer for ${q}: ${String(answer.content)}`);
      });
    },
    async embeddings() {
      // overlapping batches: a partial hit sends one request holding only the missing texts
      const texts = rotate(TEXTS, p * 2);
      await Promise.all([embedder.embedDocuments(texts.slice(0, BATCH_A)), embedder.embedDocuments(texts.slice(BATCH_B_FROM))]);
    },
    async tools() {
      // each call in its own scope: a repeat inside one scope would be a new, ordered request
      await inBatches(rotate(TOOL_IDS, p), 4, async (id) => {
        const out = await inOwnTest({}, () => status.invoke({ id }));
        if (out !== `order ${id}: shipped`) throw new Error(`participant ${p}: wrong tool result for ${id}: ${String(out)}`);
      });
    },
    toolRuns: () => runs,
  };
}

/**
 * Waits until `count` participants have arrived in `dir` (one file each), so they start
 * recording at the same moment. Gives up after `timeoutMs` and throws.
 */
export async function barrier(dir: string, name: string, count: number, timeoutMs = 20000): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, name), String(process.pid));
  const until = Date.now() + timeoutMs;
  while (fs.readdirSync(dir).length < count) {
    if (Date.now() > until) throw new Error(`barrier: only ${fs.readdirSync(dir).length} of ${count} participants arrived in ${dir}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Env the children read. */
export function overlapEnv(): { fakeUrl: string; dir: string; barrierDir: string; participants: number } {
  const need = (k: string) => {
    const v = process.env[k];
    if (!v) throw new Error(`${k} is not set`);
    return v;
  };
  return { fakeUrl: need("FAKE_URL"), dir: need("FIXTURE_DIR"), barrierDir: need("BARRIER_DIR"), participants: Number(need("PARTICIPANTS")) };
}
