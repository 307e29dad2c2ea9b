/**
 * The installed LangChain packages against npm's lock file (`src/diagnose/staleInstall.ts`): a pull
 * of an upgrade without `npm ci` (user trial 40) is named in a miss, the summary's roll-up and the
 * first recording, with the fix.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { staleInstall } from "../../src/diagnose/staleInstall";
import { failedLiveMessage, missMessage } from "../../src/diagnose/messages";
import { missCausesNote } from "../../src/runner/missCauses";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";
import { Vcr } from "../../src/index";
import { startFakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { stderrOf } from "../helpers/notes";

function project(installed: Record<string, string>, locked: Record<string, string>): string {
  const dir = tmpDir("vcr-stale-");
  fs.mkdirSync(path.join(dir, ".git")); // the repository's top: the lock file is not looked for above it
  const packages: Record<string, object> = { "": { name: "app" } };
  for (const [name, version] of Object.entries(locked)) packages[`node_modules/${name}`] = { version };
  packages["node_modules/zod"] = { version: "4.0.0" }; // not LangChain's: never compared
  fs.writeFileSync(path.join(dir, "package-lock.json"), JSON.stringify({ lockfileVersion: 3, packages }));
  for (const [name, version] of Object.entries({ ...installed, zod: "3.0.0" })) {
    fs.mkdirSync(path.join(dir, "node_modules", name), { recursive: true });
    fs.writeFileSync(path.join(dir, "node_modules", name, "package.json"), JSON.stringify({ name, version }));
  }
  return dir;
}

describe("staleInstall: LangChain packages that are not the lock file's", () => {
  after(removeTmpDirs);

  it("names each installed package whose version is not the lock file's, and the fix; none when they match or there is no npm lock file", () => {
    const stale = project(
      { "@langchain/core": "1.2.0", "@langchain/openai": "1.6.0", langchain: "1.0.6" },
      { "@langchain/core": "1.4.0", "@langchain/openai": "1.6.0", langchain: "1.5.14", "@langchain/anthropic": "1.5.11" },
    );
    expect(staleInstall(stale)).to.equal(
      "the installed LangChain packages are not the ones package-lock.json names: @langchain/core 1.2.0 (the lock file: 1.4.0), langchain 1.0.6 (the lock file: 1.5.14).",
    );
    const below = path.join(stale, "test");
    fs.mkdirSync(below);
    expect(staleInstall(below)).to.include("names: @langchain/core 1.2.0"); // from a subdirectory too
    expect(staleInstall(project({ "@langchain/core": "1.4.0" }, { "@langchain/core": "1.4.0" }))).to.equal(undefined);
    const noLock = tmpDir("vcr-stale-");
    fs.mkdirSync(path.join(noLock, ".git"));
    expect(staleInstall(noLock)).to.equal(undefined);
  });

  it("is a line of a miss's message and of the summary's roll-up, run from such a project", () => {
    const stale = project({ "@langchain/core": "1.2.0" }, { "@langchain/core": "1.4.0" });
    const cwd = process.cwd();
    process.chdir(stale);
    try {
      const miss = missMessage({ kind: "chat", hash: "a".repeat(64), file: "cassettes/x.json", request: {}, mode: "replay_only", describe: "ChatOpenAI" });
      expect(miss).to.include("\n  the installed LangChain packages are not the ones package-lock.json names: @langchain/core 1.2.0 (the lock file: 1.4.0).");
      // the fix says to install first, and to record only what still misses (trial 54 L2: "To record it, run…" followed the line above)
      const fix =
        /^ {2}Fix it: a pull without an install\? Install from the lock file \(npm ci\) and run the tests again: .* Only what still misses then is to record (.*?): /;
      expect(miss.split("\n").pop()).to.match(fix);
      expect(miss).to.not.include("To record it");
      const tool = missMessage({ kind: "tool", hash: "b".repeat(64), file: "cassettes/y.json", request: {}, mode: "replay_only", describe: "tool lookup" });
      expect(fix.exec(tool.split("\n").pop()!)?.[1]).to.equal("once for real");
      // the roll-up and a record_or_replay miss whose live call failed (review 62 M4)
      const causes = new Map([["max_tokens: 16384 → 2048", { misses: 4, requests: new Set(["a", "b", "c", "d"]) }]]);
      const rollUp = missCausesNote(causes, 5)!;
      expect(rollUp).to.include("\n  the installed LangChain packages are not the ones package-lock.json names");
      expect(rollUp.split("\n").pop()).to.match(fix);
      expect(rollUp).to.not.include("If the change is meant");
      const failed = failedLiveMessage({
        kind: "chat",
        hash: "a".repeat(64),
        file: "cassettes/x.json",
        request: {},
        mode: "record_or_replay",
        describe: "ChatOpenAI",
        searched: true,
      });
      expect(failed.split("\n").slice(-2)[0]).to.match(fix);
      expect(failed).to.not.include("To record it");
    } finally {
      process.chdir(cwd);
    }
    expect(missCausesNote(new Map([["x", { misses: 3, requests: new Set(["a", "b", "c"]) }]]), 3)).to.not.include("installed LangChain packages");
  });

  it("a recording there warns once (each process's first), naming the fixture: a plain local run would otherwise record the old packages' requests in silence", async () => {
    const stale = project({ "@langchain/core": "1.2.0" }, { "@langchain/core": "1.4.0" });
    const fake = await startFakeProvider();
    const cwd = process.cwd();
    process.chdir(stale);
    try {
      const vcr = new Vcr({ dir: path.join(stale, "cassettes"), mode: "record_or_replay" });
      const text = await stderrOf(async () => {
        await openai(fake, vcr.cache).invoke("first question");
        await openai(fake, vcr.cache).invoke("second question");
      });
      expect(text.split("the installed LangChain packages are not the ones package-lock.json names")).to.have.length(2);
      expect(text).to.match(/langchain-vcr: recorded \S+cassettes\/[0-9a-f]{64}\.json, but the installed LangChain packages/);
      expect(fake.count()).to.equal(2);
    } finally {
      process.chdir(cwd);
      await fake.close();
    }
  });
});
