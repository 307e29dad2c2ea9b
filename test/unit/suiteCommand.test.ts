import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { suiteRerecordCommand } from "../../src/diagnose/suiteCommand";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";
import { withEnv } from "../helpers/env";

describe("suiteRerecordCommand: the whole-suite re-record command a fix line gives", () => {
  after(removeTmpDirs);

  function project(pkg: unknown): string {
    const dir = tmpDir("vcr-suitecmd-");
    if (pkg !== undefined) fs.writeFileSync(path.join(dir, "package.json"), typeof pkg === "string" ? pkg : JSON.stringify(pkg));
    return dir;
  }

  it("is `npm test` when the nearest package.json has a test script, from a sub-directory too", () => {
    const dir = project({ scripts: { test: "vitest run" } });
    const sub = path.join(dir, "packages", "app");
    fs.mkdirSync(sub, { recursive: true });
    expect(suiteRerecordCommand(dir)).to.equal("LANGCHAIN_VCR_MODE=record_or_replay npm test");
    expect(suiteRerecordCommand(sub)).to.equal("LANGCHAIN_VCR_MODE=record_or_replay npm test");
  });

  it("is `yarn test` / `pnpm test` when that package manager runs this (npm_config_user_agent)", () => {
    const dir = project({ scripts: { test: "vitest run" } });
    const saved = process.env.npm_config_user_agent;
    try {
      process.env.npm_config_user_agent = "yarn/4.18.1 npm/? node/v20.20.2 linux x64";
      expect(suiteRerecordCommand(dir)).to.equal("LANGCHAIN_VCR_MODE=record_or_replay yarn test");
      process.env.npm_config_user_agent = "pnpm/10.34.9 npm/? node/v20.20.2 linux x64";
      expect(suiteRerecordCommand(dir)).to.equal("LANGCHAIN_VCR_MODE=record_or_replay pnpm test");
      delete process.env.npm_config_user_agent;
      expect(suiteRerecordCommand(dir)).to.equal("LANGCHAIN_VCR_MODE=record_or_replay npm test");
    } finally {
      if (saved === undefined) delete process.env.npm_config_user_agent;
      else process.env.npm_config_user_agent = saved;
    }
  });

  it("carries the run's NODE_OPTIONS (a string model's --experimental-vm-modules under jest), without a debugger's preload (trial 41)", () => {
    const dir = project({ scripts: { test: "jest" } });
    const options = (value: string) => withEnv({ NODE_OPTIONS: value }, () => suiteRerecordCommand(dir));
    expect(options("--experimental-vm-modules --require /home/u/.vscode/js-debug/bootloader.js")).to.equal(
      "NODE_OPTIONS=--experimental-vm-modules LANGCHAIN_VCR_MODE=record_or_replay npm test",
    );
    expect(options("--import tsx --no-warnings")).to.equal('NODE_OPTIONS="--import tsx --no-warnings" LANGCHAIN_VCR_MODE=record_or_replay npm test');
  });

  it("never suggests `npm test` where npm would answer 'Missing script' or run npm init's placeholder", () => {
    const generic = "LANGCHAIN_VCR_MODE=record_or_replay <your test command>";
    expect(suiteRerecordCommand(project({ name: "x" }))).to.equal(generic);
    expect(suiteRerecordCommand(project({ scripts: { test: 'echo "Error: no test specified" && exit 1' } }))).to.equal(generic);
    expect(suiteRerecordCommand(project("{ not json"))).to.equal(generic);
    // the nearest package.json decides, as for npm: one without the script above one with it
    const outer = project({ scripts: { test: "mocha" } });
    const inner = path.join(outer, "inner");
    fs.mkdirSync(inner);
    fs.writeFileSync(path.join(inner, "package.json"), JSON.stringify({ name: "inner" }));
    expect(suiteRerecordCommand(inner)).to.equal(generic);
  });
});
