import { expect } from "chai";
import { callerFrames } from "../../src/errors";
import { usageSummaryLine } from "../../src/runner/summary";
import { Usage } from "../../src/runner/usage";
import { Vcr } from "../../src/index";
import { vcrsCreated } from "../../src/scope";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

const NOTE = "  No test process built a Vcr, so langchain-vcr recorded and replayed nothing: any model call in this run went to its provider.";

describe("the summary's note for a run in which no test process built a Vcr (trial 42: a command without the setup file)", () => {
  after(removeTmpDirs);

  it("is said, with the runner's way to load the setup file, when the run's reports count no Vcr; not when the run's reports are not all in (no runner given)", () => {
    const none = new Usage(); // as a run's main process adds up reports that counted none
    const [line, note, ...rest] = usageSummaryLine(none, "node --test").split("\n");
    expect(line).to.match(/^langchain-vcr: 0 replayed, 0 recorded, 0 bypassed, 0 missed — mode \S+ \([^)]*\), fixtures: \(no fixtures used\)$/); // the mode is the environment's (CI)
    expect(note).to.equal(
      NOTE +
        ` If your code's models are to replay, load the setup file that calls vcr.install() (node --require langchain-vcr/node-test --import ./vcr-setup.mjs --test), or build a Vcr in the tests (README: "vcr.install() or explicit adapters").`,
    );
    expect(rest).to.deep.equal([]);
    expect(usageSummaryLine(none, "mocha")).to.include(`(.mocharc.json: "require": ["langchain-vcr/mocha", "./vcr-setup.ts"])`);
    expect(usageSummaryLine(none, "vitest")).to.include(`(vitest.config.mts: test: { setupFiles: ["./vcr-setup.ts"] })`);
    expect(usageSummaryLine(none, "jest")).to.include(`(jest.config.js: setupFilesAfterEnv: ["langchain-vcr/jest", "<rootDir>/vcr-setup.ts"])`);
    expect(usageSummaryLine(none)).to.not.include("No test process built a Vcr");
  });

  it("a test file's report counts the Vcrs its process built by then (a setup file loaded before or after the plugin's, or one whose options failed); another process's count adds up", () => {
    const before = vcrsCreated();
    new Vcr({ dir: tmpDir("vcr-novcr-") });
    expect(() => new Vcr({ mode: "bogus" as never })).to.throw("is not a valid mode");
    expect(vcrsCreated()).to.equal(before + 2);
    const file = new Usage();
    file.noteVcrs();
    expect(file.totals.vcrs).to.equal(before + 2);
    const run = new Usage();
    run.add({ totals: file.totals, dirs: [] });
    expect(run.totals.vcrs).to.equal(before + 2);
    expect(usageSummaryLine(run, "node --test")).to.not.include("No test process built a Vcr");
  });

  it("is not said when the run counted use all the same (the summary line would say the opposite)", () => {
    const counted = new Usage();
    counted.totals.replayed = 4; // as a report from a process whose count of Vcrs did not reach it
    expect(counted.totals.vcrs).to.equal(0);
    expect(usageSummaryLine(counted, "mocha"))
      .to.match(/^langchain-vcr: 4 replayed/)
      .and.not.include("No test process built a Vcr");
    const missed = new Usage();
    missed.totals.missed = 1;
    expect(usageSummaryLine(missed, "vitest")).to.not.include("No test process built a Vcr");
  });

  it("a config error's stack keeps the caller's own frames; all of them when none is the caller's (raised deep in a LangChain call)", () => {
    const mixed = [
      "VcrConfigError: langchain-vcr: bad mode",
      "    at checkMode (/app/node_modules/langchain-vcr/dist/cjs/index.js:1:1)",
      "    at Object.<anonymous> (/app/vcr-setup.cjs:2:1)",
      "    at Module._compile (node:internal/modules/cjs/loader:1521:14)",
      "    at new Promise (<anonymous>)",
    ].join("\n");
    expect(callerFrames(mixed)).to.equal("VcrConfigError: langchain-vcr: bad mode\n    at Object.<anonymous> (/app/vcr-setup.cjs:2:1)");
    const deep = [
      "VcrConfigError: langchain-vcr: own cache",
      "    at guard (/app/node_modules/langchain-vcr/dist/cjs/index.js:9:9)",
      "    at node:internal/x:1:1",
    ].join("\n");
    expect(callerFrames(deep)).to.equal(deep);
  });
});
