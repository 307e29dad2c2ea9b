/**
 * Child process of the scale section: a fresh Node process (the library precompiled, as a
 * user's installed package is) that replays one recorded invoke from a fixture directory
 * and reports, as one JSON line: ms from process start to modules loaded and to the first
 * replay done, per-call replay time, and peak RSS. `replay_only` and a dead base URL: any
 * miss fails instead of reaching a network.
 *
 *   node scaleChild.js <fixture dir> <prompt> <calls>
 */
import * as fs from "node:fs";
import { performance } from "node:perf_hooks";
import { ChatOpenAI } from "@langchain/openai";
import { Vcr } from "../../src/index";

async function main(): Promise<void> {
  const [dir, prompt, callsArg] = process.argv.slice(2);
  const loadedMs = performance.now();
  const vcr = new Vcr({ dir, mode: "replay_only" });
  const model = new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: "bench-key-not-a-secret",
    maxRetries: 0,
    cache: vcr.cache,
    configuration: { baseURL: "http://127.0.0.1:9/v1" },
  });
  const t0 = performance.now();
  await model.invoke(prompt);
  const firstReplayMs = performance.now();
  const firstCallUs = (firstReplayMs - t0) * 1000;
  const calls = Number(callsArg);
  const samples: number[] = [];
  for (let i = 0; i < calls; i++) {
    const s = process.hrtime.bigint();
    await model.invoke(prompt);
    samples.push(Number(process.hrtime.bigint() - s) / 1000);
  }
  samples.sort((a, b) => a - b);
  const stats = vcr.stats();
  if (stats.replayed !== calls + 1) throw new Error(`child: replayed ${stats.replayed} of ${calls + 1}`);
  process.stdout.write(
    JSON.stringify({
      loadedMs,
      firstReplayMs,
      firstCallUs,
      medianUs: samples[Math.floor(samples.length / 2)],
      maxRssKiB: peakRssKiB(),
    }) + "\n",
  );
}

/**
 * This process's peak RSS. On Linux from /proc (VmHWM): `resourceUsage().maxRSS` keeps the
 * high-water mark across exec, so it reports the parent's RSS at the moment it forked the child.
 */
function peakRssKiB(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(fs.readFileSync("/proc/self/status", "utf8"));
    if (m) return Number(m[1]);
  } catch {
    // not Linux
  }
  return process.resourceUsage().maxRSS;
}

main().catch((e) => {
  process.stderr.write(String(e?.stack ?? e) + "\n");
  process.exit(1);
});
