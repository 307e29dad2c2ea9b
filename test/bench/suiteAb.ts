/**
 * A/B tool for the whole mocha suite, not part of `npm run bench`: the generated suite of
 * `suite.ts` (1,000 replayed tests over 50 files) in a consumer of this checkout's packed build
 * (A), and a copy of that consumer whose langchain-vcr `dist/` is another build (B). Every round
 * runs InMemoryCache pre-filled, VcrCache without the plugin (A), and VcrCache with the mocha
 * plugin from A and from B, in rotated order. Prints each contender's median wall time and, where
 * `/usr/bin/time` exists, its CPU time (user + system: steadier than wall time on a shared
 * machine), each also as the median of its per-round ratio to InMemoryCache (paired).
 *
 *   git stash && npm run build && cp -r dist /tmp/dist-before && git stash pop && npm run build
 *   node -r ts-node/register/transpile-only test/bench/suiteAb.ts /tmp/dist-before [rounds]
 *
 * The suite's spread between identical runs is ±10–15 % here: a difference of a few per cent
 * needs 100 rounds or more (about 7 minutes).
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { startFakeProvider } from "../helpers/fakeProvider";
import { log, removeTmpDirs, runTool } from "./env";
import { median, pairedRatio } from "./stats";
import { consumerWithDist, mochaSuiteArgs, recordSuite, SUITE_TESTS, suiteEnv, writeSuite } from "./suite";

const run = promisify(execFile);
const TIME = "/usr/bin/time";

interface Contender {
  name: string;
  dir: string;
  variant: "memory" | "vcr";
  plugin: boolean;
  wall: number[];
  cpu: number[];
}

async function runOnce(c: Contender, env: (variant: Contender["variant"], mode: string) => NodeJS.ProcessEnv): Promise<void> {
  const mocha = mochaSuiteArgs(c.dir, c.plugin);
  const timed = fs.existsSync(TIME);
  const cpuFile = path.join(c.dir, "cpu.txt");
  const [cmd, args] = timed ? [TIME, ["-f", "%U %S", "-o", cpuFile, process.execPath, ...mocha]] : [process.execPath, mocha];
  const t0 = process.hrtime.bigint();
  await run(cmd, args, { cwd: c.dir, env: env(c.variant, c.variant === "vcr" ? "replay_only" : "") });
  c.wall.push(Number(process.hrtime.bigint() - t0) / 1e6);
  if (timed)
    c.cpu.push(
      fs
        .readFileSync(cpuFile, "utf8")
        .trim()
        .split(/\s+/)
        .map(Number)
        .reduce((a, b) => a + b, 0) * 1000,
    );
}

async function main(): Promise<void> {
  const other = path.resolve(process.argv[2] ?? "");
  const rounds = Number(process.argv[3] ?? 40);
  if (!fs.existsSync(path.join(other, "cjs/mocha/index.js"))) throw new Error(`suiteAb: ${other} is not a langchain-vcr dist/ (no cjs/mocha/index.js)`);
  const suite = writeSuite();
  const fake = await startFakeProvider();
  const env = (variant: Contender["variant"], mode: string) => suiteEnv(fake, suite.fixtures, variant, mode);
  try {
    log("suiteAb: recording the suite's fixtures ...");
    await recordSuite(suite, fake);
    const b = await consumerWithDist(suite.dir, other);
    const contenders: Contender[] = [
      { name: "InMemoryCache pre-filled", dir: suite.dir, variant: "memory", plugin: false, wall: [], cpu: [] },
      { name: "VcrCache, no plugin (A)", dir: suite.dir, variant: "vcr", plugin: false, wall: [], cpu: [] },
      { name: "langchain-vcr + plugin, A (this checkout)", dir: suite.dir, variant: "vcr", plugin: true, wall: [], cpu: [] },
      { name: `langchain-vcr + plugin, B (${other})`, dir: b, variant: "vcr", plugin: true, wall: [], cpu: [] },
    ];
    for (let r = 0; r < rounds; r++) {
      log(`suiteAb: round ${r + 1}/${rounds}`);
      for (let k = 0; k < contenders.length; k++) await runOnce(contenders[(k + r) % contenders.length], env);
    }
    if (fake.count() !== SUITE_TESTS) throw new Error(`suiteAb: a replaying contender reached the provider (${fake.count() - SUITE_TESTS} requests)`);
    const base = contenders[0];
    for (const c of contenders) {
      const cpu = c.cpu.length ? `; CPU ${median(c.cpu).toFixed(0)} ms, paired ${pairedRatio(c.cpu, base.cpu).toFixed(3)}×` : "";
      process.stdout.write(
        `${c.name}: wall ${median(c.wall).toFixed(0)} ms, pooled ${(median(c.wall) / median(base.wall)).toFixed(3)}×, paired ${pairedRatio(c.wall, base.wall).toFixed(3)}×${cpu}\n`,
      );
    }
  } finally {
    await fake.close();
    removeTmpDirs();
  }
}

runTool(main);
