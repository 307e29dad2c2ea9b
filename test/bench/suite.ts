/**
 * Whole-suite wall time: a generated suite of 1,000 tests over 50 files (20 tests a file,
 * each one invoke of a real ChatOpenAI with its own question), run by mocha and by vitest
 * in a consumer of the packed build, three ways:
 * - langchain-vcr replaying (`replay_only`, with the runner's plugin, as documented);
 * - the same suite with an InMemoryCache per file, pre-filled in the file's before-all hook
 *   with the answers, under the keys LangChain computes (no plugin);
 * - the same suite making live calls to the loopback fake (no cache, no plugin);
 * - under mocha, the floor of reading each test's fixture: the InMemoryCache suite whose cache
 *   also reads, parses and hashes one fixture file per lookup (what any replay that reads each
 *   test's fixture once must do at the least: a first read needs no stat), no plugin.
 * The wall time is the runner process's, spawn to exit. Runs interleave: every round runs
 * each runner's variants in rotated order. Fixtures are recorded once first (and dated
 * an hour back, as committed fixtures are); replay and pre-filled runs are checked to reach
 * no provider, live runs to make exactly 1,000 requests.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { promisify } from "node:util";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { consumer } from "./consumer";
import { datedBack, log, tmpDir } from "./env";
import type { Measured } from "./harness";
import { isVcrEnv } from "../../src/internalEnv";

export const SUITE_FILES = 50;
export const SUITE_TESTS = 1000;
const PER_FILE = SUITE_TESTS / SUITE_FILES;
export type Variant = "vcr" | "memory" | "floor" | "live";
export const VARIANT_NAMES: Record<Variant, string> = {
  vcr: "langchain-vcr replaying (VcrCache + plugin)",
  memory: "InMemoryCache pre-filled",
  floor: "the floor: InMemoryCache pre-filled + a fixture file read, JSON.parse and SHA-256 per test",
  live: "live calls to the loopback fake",
};

function common(esm: boolean): string {
  const imports = esm
    ? [
        `import { ChatOpenAI } from "@langchain/openai";`,
        `import { InMemoryCache } from "@langchain/core/caches";`,
        `import { BaseChatModel } from "@langchain/core/language_models/chat_models";`,
        `import { AIMessage, HumanMessage } from "@langchain/core/messages";`,
        `import { Vcr } from "langchain-vcr";`,
        `import * as fs from "node:fs";`,
        `import * as path from "node:path";`,
        `import { createHash } from "node:crypto";`,
      ]
    : [
        `const { ChatOpenAI } = require("@langchain/openai");`,
        `const { InMemoryCache } = require("@langchain/core/caches");`,
        `const { BaseChatModel } = require("@langchain/core/language_models/chat_models");`,
        `const { AIMessage, HumanMessage } = require("@langchain/core/messages");`,
        `const { Vcr } = require("langchain-vcr");`,
        `const fs = require("node:fs");`,
        `const path = require("node:path");`,
        `const { createHash } = require("node:crypto");`,
      ];
  const body = `
const VARIANT = process.env.SUITE_VARIANT;
const newModel = (cache) => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "bench-key-not-a-secret", maxRetries: 0, cache, configuration: { baseURL: process.env.FAKE_URL } });
/** The floor variant's cache: each lookup also reads one fixture file (each test its own), as a replay must at the least. */
let fixtureFiles, nextFixture = 0;
class ReadingCache extends InMemoryCache {
  async lookup(prompt, llmKey) {
    fixtureFiles ??= fs.readdirSync(process.env.SUITE_FIXTURES).sort().map((f) => path.join(process.env.SUITE_FIXTURES, f));
    const file = fixtureFiles[nextFixture++ % fixtureFiles.length];
    const fixture = JSON.parse(fs.readFileSync(file, "utf8"));
    createHash("sha256").update(JSON.stringify(fixture.request)).digest("hex");
    return super.lookup(prompt, llmKey);
  }
}
function suiteModel() {
  if (VARIANT === "vcr") return newModel(new Vcr({ dir: process.env.SUITE_FIXTURES }).cache);
  if (VARIANT === "floor") return newModel(new ReadingCache());
  return newModel(VARIANT === "memory" ? new InMemoryCache() : undefined);
}
/** The memory variant's before-all hook: the fake's answers, under the keys LangChain's cache lookup uses. */
async function prefill(model, questions) {
  if (VARIANT !== "memory" && VARIANT !== "floor") return;
  const llmKey = model._getSerializedCacheKeyParametersForCall({});
  for (const q of questions) {
    const prompt = BaseChatModel._convertInputToPromptValue([new HumanMessage(q)]).toString();
    await model.cache.update(prompt, llmKey, [{ text: "echo: " + q, message: new AIMessage("echo: " + q) }]);
  }
}
function check(q, answer) {
  if (answer.content !== "echo: " + q) throw new Error("unexpected answer " + answer.content);
}
`;
  return [...imports, body, esm ? "export { suiteModel, prefill, check };" : "module.exports = { suiteModel, prefill, check };", ""].join("\n");
}

function specFile(k: number, esm: boolean): string {
  return [
    esm ? `import { beforeAll as before, describe, it } from "vitest";` : "",
    esm ? `import { suiteModel, prefill, check } from "../common.mjs";` : `const { suiteModel, prefill, check } = require("../common.cjs");`,
    `describe("file ${k}", () => {`,
    `  const model = suiteModel();`,
    `  const questions = Array.from({ length: ${PER_FILE} }, (_, i) => "question ${k}-" + i);`,
    `  before(() => prefill(model, questions));`,
    `  for (const q of questions) it(q, async () => check(q, await model.invoke(q)));`,
    `});`,
    ``,
  ].join("\n");
}

interface Runner {
  name: "mocha" | "vitest";
  /** The contenders timed under this runner (the floor under mocha only: vitest's per-file re-imports drown it). */
  variants: readonly Variant[];
  args(variant: Variant): string[];
}

/** The mocha command line (after `node`) that runs the suite in the consumer `dir`, with the mocha plugin of `dir`'s langchain-vcr when `plugin`. */
export function mochaSuiteArgs(dir: string, plugin: boolean): string[] {
  const nm = path.join(dir, "node_modules");
  const args = [path.join(nm, "mocha/bin/mocha.js"), "--no-config"];
  if (plugin) args.push("--require", path.join(nm, "langchain-vcr/dist/cjs/mocha/index.js"));
  return [...args, "suite/mocha/*.test.cjs"];
}

export function writeSuite(): { dir: string; fixtures: string; runners: Runner[] } {
  const c = consumer();
  c.write("suite/common.cjs", common(false));
  c.write("suite/common.mjs", common(true));
  for (let k = 0; k < SUITE_FILES; k++) {
    c.write(`suite/mocha/f${k}.test.cjs`, specFile(k, false));
    c.write(`suite/vitest/f${k}.test.mjs`, specFile(k, true));
  }
  const config = (plugin: boolean) =>
    [
      plugin ? `import langchainVcr from "langchain-vcr/vitest";` : "",
      `export default { ${plugin ? "plugins: [langchainVcr()], " : ""}test: { include: ["suite/vitest/*.test.mjs"], testTimeout: 20000 } };`,
      "",
    ].join("\n");
  c.write("vitest.vcr.config.mjs", config(true));
  c.write("vitest.plain.config.mjs", config(false));
  const nm = path.join(c.dir, "node_modules");
  const vitestBin = path.join(nm, "vitest/vitest.mjs");
  return {
    dir: c.dir,
    fixtures: path.join(c.dir, "suite-fixtures"),
    runners: [
      // mocha resolves --require from its own (linked) directory: the plugin is named by path, the consumer's copy
      {
        name: "mocha",
        variants: ["vcr", "memory", "floor", "live"],
        args: (v) => mochaSuiteArgs(c.dir, v === "vcr"),
      },
      {
        name: "vitest",
        variants: ["vcr", "memory", "live"],
        args: (v) => [vitestBin, "run", "--config", v === "vcr" ? "vitest.vcr.config.mjs" : "vitest.plain.config.mjs"],
      },
    ],
  };
}

/**
 * The environment a suite process runs in: this one's, without any langchain-vcr, mocha or
 * vitest setting of its own, plus the variant, its fixtures, the fake and the mode.
 */
export function suiteEnv(fake: FakeProvider, fixtures: string, variant: Variant, mode: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(env)) if (isVcrEnv(k) || k.startsWith("MOCHA_") || k.startsWith("VITEST")) delete env[k];
  return {
    ...env,
    SUITE_VARIANT: variant,
    SUITE_FIXTURES: fixtures,
    FAKE_URL: fake.openaiBaseURL,
    LANGCHAIN_VCR_MODE: mode,
    LANGCHAIN_VCR_QUIET: "1",
    CI: "",
    NO_COLOR: "1",
  };
}

/** Records the suite's fixtures once (mocha and the plugin, against the fake), checks there is one per test, and dates them back. */
export async function recordSuite(suite: { dir: string; fixtures: string }, fake: FakeProvider): Promise<void> {
  await runSuite(suite.dir, mochaSuiteArgs(suite.dir, true), suiteEnv(fake, suite.fixtures, "vcr", "record_or_replay"));
  const files = fs.readdirSync(suite.fixtures).filter((f) => f.endsWith(".json"));
  if (files.length !== SUITE_TESTS || fake.count() !== SUITE_TESTS)
    throw new Error(`bench: the suite recorded ${files.length} fixtures with ${fake.count()} requests`);
  datedBack(suite.fixtures, files);
}

/** A copy of the suite's consumer `dir` whose langchain-vcr `dist/` is `dist` (another build, for the A/B tools). */
export async function consumerWithDist(dir: string, dist: string): Promise<string> {
  const copy = path.join(tmpDir("suite-ab"), "b");
  await promisify(execFile)("cp", ["-a", dir, copy]);
  fs.rmSync(path.join(copy, "node_modules/langchain-vcr/dist"), { recursive: true, force: true });
  fs.cpSync(dist, path.join(copy, "node_modules/langchain-vcr/dist"), { recursive: true });
  return copy;
}

async function runSuite(dir: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const t0 = process.hrtime.bigint();
  try {
    await promisify(execFile)(process.execPath, args, { cwd: dir, env, timeout: 600000, maxBuffer: 64 << 20 });
  } catch (e) {
    const err = e as { stdout?: string; stderr?: string; message: string };
    throw new Error(`bench: the suite failed (${args.slice(1).join(" ")}): ${err.message}\n${err.stdout?.slice(-2000)}\n${err.stderr?.slice(-2000)}`);
  }
  return Number(process.hrtime.bigint() - t0) / 1000;
}

export interface SuiteResult {
  runner: string;
  rows: Measured[];
}

/** `BENCH_SUITE_RUNNERS=mocha` (or `vitest`) times only those runners' suites, to iterate on one (default: both). */
export const RUNNERS_ENV = "BENCH_SUITE_RUNNERS";

/** `rounds` per runner; mocha's suite takes under a second, so it can afford more (`mochaRounds`, default `rounds`). */
export async function benchSuite(opts: { rounds: number; mochaRounds?: number }): Promise<SuiteResult[]> {
  const suite = writeSuite();
  const only = (process.env[RUNNERS_ENV] ?? "").split(",").filter(Boolean);
  const unknown = only.filter((n) => !suite.runners.some((r) => r.name === n));
  if (unknown.length) throw new Error(`bench: ${RUNNERS_ENV}=${process.env[RUNNERS_ENV]} names no runner ${unknown.join(", ")} (valid: mocha, vitest)`);
  const timed = only.length ? suite.runners.filter((r) => only.includes(r.name)) : suite.runners;
  const fake = await startFakeProvider();
  try {
    const base = (variant: Variant, mode: string) => suiteEnv(fake, suite.fixtures, variant, mode);
    log(`bench: suite: recording ${SUITE_TESTS} fixtures ...`);
    await recordSuite(suite, fake);
    const results: SuiteResult[] = timed.map((r) => ({
      runner: r.name,
      rows: r.variants.map((v) => ({ name: VARIANT_NAMES[v], samples: [] as number[] })),
    }));
    const roundsOf = (runner: Runner) => (runner.name === "mocha" ? (opts.mochaRounds ?? opts.rounds) : opts.rounds);
    for (let round = 0; round < Math.max(...timed.map(roundsOf)); round++) {
      for (const [ri, runner] of timed.entries()) {
        if (round >= roundsOf(runner)) continue;
        for (let k = 0; k < runner.variants.length; k++) {
          const vi = (k + round) % runner.variants.length;
          const variant = runner.variants[vi];
          log(`bench: suite: ${runner.name}, ${variant} (round ${round + 1}/${roundsOf(runner)}) ...`);
          const before = fake.count();
          const us = await runSuite(suite.dir, runner.args(variant), base(variant, variant === "vcr" ? "replay_only" : ""));
          expectCount(fake, before, variant === "live" ? SUITE_TESTS : 0, `${runner.name} ${variant}`);
          results[ri].rows[vi].samples.push(us);
        }
      }
    }
    return results;
  } finally {
    await fake.close();
  }
}

function expectCount(fake: FakeProvider, before: number, expected: number, what: string): void {
  const made = fake.count() - before;
  if (made !== expected) throw new Error(`bench: the ${what} suite made ${made} provider requests (expected ${expected})`);
}
