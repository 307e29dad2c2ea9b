import { expect } from "chai";
import { NARROWING_OPTIONS, narrowingOptionsIn, narrowingReason } from "../../src/runner/narrowingArgs";

describe("narrowingOptionsIn: command-line options that leave test files out", () => {
  it("finds jest's in camelCase or kebab-case, with or without =value, once each, in the documented spelling", () => {
    const argv = ["--maxWorkers=2", "--testPathIgnorePatterns", "b.test", "--test-path-ignore-patterns=c", "--select-projects", "unit", "--ci"];
    expect(narrowingOptionsIn(argv, NARROWING_OPTIONS.jest)).to.deep.equal(["--testPathIgnorePatterns", "--selectProjects"]);
    expect(narrowingOptionsIn(["--testRegex=x", "--roots", "src"], NARROWING_OPTIONS.jest)).to.deep.equal(["--testRegex", "--roots"]);
  });

  it("finds vitest's, and nothing in a plain run, after --, or in a value that only looks like one", () => {
    expect(narrowingOptionsIn(["run", "--exclude", "test/b.test.mjs", "--project=web"], NARROWING_OPTIONS.vitest)).to.deep.equal(["--exclude", "--project"]);
    expect(narrowingOptionsIn(["run", "--maxWorkers=2", "--reporter=dot"], NARROWING_OPTIONS.vitest)).to.deep.equal([]);
    expect(narrowingOptionsIn(["run", "--", "--exclude"], NARROWING_OPTIONS.vitest)).to.deep.equal([]);
    expect(narrowingOptionsIn(["run", "-t", "exclude"], NARROWING_OPTIONS.vitest)).to.deep.equal([]);
  });

  it("says what was given and how to make it the suite's", () => {
    expect(narrowingReason([])).to.equal(undefined);
    expect(narrowingReason(["--exclude"])).to.equal(
      "--exclude on the command line left test files out, so this may be a subset of the suite (set it in the config to make it the suite's)",
    );
  });
});
