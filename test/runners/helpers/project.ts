/**
 * A user's project for one test runner, in a temporary directory: node_modules links the
 * built langchain-vcr (this repository, through its package.json "exports"), LangChain and
 * the runner; the test files share one scenario module (`scenario.mjs` / `scenario.cjs`, the
 * same code with ESM or CommonJS imports) that drives the real ChatOpenAI and createAgent
 * against the loopback fake. Runs are child processes with a timeout.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { expect } from "chai";
import { builtBin, ROOT } from "../../helpers/built";
import { runChild, type ChildResult } from "../../helpers/child";
import { fixtureFiles, tmpDir } from "../../helpers/tmp";
import { isVcrEnv } from "../../../src/internalEnv";
import { SHARE_ENV } from "../../../src/runner/shareEnv";

/** Packages the consumer project needs, linked from this repository's node_modules. */
const LINKED = ["@langchain", "langchain", "langsmith", "zod", "vitest", "jest", "@jest", "uuid", "tsx"];

/**
 * The vitest the projects run: this repository's, or the one `VCR_TEST_VITEST` names (a vitest
 * package directory; `npm run test:vitest-latest` installs the newest vitest there and runs
 * vitest.test.ts against it).
 */
export const VITEST_DIR = process.env.VCR_TEST_VITEST ? path.resolve(process.env.VCR_TEST_VITEST) : path.join(ROOT, "node_modules/vitest");

/** The major version of the vitest the projects run. */
export function vitestMajor(): number {
  return Number.parseInt((JSON.parse(fs.readFileSync(path.join(VITEST_DIR, "package.json"), "utf8")) as { version: string }).version, 10);
}

/**
 * mocha is copied, not linked: it imports `--require` names from its own directory, which for a
 * link would be this repository's node_modules (where langchain-vcr is not installed). Its
 * dependencies are linked next to it.
 */
function installMocha(nm: string): void {
  const from = path.join(ROOT, "node_modules/mocha");
  fs.cpSync(from, path.join(nm, "mocha"), { recursive: true });
  const deps = Object.keys((JSON.parse(fs.readFileSync(path.join(from, "package.json"), "utf8")) as { dependencies: Record<string, string> }).dependencies);
  for (const d of deps) {
    const target = path.join(nm, d);
    if (!fs.existsSync(target)) fs.symlinkSync(path.join(ROOT, "node_modules", d), target, "dir");
  }
}

export const FIXTURES = "cassettes";

/** A user's setup file that installs one Vcr over the fixture directory, as CommonJS and as an ES module. */
export const INSTALL_SETUP_CJS = `const { Vcr } = require("langchain-vcr");\nnew Vcr({ dir: "${FIXTURES}" }).install();\n`;
export const INSTALL_SETUP_MJS = `import { Vcr } from "langchain-vcr";\nnew Vcr({ dir: "${FIXTURES}" }).install();\n`;

/** The questions the scenario asks; the fake answers `echo: <question>` unless canned. */
export const REFUND = "Please refund $10 on order 42.";
export const REFUND_ANSWERS = [
  { question: "refund $10 on order 42", toolTurns: [[{ name: "issue_refund", args: { orderId: "42", amount: 10 } }]], answer: "Refunded $10 on order 42." },
];

const SCENARIO_BODY = `
// built at the top of the module, as users do (a bad LANGCHAIN_VCR_MODE must still fail cleanly)
const vcr = new Vcr({ dir: "cassettes", mode: process.env.VCR_OPTION_MODE || undefined });
const side = (line) => fs.appendFileSync(process.env.SIDE_FILE, line + "\\n");

function model(baseURL = process.env.FAKE_URL) {
  const shift = process.env.TEMPERATURE ? { temperature: Number(process.env.TEMPERATURE) } : {}; // every request changed the same way
  return new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: vcr.cache, configuration: { baseURL }, ...shift });
}

/**
 * KILL_RUN (a file that must not exist yet): the first test to start, in whichever test process,
 * records one question and kills the run's main process and its own. A test starting in another
 * test process records nothing and goes once the main process has gone (so nothing is written
 * after the run is dead, and no pid the main process had is signalled once it may be reused).
 */
async function killRunIfAsked(title) {
  const flag = process.env.KILL_RUN;
  if (!flag) return;
  const share = process.env[${JSON.stringify(SHARE_ENV)}]; // vitest, jest, node:test; mocha runs its tests in the main process
  const mainPid = share ? JSON.parse(share).mainPid : process.pid;
  let first = true;
  try {
    fs.writeFileSync(flag, String(process.pid), { flag: "wx" });
  } catch {
    first = false;
  }
  if (first) {
    await model().invoke("asked by a run killed in " + title);
    if (mainPid !== process.pid && process.ppid === mainPid) process.kill(mainPid, "SIGKILL");
    process.kill(process.pid, "SIGKILL");
  }
  while (mainPid === process.pid || process.ppid === mainPid) await new Promise((r) => setTimeout(r, 20));
  process.kill(process.pid, "SIGKILL");
}

async function askChat(title) {
  side("ran " + title);
  await killRunIfAsked(title);
  const q = "what is a cassette?";
  const a = await model().invoke(q);
  if (a.content !== "echo: " + q) throw new Error("unexpected answer " + a.content);
  if (process.env.MISS) await model().invoke("a question nobody recorded");
  if (process.env.ASK_OWN) await model().invoke("asked only by " + title); // a question of each test's own
  if (process.env.CAUGHT) {
    try {
      await model().invoke("a question nobody recorded");
    } catch (e) {
      side("caught " + (e.code || e.constructor.name));
    }
    if (process.env.CAUGHT === "then-fail") throw new Error("expected an answer, got Sorry");
  }
  if (process.env.FAIL) {
    await model().invoke("asked only by a failing test");
    throw new Error("the test fails after recording");
  }
}

/**
 * A test file's top-level after-all hook: a question of its own, which no test asks. Not under
 * record_always (the failed-test case): node:test runs the hook beside a name-filtered run, and it
 * would record its fixture again.
 */
async function askInHook(where) {
  if (process.env.LANGCHAIN_VCR_MODE === "record_always") return;
  side("ran " + where);
  const q = "asked in " + where;
  const a = await model().invoke(q);
  if (a.content !== "echo: " + q) throw new Error("unexpected answer " + a.content);
}

function refundTool() {
  return vcr.tool(tool(async ({ orderId, amount }) => { side("refund " + orderId + " " + amount); return "refunded " + amount; },
    { name: "issue_refund", description: "Refund part of an order.", schema: z.object({ orderId: z.string(), amount: z.number() }) }));
}

async function askAgent(title) {
  side("ran " + title);
  await killRunIfAsked(title);
  const agent = createAgent({ model: model(), tools: [refundTool()] });
  const out = await agent.invoke({ messages: [{ role: "user", content: ${JSON.stringify(REFUND)} }] });
  const last = out.messages[out.messages.length - 1];
  if (!String(last.content).includes("Refunded")) throw new Error("unexpected agent answer " + last.content);
  if (process.env.ASK_OWN) await model().invoke("asked only by " + title);
}

const lookup = vcr.tool(tool(async ({ q }) => { side("lookup " + q); await new Promise((r) => setTimeout(r, 20)); return "found " + q; },
  { name: "lookup", description: "Looks a thing up.", schema: z.object({ q: z.string() }) }));

async function lookupTwice(title) {
  side("ran " + title);
  await killRunIfAsked(title);
  await lookup.invoke({ q: "same" });
  await new Promise((r) => setTimeout(r, 10));
  await lookup.invoke({ q: "same" });
}

async function hang(title) {
  side("ran " + title);
  if (process.env.HANG_AFTER_MISS) {
    // a miss whose error never reaches the test: what a LangGraph graph does under jest's fake timers (trial 44)
    await model().invoke("a question nobody recorded").catch(() => side("caught before hanging"));
    return new Promise(() => {});
  }
  // a call and a stream, each left in flight by the test's timeout
  const drain = async (stream) => { for await (const _ of await stream); };
  await withVcr({ mode: "record_or_replay" }, () =>
    Promise.all([model(process.env.HANG_URL).invoke("a question the provider never answers"), drain(model(process.env.HANG_URL).stream("a stream the provider never starts"))]),
  );
}
`;

function scenario(esm: boolean): string {
  const names = `{ Vcr, withVcr }`;
  const head = esm
    ? [
        `import * as fs from "node:fs";`,
        `import ${names} from "langchain-vcr";`,
        `import { ChatOpenAI } from "@langchain/openai";`,
        `import { tool } from "@langchain/core/tools";`,
        `import { createAgent } from "langchain";`,
        `import { z } from "zod";`,
      ]
    : [
        `const fs = require("node:fs");`,
        `const ${names} = require("langchain-vcr");`,
        `const { ChatOpenAI } = require("@langchain/openai");`,
        `const { tool } = require("@langchain/core/tools");`,
        `const { createAgent } = require("langchain");`,
        `const { z } = require("zod");`,
      ];
  const tail = esm ? `export { askChat, askAgent, askInHook, lookupTwice, hang };` : `module.exports = { askChat, askAgent, askInHook, lookupTwice, hang };`;
  return [...head, SCENARIO_BODY, tail, ""].join("\n");
}

/** The agent and lookup tests of a CommonJS test file (jest, mocha), with the runner's `it`/`test`. */
export function agentAndLookupsCjs(it: "it" | "test"): string {
  return [
    `const { askAgent, lookupTwice } = require("../scenario.cjs");`,
    `describe("agent", () => {`,
    `  ${it}("refund once", () => askAgent("agent refund once"));`,
    `  ${it}("refund again", () => askAgent("agent refund again"));`,
    `});`,
    `describe("lookups", () => {`,
    `  ${it}("first", () => lookupTwice("first"));`,
    `  ${it}("second", () => lookupTwice("second"));`,
    `});`,
    ``,
  ].join("\n");
}

export interface Project {
  dir: string;
  side: string;
  fixtures(): string[];
  sideLines(): string[];
  /** Runs the runner (node + its CLI script and args) in the project (`at`: a directory in it), with the given env. */
  run(args: string[], env?: NodeJS.ProcessEnv, at?: string): Promise<ChildResult>;
  /** `langchain-vcr <args>` (the built CLI) in the project (`at`: a directory in it). */
  cli(args: string[], at?: string): Promise<ChildResult>;
}

export function makeProject(files: Record<string, string>, options: { mocha?: boolean } = {}): Project {
  builtBin(); // the built package, as users get it
  const dir = tmpDir("vcr-runner-");
  const nm = path.join(dir, "node_modules");
  fs.mkdirSync(nm);
  fs.symlinkSync(ROOT, path.join(nm, "langchain-vcr"), "dir");
  for (const name of LINKED) {
    const from = name === "vitest" ? VITEST_DIR : path.join(ROOT, "node_modules", name);
    if (fs.existsSync(from)) fs.symlinkSync(from, path.join(nm, name), "dir");
  }
  if (options.mocha) installMocha(nm);
  fs.writeFileSync(path.join(dir, "scenario.mjs"), scenario(true));
  fs.writeFileSync(path.join(dir, "scenario.cjs"), scenario(false));
  for (const [name, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  }
  const side = path.join(dir, "side-effects.log");
  const base = (extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv => {
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const k of Object.keys(env))
      if (isVcrEnv(k) || k.startsWith("MOCHA_") || k === "NODE_TEST_CONTEXT" || k.startsWith("VITEST") || k.startsWith("JEST")) delete env[k];
    return { ...env, CI: "", FORCE_COLOR: "0", NO_COLOR: "1", LANGCHAIN_VCR_QUIET: "1", SIDE_FILE: side, ...extra };
  };
  return {
    dir,
    side,
    fixtures: () => fixtureFiles(path.join(dir, FIXTURES)),
    sideLines: () => (fs.existsSync(side) ? fs.readFileSync(side, "utf8").split("\n").filter(Boolean) : []),
    run: (args, env = {}, at = "") => runChild(process.execPath, args, { cwd: path.join(dir, at), env: base(env), timeoutMs: 60000 }),
    cli: (args, at = "") => runChild(process.execPath, [builtBin(), ...args], { cwd: path.join(dir, at), env: base({}), timeoutMs: 20000 }),
  };
}

/**
 * A package whose test file (`file`, in test/) asks ChatOpenAI once with its Vcr's `dir` anchored at the package root:
 * a run started in test/ (trial 50). `itFrom`: the module to take `it` from (none: the runner's global).
 */
export function belowRootFiles(file: string, itFrom?: string): Record<string, string> {
  return {
    "package.json": `{ "name": "app", "private": true }\n`,
    [file]: [
      `const path = require("node:path");`,
      ...(itFrom ? [`const { it } = require("${itFrom}");`] : []),
      `const { Vcr } = require("langchain-vcr");`,
      `const { ChatOpenAI } = require("@langchain/openai");`,
      `const vcr = new Vcr({ dir: path.join(__dirname, "..", "cassettes") });`,
      `it("asks from test/", () => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "sk-test", configuration: { baseURL: process.env.FAKE_URL }, cache: vcr.cache }).invoke("Hello from test/"));`,
      ``,
    ].join("\n"),
  };
}

/** Whether the project's directory `at` ("" for its root) holds a runner's default ledger directory. */
export function hasLedgers(p: Project, at: string): boolean {
  return fs.existsSync(path.join(p.dir, at, "node_modules/.cache/langchain-vcr/ledgers"));
}

/** The fixtures of one kind (and tool name) in the project. */
export function fixturesOf(p: Project, kind: string, toolName?: string): string[] {
  return p.fixtures().filter((f) => {
    const fx = JSON.parse(fs.readFileSync(path.join(p.dir, FIXTURES, f), "utf8"));
    return fx.kind === kind && (toolName === undefined || fx.request?.tool === toolName);
  });
}

/** A fixture no test uses (a test deleted since it recorded), written as the CLI would find it. */
export function addDeadFixture(p: Project, label: string): string {
  const src = p.fixtures()[0];
  const fx = JSON.parse(fs.readFileSync(path.join(p.dir, FIXTURES, src), "utf8"));
  fx.request = { ...fx.request, deadLabel: label };
  const { requestHash } = require("../../../src/canonical/json") as typeof import("../../../src/canonical/json");
  fx.hash = requestHash(fx.kind, fx.request);
  const { formatFixture } = require("../../../src/store/format") as typeof import("../../../src/store/format");
  const name = `${fx.hash}.json`;
  fs.writeFileSync(path.join(p.dir, FIXTURES, name), formatFixture(fx));
  return name;
}

/** The summary lines a run printed. */
export function summaryLines(out: ChildResult): string[] {
  return (out.stdout + "\n" + out.stderr)
    .split("\n")
    .map((l) => l.replace(/^#\s*/, "").trim())
    .filter((l) => /^langchain-vcr: \d+ replayed/.test(l));
}

/**
 * A test file ("asks the app") whose model the app builds with no cache, and a setup file,
 * vcr-setup.cjs, whose `vcr.install()` is all that can record it: a command that leaves the
 * setup file out calls the provider and records nothing. `itFrom`: where the test file takes `it`.
 */
export function cachelessAppFiles(testFile: string, itFrom?: string): Record<string, string> {
  // ESM for a .mjs test file (vitest), else CommonJS
  const imports = testFile.endsWith(".mjs")
    ? [`import { it } from ${JSON.stringify(itFrom ?? "vitest")};`, `import { ChatOpenAI } from "@langchain/openai";`]
    : [itFrom ? `const { it } = require(${JSON.stringify(itFrom)});` : "", `const { ChatOpenAI } = require("@langchain/openai");`];
  return {
    [testFile]: [
      ...imports,
      `it("asks the app", async () => {`,
      `  const model = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });`,
      `  await model.invoke("a question from app code");`,
      `});`,
      ``,
    ].join("\n"),
    "vcr-setup.cjs": INSTALL_SETUP_CJS,
  };
}

/**
 * The miss of cachelessAppFiles' test and the command it prints to record it: `miss` (run under
 * replay_only) fails with no request and prints `hint`; `printed`, the hint's command with the
 * project's own runner for npx, records the test (1 request, 1 fixture: without the setup file the
 * call would go live and write nothing). `plain`, if given: a command without the suite's own
 * arguments, which records nothing.
 */
export async function expectPrintedCommandRecords(
  p: Project,
  fake: { count(): number },
  env: NodeJS.ProcessEnv,
  c: {
    miss: string[];
    hint: string;
    printed: string[];
    plain?: string[];
    /** the plain command's exit status, when it is not a failure */ plainStatus?: number;
  },
): Promise<void> {
  const miss = await p.run(c.miss, { ...env, LANGCHAIN_VCR_MODE: "replay_only" });
  expect(miss.status, miss.stdout + miss.stderr).to.equal(1);
  expect(fake.count()).to.equal(0);
  expect(miss.stdout + miss.stderr).to.include(c.hint);
  if (c.plain) {
    const plain = await p.run(c.plain, { ...env, LANGCHAIN_VCR_MODE: "record_or_replay" });
    if (c.plainStatus === undefined) expect(plain.status, plain.stdout + plain.stderr).to.not.equal(0);
    else expect(plain.status, plain.stdout + plain.stderr).to.equal(c.plainStatus);
    expect([fake.count(), p.fixtures().length]).to.deep.equal([0, 0]);
  }
  const rec = await p.run(c.printed, { ...env, LANGCHAIN_VCR_MODE: "record_or_replay" });
  expect(rec.status, rec.stdout + rec.stderr).to.equal(0);
  expect([fake.count(), p.fixtures().length]).to.deep.equal([1, 1]);
}

/** A jest config for the model tests under llm/, with the setup file that calls vcr.install(). */
/** A jest.config.cjs for CommonJS test files in `dir` (node environment, no transform), with `lines` after (each `  key: value,`). */
export function jestConfigCjs(dir: string, lines: string[]): string {
  return [`module.exports = {`, `  testEnvironment: "node",`, `  transform: {},`, `  testMatch: ["**/${dir}/**/*.test.cjs"],`, ...lines, `};`, ``].join("\n");
}

export const JEST_LLM_CONFIG = jestConfigCjs("llm", [
  `  testTimeout: 20000,`,
  `  setupFilesAfterEnv: ["langchain-vcr/jest", "<rootDir>/vcr-setup.cjs"],`,
  `  reporters: ["default", "langchain-vcr/jest/reporter"],`,
]);

/**
 * An ES-module test file with one test, "embeds", that embeds a text with an OpenAIEmbeddings of
 * no wrapper pointed at the fake (8 numbers back); `testImport` brings `it` or `test` where the
 * runner has no global one.
 */
export function embeddingTestFile(testImport = ""): string {
  return [
    ...(testImport ? [testImport] : []),
    `import assert from "node:assert";`,
    `import { OpenAIEmbeddings } from "@langchain/openai";`,
    `${testImport.includes("test }") ? "test" : "it"}("embeds", async () => {`,
    `  const embeddings = new OpenAIEmbeddings({ apiKey: "test-key", maxRetries: 0, configuration: { baseURL: process.env.FAKE_URL } });`,
    `  assert.equal((await embeddings.embedQuery("a text")).length, 8);`,
    `});`,
    ``,
  ].join("\n");
}
