/**
 * Section 5 — scale: the same recorded invoke replayed from directories holding 10, 1,000,
 * 10,000 and 100,000 fixtures. Per-call replay cost (in this process, interleaved), start-up
 * to first replay and peak RSS (fresh child processes, interleaved across sizes), and the
 * cost of recording one new chat fixture (which, in record_or_replay, also looks for a
 * near-miss to report) and of a replay_only miss (which looks for the nearest fixture).
 */
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { Vcr, withVcr } from "../../src/index";
import type { Fixture } from "../../src/store/fixture";
import { runChild } from "../helpers/child";
import { startFakeProvider } from "../helpers/fakeProvider";
import { CHAT_PROMPT, chatModel, expectRequests, log, tmpDir } from "./env";
import { linkFiles, writeFillers } from "./fillers";
import { compare, type Measured } from "./harness";
import { median } from "./stats";
import { transpileForChild } from "./transpile";

export interface ChildRow {
  fixtures: number;
  loadedMs: number[];
  firstReplayMs: number[];
  firstCallUs: number[];
  medianUs: number[];
  maxRssKiB: number[];
}

export interface ScaleResult {
  sizes: number[];
  perCall: Measured[];
  children: ChildRow[];
  recordOne: Measured[];
  missOne: Measured[];
  fillerSeconds: number;
}

export async function benchScale(opts: {
  sizes: number[];
  rounds: number;
  warmup: number;
  childRuns: number;
  childCalls: number;
  slowRounds: number;
}): Promise<ScaleResult> {
  const fake = await startFakeProvider();
  try {
    const sizes = [...opts.sizes].sort((a, b) => a - b);
    const largest = sizes[sizes.length - 1];
    const dirs = new Map(sizes.map((n) => [n, tmpDir(`scale-${n}`)]));
    const big = dirs.get(largest)!;

    // The one recorded fixture every directory holds, then the fillers around it.
    await chatModel(fake, new Vcr({ dir: big, mode: "record_or_replay" }).cache).invoke(CHAT_PROMPT);
    const [target] = fs.readdirSync(big);
    const template = JSON.parse(fs.readFileSync(path.join(big, target), "utf8")) as Fixture;
    const t0 = process.hrtime.bigint();
    const fillers = writeFillers(big, template, largest - 1);
    for (const n of sizes) if (n !== largest) linkFiles(big, dirs.get(n)!, [target, ...fillers.slice(0, n - 1)]);
    const fillerSeconds = Number(process.hrtime.bigint() - t0) / 1e9;
    for (const n of sizes) {
      const count = fs.readdirSync(dirs.get(n)!).length;
      if (count !== n) throw new Error(`bench: directory for ${n} fixtures holds ${count}`);
    }
    log(`  scale: ${largest} filler fixtures written in ${fillerSeconds.toFixed(1)} s`);
    flushToDisk(); // else the kernel writes ~150 MB of them back during the timed runs below
    const requests = fake.count();

    // Per-call replay cost, interleaved across directory sizes.
    const models = sizes.map((n) => chatModel(fake, new Vcr({ dir: dirs.get(n)!, mode: "replay_only" }).cache));
    const perCall = await compare(
      sizes.map((n, i) => ({ name: `${n.toLocaleString("en-US")} fixtures`, run: () => models[i].invoke(CHAT_PROMPT), batch: 20 })),
      opts,
    );
    expectRequests(fake, requests, "scale replays");

    // Fresh processes: start-up to first replay, per-call cost, peak RSS.
    const child = transpileForChild(tmpDir("child-js"));
    const nodePath = path.resolve(__dirname, "../../node_modules");
    const rows: ChildRow[] = sizes.map((n) => ({ fixtures: n, loadedMs: [], firstReplayMs: [], firstCallUs: [], medianUs: [], maxRssKiB: [] }));
    for (let r = 0; r < opts.childRuns; r++) {
      for (let k = 0; k < sizes.length; k++) {
        const row = rows[(k + r) % sizes.length];
        const res = await runChild(process.execPath, [child, dirs.get(row.fixtures)!, CHAT_PROMPT, String(opts.childCalls)], {
          cwd: path.dirname(child),
          env: { ...process.env, NODE_PATH: nodePath, LANGCHAIN_VCR_MODE: "" },
          timeoutMs: 120_000,
        });
        if (res.status !== 0) throw new Error(`bench: scale child failed (${res.status}): ${res.stderr}`);
        const out = JSON.parse(res.stdout.trim().split("\n").pop()!) as Record<string, number>;
        row.loadedMs.push(out.loadedMs);
        row.firstReplayMs.push(out.firstReplayMs);
        row.firstCallUs.push(out.firstCallUs);
        row.medianUs.push(out.medianUs);
        row.maxRssKiB.push(out.maxRssKiB);
      }
    }

    // Recording one new chat fixture (live call + write + near-miss scan) and a replay_only miss.
    let seq = 0;
    // maxRetries 2: the directory scan blocks the event loop for seconds at 100,000 fixtures,
    // long enough for the fake's keep-alive timeout (5 s) to close the pooled socket under
    // the client, whose next request then fails once with "Connection error".
    const recorders = sizes.map((n) => chatModel(fake, new Vcr({ dir: dirs.get(n)!, mode: "record_or_replay" }).cache, { maxRetries: 2 }));
    const quiet = process.env.LANGCHAIN_VCR_QUIET;
    delete process.env.LANGCHAIN_VCR_QUIET;
    const known = new Set([target, ...fillers]);
    const recordOne = await compare(
      sizes.map((n, i) => ({
        name: `${n.toLocaleString("en-US")} fixtures`,
        run: () => recorders[i].invoke(`${CHAT_PROMPT} (recording ${++seq})`),
        // Untimed: exactly one fixture was added; remove it to keep the directory at n.
        after: () => {
          const dir = dirs.get(n)!;
          const added = fs.readdirSync(dir).filter((f) => !known.has(f));
          if (added.length !== 1) throw new Error(`bench: recording added ${added.length} files`);
          fs.rmSync(path.join(dir, added[0]));
        },
      })),
      { rounds: opts.slowRounds, warmup: 1 },
    );
    if (quiet !== undefined) process.env.LANGCHAIN_VCR_QUIET = quiet;
    const missOne = await compare(
      sizes.map((n, i) => ({
        name: `${n.toLocaleString("en-US")} fixtures`,
        run: () =>
          withVcr({ mode: "replay_only" }, () => recorders[i].invoke(`${CHAT_PROMPT} (never recorded)`)).then(
            () => {
              throw new Error("bench: a never-recorded request replayed");
            },
            (e: unknown) => {
              if ((e as { code?: string }).code !== "VCR_MISS") throw e;
            },
          ),
      })),
      { rounds: opts.slowRounds, warmup: 1 },
    );
    return { sizes, perCall, children: rows, recordOne, missOne, fillerSeconds };
  } finally {
    await fake.close();
  }
}

/** `sync`: writes dirty pages to disk now (where the command exists), not in the middle of a measurement. */
function flushToDisk(): void {
  const t0 = Date.now();
  const res = spawnSync("sync", [], { stdio: "ignore", timeout: 120_000 });
  if (!res.error) log(`  scale: sync took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/**
 * Start-up to first replay of `row` against `base`, paired: the runs of one round are
 * seconds apart, so each round's ratio cancels the load the machine had then; the median
 * of those ratios.
 */
export function pairedStartupRatio(row: ChildRow, base: ChildRow): number {
  return median(row.firstReplayMs.map((t, i) => t / base.firstReplayMs[i]));
}

export function childSummary(row: ChildRow): {
  loadedMs: number;
  firstReplayMs: number;
  ownMs: number;
  firstCallUs: number;
  medianUs: number;
  maxRssKiB: number;
} {
  return {
    loadedMs: median(row.loadedMs),
    firstReplayMs: median(row.firstReplayMs),
    // per run, then the median: the part after LangChain and langchain-vcr are loaded
    ownMs: median(row.firstReplayMs.map((t, i) => t - row.loadedMs[i])),
    firstCallUs: median(row.firstCallUs),
    medianUs: median(row.medianUs),
    maxRssKiB: median(row.maxRssKiB),
  };
}
