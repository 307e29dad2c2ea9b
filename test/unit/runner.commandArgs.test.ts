/** The config options of a vitest or jest command line that a miss's command to record a test again carries. */
import { expect } from "chai";
import { commandArgsOf } from "../../src/runner/commandArgs";

const VITEST = ["/usr/bin/node", "/p/node_modules/vitest/vitest.mjs"];
const JEST = ["/usr/bin/node", "/p/node_modules/jest/bin/jest.js"];

describe("commandArgsOf: the options that choose the config, with their values", () => {
  it("vitest: -c/--config, -r/--root, --dir, --project, --mode, in either spelling; nothing else", () => {
    const argv = [
      ...VITEST,
      "run",
      "-c",
      "vitest.llm.config.ts",
      "--maxWorkers=2",
      "test/a.test.ts",
      "--root=packages/app",
      "--project",
      "llm",
      "--reporter",
      "verbose",
    ];
    expect(commandArgsOf("vitest", argv)).to.deep.equal(["-c", "vitest.llm.config.ts", "--root=packages/app", "--project", "llm"]);
    expect(commandArgsOf("vitest", [...VITEST, "--dir", "src", "-r", "app", "--mode", "e2e", "--config=v.mts"])).to.deep.equal([
      "--dir",
      "src",
      "-r",
      "app",
      "--mode",
      "e2e",
      "--config=v.mts",
    ]);
    // --r is no option; a test name after -t is not one either; nothing after --
    expect(commandArgsOf("vitest", [...VITEST, "--r", "x", "-t", "--config", "--", "-c", "y"])).to.deep.equal([]);
  });
  it("jest: -c/--config, --rootDir, and --selectProjects/--projects with every value up to the next option", () => {
    const argv = [
      ...JEST,
      "--ci",
      "-c",
      "jest.e2e.config.js",
      "--selectProjects",
      "api",
      "llm",
      "--maxWorkers=2",
      "--root-dir",
      "pkg",
      "--testNamePattern",
      "-c",
    ];
    expect(commandArgsOf("jest", argv)).to.deep.equal(["-c", "jest.e2e.config.js", "--selectProjects", "api", "llm", "--root-dir", "pkg"]);
    // a config option with no value left is dropped, not printed half
    expect(commandArgsOf("jest", [...JEST, "--config"])).to.deep.equal([]);
    // setup files given on the command line, where vcr.install() may be
    expect(commandArgsOf("jest", [...JEST, "--setupFilesAfterEnv", "./vcr-setup.js", "--ci"])).to.deep.equal(["--setupFilesAfterEnv", "./vcr-setup.js"]);
  });
  it("none when the runner was started from a script of the user's (a programmatic run: its arguments are not the runner's)", () => {
    expect(commandArgsOf("vitest", ["/usr/bin/node", "/p/scripts/run-tests.mjs", "-c", "x"])).to.deep.equal([]);
    expect(commandArgsOf("jest", [...VITEST, "-c", "x"])).to.deep.equal([]);
    // a path that merely holds the word is not the runner's bin
    expect(commandArgsOf("jest", ["/usr/bin/node", "/home/u/jest-tests/run.js", "-c", "x"])).to.deep.equal([]);
    expect(commandArgsOf("jest", ["/usr/bin/node", "/p/node_modules/.bin/jest", "-c", "x"])).to.deep.equal(["-c", "x"]);
  });
});
