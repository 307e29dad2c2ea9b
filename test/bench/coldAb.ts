/**
 * Diagnostic tool, not part of `npm run bench`: the whole mocha suite's per-test cost without
 * mocha and without the suite's noise. Each sample is a fresh process (a consumer of the packed
 * build, CommonJS) that builds the suite's 50 models exactly as `suite.ts`'s files do (its
 * `common.cjs`: InMemoryCache pre-filled, the floor's file-reading cache, VcrCache), then times
 * the 1,000 invokes of the suite's questions, one after another: each is the first replay of its
 * request in that process, as in the suite (the code warms up over the 1,000). Contenders alternate, one process
 * each per round, in rotated order; with a second dist (B), VcrCache runs from both builds.
 * Prints each contender's median time for the 1,000 invokes (wall and CPU of the timed part)
 * and its ratio to InMemoryCache, pooled and paired.
 *
 *   node -r ts-node/register/transpile-only test/bench/coldAb.ts [rounds] [other dist/]
 *
 * Measured in the ninth session (2-core machine, 21 rounds): InMemoryCache 78 ms, the floor
 * 122 ms, VcrCache 134 ms; a first replay costs 10–25 µs above reading, parsing and hashing
 * one file, depending on the run (BENCHMARKS.md, "Ninth session").
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { startFakeProvider } from "../helpers/fakeProvider";
import { log, removeTmpDirs, runTool } from "./env";
import { median, pairedRatio } from "./stats";
import { consumerWithDist, recordSuite, SUITE_FILES, SUITE_TESTS, suiteEnv, writeSuite } from "./suite";

const run = promisify(execFile);

/** The timed part, in the consumer: prints `<wall ms> <cpu ms>` for the suite's invokes under SUITE_VARIANT. */
const COLD_SCRIPT = `
const { suiteModel, prefill, check } = require("./suite/common.cjs");
(async () => {
  const models = [];
  const questions = [];
  for (let k = 0; k < ${SUITE_FILES}; k++) {
    const model = suiteModel();
    const qs = Array.from({ length: ${SUITE_TESTS / SUITE_FILES} }, (_, i) => "question " + k + "-" + i);
    await prefill(model, qs);
    models.push(model);
    questions.push(qs);
  }
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (let k = 0; k < models.length; k++) for (const q of questions[k]) check(q, await models[k].invoke(q));
  const c = process.cpuUsage(c0);
  process.stdout.write(Number(process.hrtime.bigint() - t0) / 1e6 + " " + (c.user + c.system) / 1000 + "\\n");
})().catch((e) => { console.error(e); process.exit(1); });
`;

interface Contender {
  name: string;
  dir: string;
  variant: "memory" | "floor" | "vcr";
  wall: number[];
  cpu: number[];
}

async function main(): Promise<void> {
  const rounds = Number(process.argv[2] ?? 9);
  const other = process.argv[3] ? path.resolve(process.argv[3]) : undefined;
  if (other && !fs.existsSync(path.join(other, "cjs/index.js"))) throw new Error(`coldAb: ${other} is not a langchain-vcr dist/ (no cjs/index.js)`);
  const suite = writeSuite();
  const fake = await startFakeProvider();
  try {
    log("coldAb: recording the suite's fixtures ...");
    await recordSuite(suite, fake);
    fs.writeFileSync(path.join(suite.dir, "cold.cjs"), COLD_SCRIPT);
    const contenders: Contender[] = [
      { name: "InMemoryCache pre-filled", dir: suite.dir, variant: "memory", wall: [], cpu: [] },
      { name: "the floor (a file read, parsed and hashed per test)", dir: suite.dir, variant: "floor", wall: [], cpu: [] },
      { name: "VcrCache (this checkout)", dir: suite.dir, variant: "vcr", wall: [], cpu: [] },
    ];
    if (other) contenders.push({ name: `VcrCache (${other})`, dir: await consumerWithDist(suite.dir, other), variant: "vcr", wall: [], cpu: [] });
    for (let r = 0; r < rounds; r++) {
      log(`coldAb: round ${r + 1}/${rounds}`);
      for (let k = 0; k < contenders.length; k++) {
        const c = contenders[(k + r) % contenders.length];
        const mode = c.variant === "vcr" ? "replay_only" : "";
        const { stdout } = await run(process.execPath, ["cold.cjs"], { cwd: c.dir, env: suiteEnv(fake, suite.fixtures, c.variant, mode) });
        const [wall, cpu] = stdout.trim().split(" ").map(Number);
        c.wall.push(wall);
        c.cpu.push(cpu);
      }
    }
    if (fake.count() !== SUITE_TESTS) throw new Error(`coldAb: a contender reached the provider (${fake.count() - SUITE_TESTS} requests)`);
    const base = contenders[0];
    process.stdout.write(
      `${SUITE_TESTS} first replays in one process, ${rounds} rounds (one fresh process per contender per round, rotated order), CommonJS consumer of the packed build:\n`,
    );
    for (const c of contenders) {
      process.stdout.write(
        `${c.name}: wall ${median(c.wall).toFixed(1)} ms (${(median(c.wall) / median(base.wall)).toFixed(2)}× pooled, ${pairedRatio(c.wall, base.wall).toFixed(2)}× paired); ` +
          `CPU ${median(c.cpu).toFixed(1)} ms (${pairedRatio(c.cpu, base.cpu).toFixed(2)}× paired)\n`,
      );
    }
  } finally {
    await fake.close();
    removeTmpDirs();
  }
}

runTool(main);
