/**
 * Section 7: the per-test cost of each runner adapter. A suite of 1,000 tests, each one
 * replayed ChatOpenAI invoke, runs in the real runner (a child process, the built package,
 * as users install it) with the adapter and without it, interleaved round by round. Timed
 * inside the test process, from the first test's start to the last test's end, so process
 * start-up (which varies by ±15 % on a shared machine) is not in the comparison; the whole
 * process's wall time is reported beside it. A third variant adds a do-nothing plugin with the
 * same hooks (empty): the runner's own price for any per-test hook.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { ROOT } from "../helpers/built";
import { startFakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs } from "../helpers/tmp";
import { makeProject, type Project } from "../runners/helpers/project";
import { median } from "./stats";

export const SUITE_TESTS = 1000;

/** One test file of SUITE_TESTS replayed tests; `hooks` names the runner's import and after-all hook. */
function suiteFile(head: string, after: string, it: string, esm: boolean): string {
  const imports = esm
    ? [`import * as fs from "node:fs";`, `import { Vcr } from "langchain-vcr";`, `import { ChatOpenAI } from "@langchain/openai";`]
    : [`const fs = require("node:fs");`, `const { Vcr } = require("langchain-vcr");`, `const { ChatOpenAI } = require("@langchain/openai");`];
  return [
    head,
    ...imports,
    `const vcr = new Vcr({ dir: "cassettes" });`,
    `const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: process.env.FAKE_URL } });`,
    `let start, end;`,
    `for (let i = 0; i < ${SUITE_TESTS}; i++) {`,
    `  ${it}("replays " + i, async () => { start ??= performance.now(); await model.invoke("one recorded question"); end = performance.now(); });`,
    `}`,
    `${after}(() => fs.writeFileSync(process.env.BENCH_OUT, String(end - start)));`,
    ``,
  ].join("\n");
}

interface RunnerBench {
  name: string;
  files: Record<string, string>;
  mocha?: boolean;
  with: string[];
  without: string[];
  /** the same runner with a do-nothing plugin of the same shape (the hooks langchain-vcr adds, empty): what any such plugin costs */
  empty: string[];
}

const RUNNERS: RunnerBench[] = [
  {
    name: "mocha",
    mocha: true,
    files: {
      "test/suite.spec.cjs": suiteFile("", "after", "it", false),
      ".mocharc.json": JSON.stringify({ spec: ["test/suite.spec.cjs"] }),
      "empty-hooks.cjs": `exports.mochaHooks = { beforeEach() {}, afterEach() {} };\n`,
    },
    with: ["node_modules/mocha/bin/mocha.js", "--require", "langchain-vcr/mocha", "--reporter", "dot"],
    without: ["node_modules/mocha/bin/mocha.js", "--reporter", "dot"],
    empty: ["node_modules/mocha/bin/mocha.js", "--require", "./empty-hooks.cjs", "--reporter", "dot"],
  },
  {
    name: "vitest",
    files: {
      "test/suite.test.mjs": suiteFile(`import { afterAll, test } from "vitest";`, "afterAll", "test", true),
      "with.config.mjs": `import langchainVcr from "langchain-vcr/vitest";\nexport default { plugins: [langchainVcr()], test: { include: ["test/*.test.mjs"], reporters: ["dot"] } };\n`,
      "without.config.mjs": `export default { test: { include: ["test/*.test.mjs"], reporters: ["dot"] } };\n`,
      "empty.config.mjs": `export default { test: { include: ["test/*.test.mjs"], reporters: ["dot"], setupFiles: ["./empty-setup.mjs"] } };\n`,
      "empty-setup.mjs": `import { beforeEach } from "vitest";\nbeforeEach((ctx) => { ctx.onTestFinished(() => {}); });\n`,
    },
    with: [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", "with.config.mjs"],
    without: [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", "without.config.mjs"],
    empty: [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "--config", "empty.config.mjs"],
  },
  {
    name: "jest",
    files: {
      "package.json": "{}\n", // jest looks for --config files relative to a package root
      "test/suite.test.cjs": suiteFile("", "afterAll", "test", false),
      "with.config.cjs": `module.exports = { testEnvironment: "node", transform: {}, testMatch: ["**/test/*.test.cjs"], setupFilesAfterEnv: ["langchain-vcr/jest"], reporters: ["summary", "langchain-vcr/jest/reporter"] };\n`,
      "without.config.cjs": `module.exports = { testEnvironment: "node", transform: {}, testMatch: ["**/test/*.test.cjs"], reporters: ["summary"] };\n`,
      "empty.config.cjs": `module.exports = { testEnvironment: "node", transform: {}, testMatch: ["**/test/*.test.cjs"], setupFilesAfterEnv: ["./empty-setup.cjs"], reporters: ["summary"] };\n`,
      "empty-setup.cjs": `beforeEach(() => {});\nafterEach(() => {});\n`,
    },
    with: [path.join(ROOT, "node_modules/jest/bin/jest.js"), "--ci", "--config=./with.config.cjs"],
    without: [path.join(ROOT, "node_modules/jest/bin/jest.js"), "--ci", "--config=./without.config.cjs"],
    empty: [path.join(ROOT, "node_modules/jest/bin/jest.js"), "--ci", "--config=./empty.config.cjs"],
  },
  {
    name: "node:test",
    files: {
      "test/suite.test.mjs": suiteFile(`import { after, test } from "node:test";`, "after", "test", true),
      "empty-hooks.cjs": `if (process.env.NODE_TEST_CONTEXT) require("node:test").afterEach(() => {});\n`,
    },
    with: ["--require", "langchain-vcr/node-test", "--test", "--test-reporter=dot"],
    without: ["--test", "--test-reporter=dot"],
    empty: ["--require", "./empty-hooks.cjs", "--test", "--test-reporter=dot"],
  },
];

export interface RunnerRow {
  runner: string;
  withMs: number[];
  withoutMs: number[];
  emptyMs: number[];
  wallWithMs: number[];
  wallWithoutMs: number[];
}

async function timed(p: Project, args: string[], env: NodeJS.ProcessEnv): Promise<{ suiteMs: number; wallMs: number }> {
  const out = path.join(p.dir, "bench-out.txt");
  fs.rmSync(out, { force: true });
  const t0 = performance.now();
  const r = await p.run(args, { ...env, BENCH_OUT: out });
  const wallMs = performance.now() - t0;
  if (r.status !== 0 || !fs.existsSync(out)) throw new Error(`bench: ${args.join(" ")} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return { suiteMs: Number(fs.readFileSync(out, "utf8")), wallMs };
}

export async function benchRunners(options: { rounds: number; only?: (name: string) => boolean }): Promise<RunnerRow[]> {
  const fake = await startFakeProvider();
  const rows: RunnerRow[] = [];
  try {
    for (const r of RUNNERS.filter((x) => options.only?.(x.name) ?? true)) {
      const p = makeProject(r.files, { mocha: r.mocha });
      // record the one fixture, then replay with the provider gone
      await timed(p, r.with, { FAKE_URL: fake.openaiBaseURL, LANGCHAIN_VCR_MODE: "record_or_replay" });
      if (p.fixtures().length !== 1) throw new Error(`bench: ${r.name}: expected 1 fixture, found ${p.fixtures().length}`);
      const env = { FAKE_URL: "http://127.0.0.1:9/v1", LANGCHAIN_VCR_MODE: "replay_only" };
      const row: RunnerRow = { runner: r.name, withMs: [], withoutMs: [], emptyMs: [], wallWithMs: [], wallWithoutMs: [] };
      const variants = ["with", "without", "empty"] as const;
      for (let round = 0; round < options.rounds; round++) {
        for (let k = 0; k < variants.length; k++) {
          const which = variants[(k + round) % variants.length]; // rotate the order every round
          const t = await timed(p, r[which], env);
          ({ with: row.withMs, without: row.withoutMs, empty: row.emptyMs })[which].push(t.suiteMs);
          if (which === "with") row.wallWithMs.push(t.wallMs);
          if (which === "without") row.wallWithoutMs.push(t.wallMs);
        }
      }
      rows.push(row);
    }
  } finally {
    await fake.close();
    removeTmpDirs();
  }
  return rows;
}

/** Median suite time with the adapter over without, the median per-test difference in µs, and the same for the do-nothing plugin. */
export function runnerOverhead(row: RunnerRow): { ratio: number; perTestUs: number; emptyPerTestUs: number } {
  const w = median(row.withMs);
  const wo = median(row.withoutMs);
  return { ratio: w / wo, perTestUs: ((w - wo) * 1000) / SUITE_TESTS, emptyPerTestUs: ((median(row.emptyMs) - wo) * 1000) / SUITE_TESTS };
}
