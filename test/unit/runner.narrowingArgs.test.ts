import { expect } from "chai";
import { NARROWING_OPTIONS, narrowingOptionsIn, narrowingReason } from "../../src/runner/narrowingArgs";

describe("narrowingOptionsIn: command-line options that leave test files out", () => {
  it("finds jest's in camelCase or kebab-case, with or without =value, once each, in the documented spelling", () => {
    const argv = ["--maxWorkers=2", "--testPathIgnorePatterns", "b.test", "--test-path-ignore-patterns=c", "--select-projects", "unit", "--ci"];
    expect(narrowingOptionsIn(argv, NARROWING_OPTIONS.jest)).to.deep.equal(["--testPathIgnorePatterns", "--selectProjects"]);
    expect(narrowingOptionsIn(["--testRegex=x", "--roots", "src", "--testMatch", "**/*.spec.js"], NARROWING_OPTIONS.jest)).to.deep.equal([
      "--testRegex",
      "--roots",
      "--testMatch",
    ]);
    expect(narrowingOptionsIn(["--projects", "p1", "--rootDir=sub"], NARROWING_OPTIONS.jest)).to.deep.equal(["--projects", "--rootDir"]);
  });

  it("finds vitest's: --project is not --projects, --root is not --rootDir", () => {
    expect(narrowingOptionsIn(["run", "--exclude", "test/b.test.mjs", "--project=web"], NARROWING_OPTIONS.vitest)).to.deep.equal(["--exclude", "--project"]);
    expect(narrowingOptionsIn(["run", "--root", "pkg", "--dir=src"], NARROWING_OPTIONS.vitest)).to.deep.equal(["--root", "--dir"]);
    expect(narrowingOptionsIn(["run", "--projects", "x", "--rootDir", "y"], NARROWING_OPTIONS.vitest)).to.deep.equal([]);
    expect(narrowingOptionsIn(["run", "-r", "pkg"], NARROWING_OPTIONS.vitest)).to.deep.equal(["-r"]); // --root's short form
    expect(narrowingOptionsIn(["run", "--r", "pkg", "-t", "x"], NARROWING_OPTIONS.vitest)).to.deep.equal([]);
  });

  it("finds nothing in a plain run, after --, or in a test name that looks like an option (-t --exclude)", () => {
    expect(narrowingOptionsIn(["run", "--maxWorkers=2", "--reporter=dot"], NARROWING_OPTIONS.vitest)).to.deep.equal([]);
    expect(narrowingOptionsIn(["run", "--", "--exclude"], NARROWING_OPTIONS.vitest)).to.deep.equal([]);
    expect(narrowingOptionsIn(["run", "-t", "--exclude"], NARROWING_OPTIONS.vitest)).to.deep.equal([]);
    expect(narrowingOptionsIn(["--testNamePattern", "--roots", "--ci"], NARROWING_OPTIONS.jest)).to.deep.equal([]);
    expect(narrowingOptionsIn(["-t=x", "--exclude", "b"], NARROWING_OPTIONS.vitest)).to.deep.equal(["--exclude"]);
  });

  it("says what was given and where the config says it instead", () => {
    expect(narrowingReason([], NARROWING_OPTIONS.vitest)).to.equal(undefined);
    expect(narrowingReason(["--exclude"], NARROWING_OPTIONS.vitest)).to.equal(
      "--exclude on the command line left test files out, so this may be a subset of the suite (to make it the suite, set test.exclude in vitest.config)",
    );
    expect(narrowingReason(["--selectProjects", "--ignoreProjects"], NARROWING_OPTIONS.jest)).to.equal(
      "--selectProjects, --ignoreProjects on the command line left test files out, so this may be a subset of the suite (to make it the suite, set only the projects to run in jest.config's projects)",
    );
  });
});
