/**
 * Soak: many replays in one process (chat through ChatOpenAI, embeddings, tools) keep memory
 * and open file descriptors flat. The child (scripts/soak.ts, run with --expose-gc) measures
 * heapUsed after a full GC and counts /proc/self/fd at ten checkpoints. The default run does
 * 10,000 replays; VCR_SOAK=1 runs the full 100,000 (about a minute).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import { descriptorsCheck } from "../../src/store/heldFiles";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";
import { ok, runScript } from "./scripts/compiled";

const FULL = process.env.VCR_SOAK === "1" || process.env.VCR_SOAK === "true";
const REPLAYS = FULL ? 100_000 : 10_000;
const MB = 1024 * 1024;

interface Checkpoint {
  replays: number;
  heapUsed: number;
  rss: number;
  fds: number;
  fixtureFds: number;
}

describe(`reliability: soak (${REPLAYS.toLocaleString("en-US")} replays in one process)`, function () {
  this.timeout(FULL ? 600000 : 60000);
  afterEach(removeTmpDirs);

  it("memory and open file descriptors stay flat", async function () {
    if (!fs.existsSync("/proc/self/fd")) this.skip(); // counting descriptors needs Linux's /proc
    const dir = tmpDir("vcr-rel-soak-");
    const out = ok(await runScript("soak.ts", { FIXTURE_DIR: dir, SOAK_REPLAYS: String(REPLAYS) }, ["--expose-gc"], FULL ? 590000 : 55000));
    const r = JSON.parse(out.stdout) as {
      total: number;
      ms: number;
      recordedCalls: number;
      bodyRuns: number;
      stats: Record<string, number>;
      checkpoints: Checkpoint[];
    };
    if (FULL || process.env.VCR_SOAK_REPORT) {
      const row = (c: Checkpoint) =>
        `${String(c.replays).padStart(7)}  heap ${(c.heapUsed / MB).toFixed(2)} MB  rss ${(c.rss / MB).toFixed(1)} MB  fds ${c.fds} (${c.fixtureFds} on fixtures)`;
      process.stdout.write(
        `      ${r.total} replays in ${r.ms} ms (${((r.ms * 1000) / r.total).toFixed(1)} µs each)\n` +
          r.checkpoints.map((c) => "      " + row(c)).join("\n") +
          "\n",
      );
    }

    // every call replayed: 8 chat + 4 embedding fixtures recorded once over HTTP, 1 tool body run
    expect(r.recordedCalls).to.equal(12);
    expect(r.bodyRuns).to.equal(1);
    expect(r.stats).to.deep.equal({ replayed: REPLAYS, recorded: 13, bypassed: 0, missed: 0 });

    // flat after warm-up (the first tenth): file descriptors identical, heap within tolerance
    const [, warm, ...rest] = r.checkpoints;
    expect(rest).to.have.length(9);
    for (const c of rest) expect(c.fds, `open fds at ${c.replays}`).to.equal(warm.fds);
    // held open on kept fixtures (src/store/heldFiles.ts): at most one per fixture file, never one per replay
    for (const c of r.checkpoints) expect(c.fixtureFds, `fds open on fixtures at ${c.replays}`).to.be.at.most(13);
    // the loop replays 12 of the 13 (8 chat, 3 of the 4 embedding texts, the tool), each held from its third replay
    if (descriptorsCheck(dir)) expect(warm.fixtureFds, "every fixture the loop replays is held").to.equal(12);
    const last = rest[rest.length - 1];
    expect(last.heapUsed - warm.heapUsed, "heap growth after warm-up (bytes)").to.be.below(20 * MB);
    const peak = Math.max(...rest.map((c) => c.heapUsed));
    expect(peak - warm.heapUsed, "peak heap growth after warm-up (bytes)").to.be.below(20 * MB);
  });
});
