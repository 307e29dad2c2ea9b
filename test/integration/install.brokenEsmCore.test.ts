/**
 * A CommonJS process whose ESM copy of @langchain/core lacks an internal langchain-vcr relies
 * on (its CommonJS copy is intact): `vcr.install()`, which patches the ESM copy, fails with the
 * VcrConfigError naming the internal, and nothing reaches the provider — models built on the
 * ESM copy (initChatModel's, createAgent's string models) cannot be left unpatched and live.
 */
import { expect } from "chai";
import * as path from "node:path";
import { runChild } from "../helpers/child";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { TEST_KEY } from "../helpers/models";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

const ROOT = path.resolve(__dirname, "../..");

describe("vcr.install() over an ESM copy of core that lacks an internal", function () {
  this.timeout(60000);
  let fake: FakeProvider;
  beforeEach(async () => (fake = await startFakeProvider()));
  afterEach(async () => {
    await fake.close();
    removeTmpDirs();
  });

  it("install() is the VcrConfigError naming the internal; 0 requests", async () => {
    const out = await runChild(process.execPath, ["-r", "ts-node/register/transpile-only", path.join(__dirname, "scripts", "installBrokenEsmCore.ts")], {
      cwd: ROOT,
      env: { ...process.env, FIXTURE_DIR: tmpDir(), OPENAI_BASE_URL: fake.openaiBaseURL, OPENAI_API_KEY: TEST_KEY, LANGCHAIN_VCR_MODE: "" },
      timeoutMs: 45000,
    });
    expect(out.status, out.stderr).to.equal(0);
    const report = JSON.parse(out.stdout.trim().split("\n").pop()!) as { steps: string[]; error?: { code?: string; message: string } };
    expect(report.steps).to.deep.equal(["vcr"]);
    expect(report.error?.code).to.equal("VCR_CONFIG");
    expect(report.error?.message).to.contain("it has no BaseChatModel.prototype._streamChatModelEvents.");
    expect(fake.count()).to.equal(0);
  });
});
