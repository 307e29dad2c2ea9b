/**
 * Tools from an ESM consumer of the built package: its tool bodies throw the ESM copy of core's
 * classes, which langchain-vcr (CommonJS inside) must recognise without `instanceof`.
 */
import { expect } from "chai";
import * as path from "node:path";
import { builtBin, ROOT } from "../helpers/built";
import { runChild } from "../helpers/child";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

describe("tools: an ESM consumer of the built package", function () {
  this.timeout(60000);
  before(() => builtBin()); // npm test builds dist/ first
  afterEach(() => removeTmpDirs());

  it("a ToolInputParsingException thrown in a tool body keeps its output in the fixture and on replay; the body ran once", async () => {
    const dir = tmpDir("vcr-tools-esm-");
    const run = async (mode: string) => {
      const out = await runChild(process.execPath, [path.join(ROOT, "test/package-smoke/tool-parse-error.mjs")], {
        cwd: ROOT,
        env: { ...process.env, FIXTURE_DIR: dir, LANGCHAIN_VCR_MODE: mode },
        timeoutMs: 30000,
      });
      expect(out.status, out.stderr).to.equal(0);
      return JSON.parse(out.stdout.trim().split("\n").pop()!);
    };
    const error = { name: "Error", class: "ToolInputParsingException", message: "inner tool got bad input", output: '{"x":1}' };
    const recorded = [{ name: "Error", class: "ToolInputParsingException", message: "inner tool got bad input", output: '{"x":1}' }];
    expect(await run("record_or_replay")).to.deep.equal({ runs: 1, result: error, recorded });
    expect(await run("replay_only")).to.deep.equal({ runs: 0, result: error, recorded });
  });
});
