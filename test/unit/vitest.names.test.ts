import { expect } from "chai";
import { vitestTitle, VITEST_VERSION_ENV } from "../../src/vitest/names";

/** Tasks shaped as vitest 4.1 and 5 hand them to a setup file's hooks: a file, a describe, a test. */
const file = { name: "test/a.test.mjs", type: "suite", filepath: "/p/test/a.test.mjs", fullTestName: undefined };
const suite = { name: "chat", type: "suite", suite: file, fullTestName: "chat" };
const test = { name: "asks", type: "test", suite, fullTestName: "chat > asks" };
const topLevel = { name: "alone", type: "test", suite: file, fullTestName: "alone" };

describe("vitestTitle: a test's name as the running vitest's -t matches it", () => {
  it("vitest 4 matches the names joined by spaces", () => {
    expect(vitestTitle(test, "4.1.12")).to.equal("chat asks");
    expect(vitestTitle(topLevel, "4.1.12")).to.equal("alone");
  });

  it("vitest 5 matches the full name, suites joined by ' > '", () => {
    expect(vitestTitle(test, "5.1.2")).to.equal("chat > asks");
    expect(vitestTitle(topLevel, "5.1.2")).to.equal("alone");
  });

  it("follows the release that changed -t (5.0.0-rc.1), not the major: 5.0.0's betas and rc.0 match as vitest 4", () => {
    for (const v of ["5.0.0-beta.7", "5.0.0-rc.0", "4.1.12", "5.0.0-alpha.1"]) expect(vitestTitle(test, v), v).to.equal("chat asks");
    for (const v of ["5.0.0-rc.1", "5.0.0-rc.4", "5.0.0", "5.1.0-beta.1", "6.0.0-beta.1"]) expect(vitestTitle(test, v), v).to.equal("chat > asks");
  });

  it("without a version (the plugin's main-process hook did not run), or a task without a full name, vitest 4's", () => {
    expect(vitestTitle(test, undefined)).to.equal("chat asks");
    expect(vitestTitle(test, "not a version")).to.equal("chat asks");
    expect(vitestTitle({ name: "asks", type: "test", suite }, "5.1.2")).to.equal("chat asks");
  });

  it("reads the version the plugin put in the environment by default", () => {
    const before = process.env[VITEST_VERSION_ENV];
    try {
      process.env[VITEST_VERSION_ENV] = "5.0.0";
      expect(vitestTitle(test)).to.equal("chat > asks");
      delete process.env[VITEST_VERSION_ENV];
      expect(vitestTitle(test)).to.equal("chat asks");
    } finally {
      if (before === undefined) delete process.env[VITEST_VERSION_ENV];
      else process.env[VITEST_VERSION_ENV] = before;
    }
  });
});
