/**
 * Every set-up recipe of the README is a consumer project that works: for each recipe, a fresh
 * project in a temporary directory with the documented files verbatim (test/recipes/blocks.ts reads
 * them from README.md and docs/*.md), the documented install line against `npm pack` of this
 * package, then the documented test command twice:
 *   1. recording against a loopback fake OpenAI (OPENAI_BASE_URL): it passes, the fake is reached,
 *      and exactly the expected fixtures are written (2 chat turns and 1 tool call of the agent, 1 stream;
 *      the zero-touch recipe's test has no stream);
 *   2. replaying with CI=true (the sealed default): it passes with 0 requests to the fake and the
 *      fixtures byte-for-byte unchanged.
 * After the recording, `langchain-vcr prune --dry-run` must accept the run as complete (or, for a
 * recipe whose run is documented as partial or as writing no ledger, refuse it for the documented
 * reason). A recipe documented without a plugin (Bun's test runner) must print no summary line.
 *
 * This is the one test that uses the network (npm install from the registry): run it with
 * `npm run test:recipes`, never from `npm test`. RECIPES=mocha-esm,jest runs a subset;
 * RECIPES_KEEP=1 keeps the projects for inspection; PACKAGE_MANAGER=pnpm or yarn (on PATH) installs and runs
 * them through that package manager (./packageManager.ts; `npm run test:package-managers` does, in CI).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { expect } from "chai";
import { startFakeProvider, type FakeProvider } from "../../examples/provider/server";
import { RECIPES, recipes, ROOT, type RecipeId } from "./blocks";
import { packageManager } from "./packageManager";
import { countKinds, fixtures, runShell, userEnv, writeProject } from "./project";

const INSTALL_TIMEOUT_MS = 240_000;
const RUN_TIMEOUT_MS = 120_000;
/** What the README's example records: the agent's two model turns and its tool call, and one stream. */
const EXPECTED_KINDS: Record<string, number> = { chat: 2, chat_stream: 1, tool: 1 };
/** Recipes with a test of their own: the zero-touch one's agent (README, "vcr.install()") streams nothing. */
const EXPECTED_KINDS_OF: Partial<Record<RecipeId, Record<string, number>>> = { "vitest-install": { chat: 2, tool: 1 } };

/** The fake's script for the README example's questions (a lookup table, not a model). */
const ANSWERS = [
  {
    question: "Order 42 arrived broken",
    toolTurns: [[{ name: "issue_refund", args: { orderId: "42", amount: 25 } }]],
    answer: "I have issued a refund of $25 for order 42.",
  },
  { question: "What is the capital of France?", answer: "Paris." },
];

/**
 * Recipes whose documented run cannot be complete, so `prune` must refuse it with this reason
 * (docs/recipes.md says so): Node 20's `--test` finds no .ts file, so node:test + tsx names its files;
 * Bun's test runner has no plugin, so no run writes a ledger (docs/runners.md, "Bun").
 */
const PRUNE_REFUSES: Partial<Record<RecipeId, RegExp>> = {
  "node-test": /test files were named on the command line/,
  bun: /there is no usage ledger/,
};

/**
 * Recipes documented as running without a langchain-vcr plugin (README: Bun's test hooks tell neither a
 * test's name nor whether it failed): recording and replay as everywhere, but no summary line and no ledger.
 */
const NO_PLUGIN: ReadonlySet<RecipeId> = new Set<RecipeId>(["bun"]);
/**
 * Recipes documented for a newer Node than package.json's engines (README): node strips TypeScript's types itself
 * from 22.18. On an older Node the recipe is skipped; `npm run test:node-versions` (CI) runs it on Node 22, 24 and 26.
 */
const MIN_NODE: Partial<Record<RecipeId, [number, number]>> = { "node-test-ts": [22, 18] };
const [NODE_MAJOR, NODE_MINOR] = process.versions.node.split(".").map(Number);
const SUMMARY = /langchain-vcr: \d+ replayed/;

const selected = (process.env.RECIPES ?? RECIPES.join(",")).split(",").filter(Boolean) as RecipeId[];
const pm = packageManager(process.env.PACKAGE_MANAGER);

describe(`README set-up recipes, each in a fresh consumer project from the packed package (${pm.name})`, function () {
  this.timeout(INSTALL_TIMEOUT_MS + 3 * RUN_TIMEOUT_MS);
  const documented = recipes();
  let work: string;
  let tarball: string;
  let fake: FakeProvider;
  let registry: string;

  before(async function () {
    this.timeout(180_000);
    work = fs.mkdtempSync(path.join(os.tmpdir(), "langchain-vcr-recipes-"));
    execFileSync("npm", ["run", "--silent", "build"], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"], timeout: 120_000 }); // what prepack does
    const pack = ["pack", "--json", "--ignore-scripts", "--pack-destination", work];
    const packed = JSON.parse(execFileSync("npm", pack, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], timeout: 60_000 }));
    tarball = path.join(work, packed[0].filename);
    fake = await startFakeProvider({ answers: ANSWERS });
    registry = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8", timeout: 30_000 }).trim();
  });

  after(async () => {
    await fake?.close();
    if (work && !process.env.RECIPES_KEEP) fs.rmSync(work, { recursive: true, force: true });
    else if (work) console.log(`recipe projects kept in ${work}`);
  });

  for (const id of selected) {
    it(`${id}: installs, records against the fake, then replays with CI=true and 0 requests`, async function () {
      const min = MIN_NODE[id];
      if (min && (NODE_MAJOR < min[0] || (NODE_MAJOR === min[0] && NODE_MINOR < min[1]))) this.skip(); // documented for a newer Node
      const recipe = documented.get(id);
      expect(recipe, `no recipe "${id}" in the documentation`).to.not.equal(undefined);
      const dir = path.join(work, id);
      fs.mkdirSync(dir);
      writeProject(dir, recipe!);
      const env = userEnv(fake.openaiBaseURL, pm.env(registry));
      const kinds = EXPECTED_KINDS_OF[id] ?? EXPECTED_KINDS;
      const total = Object.values(kinds).reduce((a, b) => a + b, 0);
      const show = (step: string, r: { status: number | null; output: string; timedOut: boolean }) =>
        `${id}: ${step} ${r.timedOut ? "timed out" : `exited ${r.status}`} in ${dir}\n${r.output.slice(-4000)}`;

      for (const line of recipe!.install) {
        const command = pm.install(line, tarball);
        const r = await runShell(command, { cwd: dir, env, timeoutMs: INSTALL_TIMEOUT_MS });
        expect(r.status, show(command, r)).to.equal(0);
      }

      fake.reset();
      const test = pm.run(recipe!.test);
      const record = await runShell(test, { cwd: dir, env, timeoutMs: RUN_TIMEOUT_MS });
      expect(record.status, show(`recording (${test})`, record)).to.equal(0);
      expect(fake.count(), `${id}: the recording made no request to the fake`).to.be.greaterThan(0);
      const recorded = fixtures(path.join(dir, "cassettes"));
      expect(countKinds(recorded), show("recording wrote other fixtures than expected;", record)).to.deep.equal(kinds);
      if (NO_PLUGIN.has(id)) expect(record.output, show("a recipe documented without a plugin printed a summary;", record)).to.not.match(SUMMARY);
      else
        expect(record.output, show("recording printed no langchain-vcr summary;", record)).to.match(new RegExp(`langchain-vcr: 0 replayed, ${total} recorded`));

      const prune = await runShell(pm.run("npx langchain-vcr prune --dry-run"), { cwd: dir, env, timeoutMs: RUN_TIMEOUT_MS });
      const refusal = PRUNE_REFUSES[id];
      if (refusal) {
        expect(prune.status, show("prune --dry-run after a run it must refuse", prune)).to.equal(1);
        expect(prune.output, show("prune's refusal", prune)).to.match(refusal);
      } else {
        expect(prune.status, show("prune --dry-run after a complete run", prune)).to.equal(0);
      }

      fake.reset();
      const replay = await runShell(test, { cwd: dir, env: { ...env, CI: "true" }, timeoutMs: RUN_TIMEOUT_MS });
      expect(replay.status, show(`replay with CI=true (${test})`, replay)).to.equal(0);
      expect(fake.count(), `${id}: the replay reached the fake`).to.equal(0);
      expect(fixtures(path.join(dir, "cassettes")), `${id}: the replay changed the fixtures`).to.deep.equal(recorded);
      if (NO_PLUGIN.has(id)) expect(replay.output, show("a recipe documented without a plugin printed a summary;", replay)).to.not.match(SUMMARY);
      else expect(replay.output, show("replay summary", replay)).to.match(new RegExp(`langchain-vcr: ${total} replayed, 0 recorded, 0 bypassed, 0 missed`));
    });
  }
});
