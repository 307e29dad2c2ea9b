/**
 * `vcr.install()` and the ESM copy of @langchain/core that initChatModel's string models are
 * built on, in a CommonJS process. Where `require()` loads ES modules (Node 20.19+), install()
 * patches that copy at once; where it cannot (a Node before 20.19; here
 * --no-experimental-require-module), it loads the copy with `import()` before initChatModel
 * builds its first model (langchain's ConfigurableModel). Either way string models are recorded
 * and replayed, and a copy that lacks a relied-on internal is a VcrConfigError naming it, with 0
 * requests: never a model left unpatched and live.
 */
import { expect } from "chai";
import * as path from "node:path";
import { runChild } from "../helpers/child";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { TEST_KEY } from "../helpers/models";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";

const ROOT = path.resolve(__dirname, "../..");
const NO_REQUIRE_ESM = ["--no-experimental-require-module"];
/** The langchain the Fix line names: the one langchain-vcr's own tests install. */
const TESTED_LANGCHAIN = (require("../../package.json") as { devDependencies: Record<string, string> }).devDependencies.langchain.replace(/^\^/, "");
/** Node 20.19+ and 22.12+ take the flag (and load ES modules with require() without it). */
const canTurnOff = process.allowedNodeEnvironmentFlags.has(NO_REQUIRE_ESM[0]);

type Report = { steps: string[]; error?: { code?: string; message: string } };

describe("vcr.install() over the ESM copy of core that string models are built on", function () {
  this.timeout(60000);
  let fake: FakeProvider;
  beforeEach(async () => (fake = await startFakeProvider()));
  afterEach(async () => {
    await fake.close();
    removeTmpDirs();
  });

  async function run(dir: string, nodeArgs: string[], env: NodeJS.ProcessEnv): Promise<{ report: Report; stderr: string }> {
    const script = path.join(__dirname, "scripts", "installStringModel.ts");
    const out = await runChild(process.execPath, [...nodeArgs, "-r", "ts-node/register/transpile-only", script], {
      cwd: ROOT,
      env: { ...process.env, FIXTURE_DIR: dir, OPENAI_BASE_URL: fake.openaiBaseURL, OPENAI_API_KEY: TEST_KEY, LANGCHAIN_VCR_MODE: "", ...env },
      timeoutMs: 45000,
    });
    expect(out.status, out.stderr).to.equal(0);
    return { report: JSON.parse(out.stdout.trim().split("\n").pop()!) as Report, stderr: out.stderr };
  }

  it("an ESM copy that lacks an internal, patched at install(): install() is the VcrConfigError naming it; 0 requests", async () => {
    const { report } = await run(tmpDir(), [], { MODE: "replay_only", BREAK: "1" });
    expect(report.steps).to.deep.equal(["vcr"]);
    expect(report.error?.code).to.equal("VCR_CONFIG");
    expect(report.error?.message).to.contain("it has no BaseChatModel.prototype._streamChatModelEvents.");
    expect(fake.count()).to.equal(0);
  });

  it("require() cannot load it: a string model from langchain's ESM build (an import() of it) is recorded, then replayed (the copy is loaded at install(); the script awaits `uninstall.ready` before it imports langchain)", async function () {
    if (!canTurnOff) this.skip();
    const dir = tmpDir();
    const rec = await run(dir, NO_REQUIRE_ESM, { MODE: "record_or_replay", ESM: "1" });
    expect(rec.report.steps).to.deep.equal(["vcr", "installed", "answered: echo: a question from app code"]);
    expect([fake.count(), fixtureFiles(dir).length]).to.deep.equal([1, 1]);
    const replay = await run(dir, NO_REQUIRE_ESM, { MODE: "replay_only", ESM: "1" });
    expect(replay.report.steps).to.deep.equal(["vcr", "installed", "answered: echo: a question from app code"]);
    expect(fake.count()).to.equal(1);
  });

  it("require() cannot load it and import() fails too: a note at install(), and building the model is the VcrConfigError saying so; 0 requests", async function () {
    if (!canTurnOff) this.skip();
    const dir = tmpDir();
    const { report, stderr } = await run(dir, NO_REQUIRE_ESM, { MODE: "replay_only", BLOCK: "1" });
    expect(stderr).to.include("note: vcr.install() could not load the ESM copy of @langchain/core (blocked by the test's loader: file://");
    const failure = report.error ?? { code: report.steps[2], message: report.steps[3] };
    expect(report.steps.slice(0, 2)).to.deep.equal(["vcr", "installed"]);
    expect(failure.code).to.equal("VCR_CONFIG");
    expect(failure.message.split("\n")[0]).to.equal(
      'langchain-vcr: a ChatOpenAI from initChatModel (createAgent with a "provider:model" string) cannot be recorded or replayed: the ESM copy of @langchain/core it is built on could not be loaded, so langchain-vcr could not patch it, and the call was not made.',
    );
    expect(failure.message).to.include("  Fix it: pass the model object");
    expect([fake.count(), fixtureFiles(dir).length]).to.deep.equal([0, 0]);
  });

  it("require() cannot load it: the string model is recorded (1 request, 1 fixture, no note), then replayed under replay_only (0 requests)", async function () {
    if (!canTurnOff) this.skip();
    const dir = tmpDir();
    const rec = await run(dir, NO_REQUIRE_ESM, { MODE: "record_or_replay" });
    expect(rec.report.steps).to.deep.equal(["vcr", "installed", "answered: echo: a question from app code"]);
    expect(rec.stderr).to.not.include("could not load the ESM copy");
    expect([fake.count(), fixtureFiles(dir).length]).to.deep.equal([1, 1]);
    const replay = await run(dir, NO_REQUIRE_ESM, { MODE: "replay_only" });
    expect(replay.report.steps).to.deep.equal(["vcr", "installed", "answered: echo: a question from app code"]);
    expect(fake.count()).to.equal(1);
  });

  it("require() cannot load it: under replay_only with no fixture, invoke, .stream() and batch() of a string model are each a VcrMissError; 0 requests", async function () {
    if (!canTurnOff) this.skip();
    const dir = tmpDir();
    const { report } = await run(dir, NO_REQUIRE_ESM, { MODE: "replay_only", CALLS: "invoke,stream,batch" });
    expect(report.steps.filter((s) => !s.includes("\n"))).to.deep.equal(["vcr", "installed", "VCR_MISS", "VCR_MISS", "VCR_MISS"]);
    expect([fake.count(), fixtureFiles(dir).length]).to.deep.equal([0, 0]);
  });

  it("require() cannot load it and it lacks an internal: building the model is the VcrConfigError naming it, never a live call (0 requests)", async function () {
    if (!canTurnOff) this.skip();
    const dir = tmpDir();
    const { report } = await run(dir, NO_REQUIRE_ESM, { MODE: "record_or_replay", BREAK: "1" });
    // initChatModel builds its model at once (langchain 1.x), so it is the call that fails
    const failure = report.error ?? { code: report.steps[2], message: report.steps[3] };
    expect(report.steps.slice(0, 2)).to.deep.equal(["vcr", "installed"]);
    expect(failure.code).to.equal("VCR_CONFIG");
    expect(failure.message).to.contain("it has no BaseChatModel.prototype._streamChatModelEvents.");
    expect([fake.count(), fixtureFiles(dir).length]).to.deep.equal([0, 0]);
  });

  it("require() cannot load it and langchain's ConfigurableModel lacks _getModelInstance: install() is the VcrConfigError naming it, and so is a second install(); nothing is installed; 0 requests", async function () {
    if (!canTurnOff) this.skip();
    const dir = tmpDir();
    const { report } = await run(dir, NO_REQUIRE_ESM, { MODE: "record_or_replay", NO_BUILDER: "1" });
    expect(report.steps).to.deep.equal(["vcr", "refused: VCR_CONFIG"]);
    expect(report.error?.code).to.equal("VCR_CONFIG");
    expect(report.error?.message).to.match(
      /^langchain-vcr: vcr\.install\(\) cannot cover string models .*: langchain in \S+ has no ConfigurableModel\.prototype\._getModelInstance\.\n/,
    );
    expect(report.error?.message).to.include(`  Fix it: install the langchain langchain-vcr is tested with: npm install langchain@${TESTED_LANGCHAIN}`);
    expect([fake.count(), fixtureFiles(dir).length]).to.deep.equal([0, 0]);
  });
});
