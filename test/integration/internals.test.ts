/**
 * Every LangChain internal langchain-vcr relies on (src/internals/table.ts), renamed one at a
 * time in a child process's copy of @langchain/core before langchain-vcr loads: `new Vcr()`
 * fails with the VcrConfigError naming it, the installed core version and the supported
 * range, and the fake provider receives 0 requests (no call falls back to a live one).
 * The children run the built package (`npm run build`; npm test builds first).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { builtBin, ROOT } from "../helpers/built";
import { runChild } from "../helpers/child";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";
import { INTERNALS, internalName } from "../../src/internals/table";

const CORE_VERSION = (require("@langchain/core/package.json") as { version: string }).version;
const RANGE = (JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { peerDependencies: Record<string, string> }).peerDependencies[
  "@langchain/core"
];

interface Report {
  steps: string[];
  error?: { name: string; code: string; message: string };
}

describe("the internals langchain-vcr relies on: a missing one is a VcrConfigError, never a live call", function () {
  this.timeout(120000);
  let fake: FakeProvider;
  before(() => builtBin());
  beforeEach(async () => (fake = await startFakeProvider()));
  afterEach(async () => {
    await fake.close();
    removeTmpDirs();
  });

  async function run(internal: string, entry = "dist/cjs/index.js", script = "missingInternal.cjs"): Promise<Report> {
    const out = await runChild(process.execPath, [path.join(__dirname, "scripts", script)], {
      cwd: ROOT,
      env: {
        ...process.env,
        INTERNAL: internal,
        VCR_ENTRY: path.join(ROOT, entry),
        FIXTURE_DIR: tmpDir(),
        FAKE_URL: fake.openaiBaseURL,
        LANGCHAIN_VCR_MODE: "",
      },
      timeoutMs: 30000,
    });
    expect(out.status, out.stderr).to.equal(0);
    return JSON.parse(out.stdout.trim().split("\n").pop()!) as Report;
  }

  it("with every internal in place, the same script builds its Vcr and misses (replay_only) without a request", async () => {
    const report = await run("");
    expect(report.error).to.equal(undefined);
    expect(report.steps).to.deep.equal(["vcr", "VCR_MISS", "VCR_MISS", "VCR_MISS", "VCR_MISS"]);
    expect(fake.count()).to.equal(0);
  });

  for (const internal of INTERNALS) {
    const { owner, name } = internal;
    it(`${internalName(internal)} renamed: VcrConfigError naming it, core ${CORE_VERSION}, the range; 0 requests`, async () => {
      const report = await run(`${owner}.${name}`);
      expect(report.steps).to.deep.equal([]);
      expect(report.error?.code).to.equal("VCR_CONFIG");
      expect(report.error?.message).to.contain(`it has no ${internalName(internal)}.`);
      expect(report.error?.message).to.contain(`installed @langchain/core: ${CORE_VERSION}; langchain-vcr supports @langchain/core ${RANGE}.`);
      expect(report.error?.message).to.contain(`npm install @langchain/core@"${RANGE}"`);
      expect(fake.count()).to.equal(0);
    });
  }

  it("ESM: BaseLLM.prototype._streamIterator renamed in the ESM copy of core: the ESM entry's Vcr fails the same way; 0 requests", async () => {
    const report = await run("BaseLLM._streamIterator", "dist/esm/index.mjs", "missingInternal.mjs");
    expect(report.error?.code).to.equal("VCR_CONFIG");
    expect(report.error?.message).to.contain("it has no BaseLLM.prototype._streamIterator.");
    expect(fake.count()).to.equal(0);
  });
});
