/**
 * Memory over many replays: 1,000 distinct chat fixtures (recorded against the loopback fake,
 * then dated an hour back) replayed 100,000 times round-robin by a real ChatOpenAI, in a fresh
 * process of an ESM consumer of the packed build, run with --expose-gc. The heap is read after
 * a full GC every 10,000 replays; flat means the last reading is within a few MiB of the first.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startFakeProvider } from "../helpers/fakeProvider";
import { consumer } from "./consumer";
import { tmpDir } from "./env";

const CHILD = `
import * as fs from "node:fs";
import * as path from "node:path";
import { ChatOpenAI } from "@langchain/openai";
import { Vcr } from "langchain-vcr";

const { FAKE_URL, VCR_DIR, FIXTURES, REPLAYS } = process.env;
const n = Number(FIXTURES);
const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "bench-key-not-a-secret", maxRetries: 0, cache: new Vcr({ dir: VCR_DIR, mode: "record_or_replay" }).cache, configuration: { baseURL: FAKE_URL } });
const q = (i) => "memory question " + i;
for (let i = 0; i < n; i++) await model.invoke(q(i));
const past = Date.now() / 1000 - 3600;
for (const f of fs.readdirSync(VCR_DIR)) fs.utimesSync(path.join(VCR_DIR, f), past, past);
const heap = () => (globalThis.gc(), globalThis.gc(), process.memoryUsage().heapUsed);
const readings = [];
for (let r = 0; r < Number(REPLAYS); r++) {
  const a = await model.invoke(q(r % n));
  if (a.content !== "echo: " + q(r % n)) throw new Error("bench: replayed another answer");
  if ((r + 1) % 10000 === 0) readings.push({ replays: r + 1, heapUsed: heap() });
}
console.log(JSON.stringify(readings));
`;

export interface MemoryReading {
  replays: number;
  heapUsed: number;
}

export async function benchMemory(opts: { fixtures: number; replays: number }): Promise<MemoryReading[]> {
  const c = consumer();
  const script = c.write("memory.mjs", CHILD);
  const fake = await startFakeProvider();
  try {
    const env = {
      ...process.env,
      FAKE_URL: fake.openaiBaseURL,
      VCR_DIR: tmpDir("memory"),
      FIXTURES: String(opts.fixtures),
      REPLAYS: String(opts.replays),
      LANGCHAIN_VCR_MODE: "",
      LANGCHAIN_VCR_QUIET: "1",
      CI: "",
    };
    const { stdout } = await promisify(execFile)(process.execPath, ["--expose-gc", script], { cwd: c.dir, env, timeout: 600000, maxBuffer: 16 << 20 });
    if (fake.count() !== opts.fixtures) throw new Error(`bench: the memory run made ${fake.count()} provider requests (${opts.fixtures} recordings expected)`);
    return JSON.parse(stdout.trim().split("\n").pop()!) as MemoryReading[];
  } finally {
    await fake.close();
  }
}
