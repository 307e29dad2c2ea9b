/**
 * Tools from an ESM consumer of the built package: its tool bodies throw the ESM copy of core's
 * classes, which langchain-vcr (CommonJS inside) must recognise without `instanceof`.
 */
import { expect } from "chai";
import * as path from "node:path";
import { builtBin, ROOT } from "../helpers/built";
import { runChild } from "../helpers/child";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

/** Runs one ESM script of test/package-smoke against `dir` under `mode`; its last stdout line as JSON. */
async function runScript(script: string, dir: string, mode: string): Promise<any> {
  const out = await runChild(process.execPath, [path.join(ROOT, "test/package-smoke", script)], {
    cwd: ROOT,
    env: { ...process.env, FIXTURE_DIR: dir, LANGCHAIN_VCR_MODE: mode },
    timeoutMs: 30000,
  });
  expect(out.status, out.stderr).to.equal(0);
  return JSON.parse(out.stdout.trim().split("\n").pop()!);
}

describe("tools: an ESM consumer of the built package", function () {
  this.timeout(60000);
  before(() => builtBin()); // npm test builds dist/ first
  afterEach(() => removeTmpDirs());

  it("a ToolInputParsingException thrown in a tool body keeps its output in the fixture and on replay; the body ran once", async () => {
    const dir = tmpDir("vcr-tools-esm-");
    const run = (mode: string) => runScript("tool-parse-error.mjs", dir, mode);
    const error = { name: "Error", class: "ToolInputParsingException", message: "inner tool got bad input", output: '{"x":1}' };
    const recorded = [{ name: "Error", class: "ToolInputParsingException", message: "inner tool got bad input", output: '{"x":1}' }];
    expect(await run("record_or_replay")).to.deep.equal({ runs: 1, result: error, recorded });
    expect(await run("replay_only")).to.deep.equal({ runs: 0, result: error, recorded });
  });

  it("LangGraph interrupt() in a wrapped tool, the graph ESM: the interrupt replays through LangGraph, the resumed call replays; 0 body runs", async () => {
    const dir = tmpDir("vcr-tools-esm-interrupt-");
    const run = (mode: string) => runScript("tool-interrupt.mjs", dir, mode);
    // the same pause and answer each time; what ran and what the Vcr counted differ
    const same = { interrupts: [{ question: "Refund order 77?" }], result: "Refunded order 77." };
    const recorded = await run("record_or_replay");
    expect(recorded).to.deep.equal({ ...same, bodyStarts: 2, refunds: 1, stats: { replayed: 1, recorded: 2, bypassed: 0, missed: 0 } });
    const replayed = await run("replay_only");
    expect(replayed).to.deep.equal({ ...same, bodyStarts: 0, refunds: 0, stats: { replayed: 2, recorded: 0, bypassed: 0, missed: 0 } }); // the interrupt, then the resumed call found by its resume key
  });
});
