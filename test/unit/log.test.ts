/** The prefix has one owner per channel: VcrError adds it to every error, the log sink to every line. */
import { expect } from "chai";
import { PREFIX, VcrConfigError, VcrFixtureError } from "../../src/errors";
import { log } from "../../src/log";
import { exitOnConfigError } from "../../src/runner/configCheck";

/** What `fn` writes to stderr (and whether it called process.exit, with which code). */
function captureStderr(fn: () => void): { text: string; exit?: number } {
  const write = process.stderr.write;
  const exit = process.exit;
  let text = "";
  const got: { exit?: number } = {};
  process.stderr.write = ((chunk: string | Uint8Array) => ((text += String(chunk)), true)) as typeof process.stderr.write;
  process.exit = ((code?: number) => {
    got.exit = code;
  }) as typeof process.exit;
  try {
    fn();
  } finally {
    process.stderr.write = write;
    process.exit = exit;
  }
  return { text, ...got };
}

describe("log and errors: who adds the langchain-vcr: prefix", () => {
  it("every VcrError's message begins with the prefix exactly once", () => {
    expect(PREFIX).to.equal("langchain-vcr: ");
    expect(new VcrConfigError("options.dir must be a non-empty string.").message).to.equal("langchain-vcr: options.dir must be a non-empty string.");
    expect(new VcrFixtureError("the chat fixture f.json has no x.", "f.json").message).to.equal("langchain-vcr: the chat fixture f.json has no x.");
    // a text that has it already (passed on, or typed by a caller written before the prefix had an owner) is not doubled
    expect(new VcrConfigError("langchain-vcr: unknown option.").message).to.equal("langchain-vcr: unknown option.");
    expect(captureStderr(() => log.warn("langchain-vcr: warning: big")).text).to.equal("langchain-vcr: warning: big\n");
  });

  it("warn and note write one prefixed line; note is silent under LANGCHAIN_VCR_QUIET, warn is not", () => {
    const quiet = process.env.LANGCHAIN_VCR_QUIET;
    try {
      delete process.env.LANGCHAIN_VCR_QUIET;
      expect(captureStderr(() => log.warn("warning: big")).text).to.equal("langchain-vcr: warning: big\n");
      expect(captureStderr(() => log.note("recorded a new chat fixture\n")).text).to.equal("langchain-vcr: recorded a new chat fixture\n");
      process.env.LANGCHAIN_VCR_QUIET = "1";
      expect(captureStderr(() => log.note("recorded")).text).to.equal("");
      expect(captureStderr(() => log.warn("warning: big")).text).to.equal("langchain-vcr: warning: big\n");
    } finally {
      if (quiet === undefined) delete process.env.LANGCHAIN_VCR_QUIET;
      else process.env.LANGCHAIN_VCR_QUIET = quiet;
    }
  });

  it("a config error that stops a run is written with its prefix once, and the process exits 1", () => {
    const out = captureStderr(() =>
      exitOnConfigError(() => {
        throw new VcrConfigError(`"bogus" is not a valid mode (env LANGCHAIN_VCR_MODE).`);
      }),
    );
    expect(out.text).to.equal(`langchain-vcr: "bogus" is not a valid mode (env LANGCHAIN_VCR_MODE).\n  The test run was stopped before any test ran.\n`);
    expect(out.exit).to.equal(1);
  });
});
