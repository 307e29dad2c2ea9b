/**
 * Soak child (run with `node --expose-gc`): records a few chat, embedding and tool fixtures
 * against its own in-process loopback fake, closes the fake, then replays them SOAK_REPLAYS
 * times under `replay_only` (the fake is gone, so any miss or live call fails). Prints one
 * JSON line: heapUsed after a full GC, the open file-descriptor count and how many of those are
 * open on fixture files (descriptors held on kept fixtures: src/store/heldFiles.ts) at checkpoints.
 * The fixtures are dated an hour back before replaying, as a suite's committed ones are, and the
 * replays start a second after that: kept from their second replay, held from their third.
 *
 * env: FIXTURE_DIR (required), SOAK_REPLAYS (default 10000).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { OpenAIEmbeddings } from "@langchain/openai";
import { tool } from "langchain";
import { z } from "zod";
import { Vcr, withVcr } from "../../../src/index";
import { inOwnTest } from "../../helpers/ownTest";
import { startFakeProvider } from "../../helpers/fakeProvider";
import { openai, TEST_KEY } from "../../helpers/models";

const PROMPTS = Array.from({ length: 8 }, (_, i) => `soak question number ${i}`);
const TEXTS = Array.from({ length: 4 }, (_, i) => `soak text ${i}`);

interface Checkpoint {
  replays: number;
  heapUsed: number;
  rss: number;
  fds: number;
  fixtureFds: number;
}

function gc(): void {
  const g = (globalThis as { gc?: () => void }).gc;
  if (!g) throw new Error("run this script with node --expose-gc");
  g();
  g();
}

function openFds(): string[] {
  return fs.readdirSync("/proc/self/fd").map((fd) => {
    try {
      return fs.readlinkSync(`/proc/self/fd/${fd}`);
    } catch {
      return ""; // the directory's own descriptor, closed by now
    }
  });
}

async function checkpoint(replays: number): Promise<Checkpoint> {
  await new Promise((r) => setImmediate(r)); // let finished work release its resources
  gc();
  const m = process.memoryUsage();
  const fds = openFds();
  const dir = path.resolve(process.env.FIXTURE_DIR!) + path.sep;
  return { replays, heapUsed: m.heapUsed, rss: m.rss, fds: fds.length, fixtureFds: fds.filter((t) => t.startsWith(dir)).length };
}

async function main(): Promise<void> {
  const total = Number(process.env.SOAK_REPLAYS ?? 10000);
  const vcr = new Vcr({ dir: process.env.FIXTURE_DIR, mode: "record_or_replay" });
  const fake = await startFakeProvider();
  const chat = openai(fake, vcr.cache);
  const embeddings = vcr.embeddings(
    new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } }),
  );
  let bodyRuns = 0;
  const lookup = vcr.tool(
    tool(async ({ id }: { id: string }) => (bodyRuns++, `order ${id} shipped`), {
      name: "lookup_order",
      description: "Look up an order",
      schema: z.object({ id: z.string() }),
    }),
  );

  // record once
  for (const p of PROMPTS) await chat.invoke([new HumanMessage(p)]);
  for (const t of TEXTS) await embeddings.embedQuery(t);
  await inOwnTest({}, () => lookup.invoke({ id: "42" }));
  const recordedCalls = fake.count();
  await fake.close();
  const past = Date.now() / 1000 - 3600;
  for (const f of fs.readdirSync(process.env.FIXTURE_DIR!)) fs.utimesSync(path.join(process.env.FIXTURE_DIR!, f), past, past);
  await new Promise((r) => setTimeout(r, 1100)); // their last change (the utimes) a second back: descriptors are held from their third replay

  // replay: every call must hit (replay_only, and the provider is gone)
  const every = Math.max(1, Math.floor(total / 10));
  const checkpoints: Checkpoint[] = [await checkpoint(0)];
  const started = Date.now();
  await withVcr({ mode: "replay_only" }, async () => {
    for (let i = 1; i <= total; i++) {
      const k = i % 16;
      if (k < 12) {
        const msg = await chat.invoke([new HumanMessage(PROMPTS[i % PROMPTS.length])]);
        if (msg.content !== `echo: ${PROMPTS[i % PROMPTS.length]}`) throw new Error(`wrong replay at ${i}: ${String(msg.content)}`);
      } else if (k < 15) {
        const v = await embeddings.embedQuery(TEXTS[i % TEXTS.length]);
        if (v.length === 0) throw new Error(`empty vector at ${i}`);
      } else {
        // a fresh scope per call: a repeat inside one scope is a new (ordered) tool request
        const out = await inOwnTest({}, () => lookup.invoke({ id: "42" }));
        if (out !== "order 42 shipped") throw new Error(`wrong tool replay at ${i}: ${String(out)}`);
      }
      if (i % every === 0) checkpoints.push(await checkpoint(i));
    }
  });
  const ms = Date.now() - started;
  process.stdout.write(JSON.stringify({ total, ms, recordedCalls, bodyRuns, stats: vcr.stats(), checkpoints }) + "\n");
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
