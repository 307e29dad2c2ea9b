/**
 * The headline hot-path row: one recorded invoke of a real ChatOpenAI replayed from
 * InMemoryCache (the floor), VcrCache and @langchain/classic's LocalFileCache, interleaved
 * round-robin (the order shuffled every round, seeded per process, so each follows each other
 * one about equally often: harness.ts), 200 warm-up calls each, then 3,000 timed rounds,
 * in fresh processes of an ESM consumer of the packed build. Each contender records its one
 * call against the loopback fake first; the cache files are then dated an hour back, as a
 * suite's committed fixtures are (a file written within the last second is re-read on every
 * replay, see src/store/parsedCache.ts), and the warm-up starts a second later (a descriptor is
 * held only on a file last changed more than a second ago). Every timed call is checked to reach no provider.
 *
 * Two more sets run in processes alternating with the headline's, under the same method, to
 * say where its ratio comes from:
 * - "floor": VcrCache's place is taken by an InMemoryCache hit preceded by one `fs.fstatSync`
 *   of a descriptor open on a fixture file — the one system call a replay that is never stale
 *   must make (another process can rewrite the file between any two replays), as a replay of a
 *   kept fixture makes it (src/store/heldFiles.ts; a `stat` of the path costs about twice as much);
 * - "two-way": InMemoryCache and VcrCache alone, without LocalFileCache, whose file reads
 *   leave the process waiting on the thread pool (and its CPU idle) between calls.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startFakeProvider } from "../helpers/fakeProvider";
import { consumer } from "./consumer";
import { CHAT_PROMPT, tmpDir } from "./env";
import { shuffledOrders, type Measured } from "./harness";

// The child embeds the shuffle's source, which must stand alone (no helper or outer name a transpiler could add).
(new Function(`return (${shuffledOrders.toString()})`)() as typeof shuffledOrders)(3)();

const CHILD = `
import * as fs from "node:fs";
import * as path from "node:path";
import { ChatOpenAI } from "@langchain/openai";
import { InMemoryCache } from "@langchain/core/caches";
import { LocalFileCache } from "@langchain/classic/cache/file_system";
import { Vcr } from "langchain-vcr";

const { FAKE_URL, VCR_DIR, FILE_DIR, WARMUP, ROUNDS, PROMPT, SET } = process.env;
const model = (cache) => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "bench-key-not-a-secret", maxRetries: 0, cache, configuration: { baseURL: FAKE_URL } });
/** An InMemoryCache hit after one fstatSync of a descriptor open on a fixture file. */
function statThenMemory() {
  const m = model(new InMemoryCache());
  let fd;
  return {
    invoke(input) {
      fd ??= fs.openSync(path.join(VCR_DIR, fs.readdirSync(VCR_DIR).find((f) => f.endsWith(".json"))), "r");
      fs.fstatSync(fd);
      return m.invoke(input);
    },
  };
}
const memory = ["InMemoryCache hit (LangChain floor)", model(new InMemoryCache())];
const vcr = ["VcrCache hit (langchain-vcr)", model(new Vcr({ dir: VCR_DIR, mode: "record_or_replay" }).cache)];
const file = ["LocalFileCache hit (@langchain/classic)", model(await LocalFileCache.create(FILE_DIR))];
const floor = ["InMemoryCache hit + one fs.fstatSync (the freshness floor)", statThenMemory()];
const contenders = SET === "two-way" ? [memory, vcr] : SET === "floor" ? [memory, floor, file] : [memory, vcr, file];
await vcr[1].invoke(PROMPT); // records: the floor's fstatSync needs a fixture file too
const answers = [];
for (const [, m] of contenders) answers.push((await m.invoke(PROMPT)).content);
const past = Date.now() / 1000 - 3600;
for (const dir of [VCR_DIR, FILE_DIR]) for (const f of fs.readdirSync(dir)) fs.utimesSync(path.join(dir, f), past, past);
await new Promise((r) => setTimeout(r, 1100)); // a committed fixture last changed (checked out) more than a second ago: held from its third replay
for (const [, m] of contenders) for (let i = 0; i < Number(WARMUP); i++) await m.invoke(PROMPT);
const samples = contenders.map(() => []);
/** For each sample, the contender whose call ran just before it (-1: none). */
const predecessors = contenders.map(() => []);
let previous = -1;
const nextOrder = (${shuffledOrders.toString()})(contenders.length, 0x5eed + Number(process.env.SEED));
for (let r = 0; r < Number(ROUNDS); r++) {
  const order = nextOrder();
  for (let k = 0; k < contenders.length; k++) {
    const idx = order[k];
    const t0 = process.hrtime.bigint();
    const a = await contenders[idx][1].invoke(PROMPT);
    samples[idx].push(Number(process.hrtime.bigint() - t0) / 1000);
    predecessors[idx].push(previous);
    previous = idx;
    if (a.content !== answers[idx]) throw new Error("bench: " + contenders[idx][0] + " replayed another answer");
  }
}
console.log(JSON.stringify(contenders.map(([name], i) => ({ name, samples: samples[i], predecessors: predecessors[i] }))));
`;

export const HOT_PATH_SETS = ["headline", "floor", "two-way"] as const;
export type HotPathSet = (typeof HOT_PATH_SETS)[number];
export type HotPathRuns = Record<HotPathSet, { runs: Measured[][]; pooled: Measured[] }>;
/** Provider requests one process makes: the VcrCache records in every set, LocalFileCache where it runs. */
const RECORDINGS: Record<HotPathSet, number> = { headline: 3, floor: 4, "two-way": 2 };

export async function benchHotPathEsm(opts: { processes: number; warmup: number; rounds: number }): Promise<HotPathRuns> {
  const c = consumer();
  const script = c.write("hot-path.mjs", CHILD);
  const fake = await startFakeProvider();
  const runs: Record<HotPathSet, Measured[][]> = { headline: [], floor: [], "two-way": [] };
  try {
    // the sets alternate process by process, so a change in the machine's load touches them alike
    for (let p = 0; p < opts.processes * HOT_PATH_SETS.length; p++) {
      const set = HOT_PATH_SETS[p % HOT_PATH_SETS.length];
      const before = fake.count();
      const env = {
        ...process.env,
        SET: set,
        SEED: String(p),
        FAKE_URL: fake.openaiBaseURL,
        VCR_DIR: tmpDir("esm-vcr"),
        FILE_DIR: tmpDir("esm-file"),
        WARMUP: String(opts.warmup),
        ROUNDS: String(opts.rounds),
        PROMPT: CHAT_PROMPT,
        LANGCHAIN_VCR_MODE: "",
        LANGCHAIN_VCR_QUIET: "1",
        CI: "",
      };
      const { stdout } = await promisify(execFile)(process.execPath, [script], { cwd: c.dir, env, timeout: 300000, maxBuffer: 64 << 20 });
      const made = fake.count() - before;
      if (made !== RECORDINGS[set]) throw new Error(`bench: the ESM hot path (${set}) made ${made} provider requests (${RECORDINGS[set]} recordings expected)`);
      runs[set].push(JSON.parse(stdout.trim().split("\n").pop()!) as Measured[]);
    }
  } finally {
    await fake.close();
  }
  const pool = (rs: Measured[][]) =>
    rs[0].map((r, i) => ({ name: r.name, samples: rs.flatMap((run) => run[i].samples), predecessors: rs.flatMap((run) => run[i].predecessors!) }));
  return {
    headline: { runs: runs.headline, pooled: pool(runs.headline) },
    floor: { runs: runs.floor, pooled: pool(runs.floor) },
    "two-way": { runs: runs["two-way"], pooled: pool(runs["two-way"]) },
  };
}
