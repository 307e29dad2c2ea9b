/**
 * A workspace run from its root with a relative `dir`: the Vcr looks in the root's directory of
 * that name, and the miss names the package's directory that holds this very fixture, and how
 * to anchor `dir` (28a: `dir: "cassettes"` at the root missed, its fixture in packages/app/cassettes).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { Vcr } from "../../src/index";
import { VcrConfigError, VcrMissError } from "../../src/errors";
import { Usage } from "../../src/runner/usage";
import { fixtureInAPackage } from "../../src/diagnose/messages";
import { withFakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { currentTest, testScope } from "../../src/scope";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { stderrOf } from "../helpers/notes";
import { noteUnanswered } from "../../src/runner/caughtMisses";
import { endTest } from "../../src/runner/lifecycle";

const ELSEWHERE = "which does not exist yet, while";

describe("a miss at a workspace's root names the package's directory that holds the fixture", () => {
  after(removeTmpDirs);

  it('run from the root with dir: "cassettes", the miss names packages/app/cassettes/<hash>.json and the anchored dir (0 requests)', () =>
    withFakeProvider({}, async (fake) => {
      const root = tmpDir("vcr-ws-");
      const app = path.join(root, "packages", "app");
      fs.mkdirSync(app, { recursive: true });
      fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }));
      fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app" }));
      const inPackage = path.join(app, "cassettes");
      await openai(fake, new Vcr({ dir: inPackage, mode: "record_or_replay" }).cache).invoke("hello from the app");
      const [recorded] = fixtureFiles(inPackage);
      const saved = process.cwd();
      process.chdir(root);
      try {
        const before = fake.count();
        const err = await openai(fake, new Vcr({ dir: "cassettes", mode: "replay_only" }).cache)
          .invoke("hello from the app")
          .catch((e) => e);
        expect(err).to.be.instanceOf(VcrMissError);
        expect(fake.count()).to.equal(before);
        expect(err.message).to.include(
          `  ${path.join("packages", "app", "cassettes", recorded)} holds this very fixture: a relative dir is resolved against the working directory (${process.cwd()}), here a workspace's root.`,
        );
        expect(err.message).to.include(
          `  Fix it: anchor dir to the file that makes the Vcr, so it names ${path.join("packages", "app", "cassettes")} from wherever the tests run, e.g. in a setup file in ${path.join("packages", "app")}:\n` +
            `    new Vcr({ dir: path.join(import.meta.dirname, "cassettes") })`,
        );
        expect(err.message).to.not.include("To record it"); // it would write a second copy at the root
        // another request, recorded nowhere: no package named
        const other = await openai(fake, new Vcr({ dir: "cassettes", mode: "replay_only" }).cache)
          .invoke("never recorded")
          .catch((e) => e);
        expect(other.message).to.not.include("holds this very fixture");
        expect(other.message).to.include("To record it");
      } finally {
        process.chdir(saved);
      }
      expect(fixtureInAPackage(path.join(root, "cassettes", recorded), root)).to.equal(path.join("packages", "app", "cassettes", recorded));
      expect(fixtureInAPackage(path.join(app, "cassettes", recorded), root), "the package's own file").to.equal(undefined);
      expect(fixtureInAPackage(path.join(path.dirname(root), recorded), root), "a file not below the working directory").to.equal(undefined);
    }));

  it('run from the package test/ directory with dir: "cassettes": recording stops each call the package holds before it is made (trial 45; trial 36a warned and went on), record_always too; replay_only names it; the fixture moved there replays; an absolute dir is left alone', () =>
    withFakeProvider({}, async (fake) => {
      const root = tmpDir("vcr-sub-");
      fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "app" }));
      fs.mkdirSync(path.join(root, "test"));
      await openai(fake, new Vcr({ dir: path.join(root, "cassettes"), mode: "record_or_replay" }).cache).invoke("hello from the app");
      const [recorded] = fixtureFiles(path.join(root, "cassettes"));
      const inTest = path.join(root, "test", "cassettes");
      const saved = process.cwd();
      process.chdir(path.join(root, "test"));
      try {
        const miss = await openai(fake, new Vcr({ dir: "cassettes", mode: "replay_only" }).cache)
          .invoke("hello from the app")
          .catch((e) => e);
        expect(miss).to.be.instanceOf(VcrMissError);
        expect(miss.message).to.include(
          `  ${path.join(root, "cassettes", recorded)} holds this very fixture: a relative dir is resolved against the working directory (${path.join(root, "test")}), here a directory inside the package at ${root}.`,
        );
        const before = fake.count();
        const vcr = new Vcr({ dir: "cassettes", mode: "record_or_replay" });
        const usage = new Usage().start();
        const stopped = await openai(fake, vcr.cache)
          .invoke("hello from the app")
          .catch((e) => e)
          .finally(() => usage.stop());
        expect(stopped).to.be.instanceOf(VcrConfigError);
        expect(stopped.message).to.include(
          `this chat request from ChatOpenAI (model "gpt-4o-mini") was not made: it would be recorded into ${inTest}, while ${path.join(root, "cassettes", recorded)} holds this very request's fixture.\n` +
            `  test:     `,
        );
        expect(stopped.message).to.include(
          `  The relative dir "cassettes" was resolved against the working directory (${path.join(root, "test")}), a directory inside the package at ${root}: `,
        );
        expect(stopped.message).to.include(
          `Fix it: anchor dir to the file that makes the Vcr, so it names ${path.join(root, "cassettes")} from wherever the tests run`,
        );
        expect(stopped.message).to.include(`Or run the tests from ${root}. If cassettes is the directory you mean, move the fixtures there: mv `);
        expect(fake.count() - before, "no request").to.equal(0);
        expect(usage.totals.missed).to.equal(1);
        // a test that fails on it is not told its error "was caught" (trial 46 F4): the error says it all
        const failing = testScope("fails on the stop");
        noteUnanswered(failing, { kind: "chat", describe: "x", file: path.join(inTest, recorded), mode: "record_or_replay", how: "stopped" });
        expect(await stderrOf(async () => endTest(failing, true, stopped))).to.not.include("had no fixture");
        expect(await stderrOf(async () => endTest(testScope("caught it"), true, new Error("expected an answer")))).to.equal(""); // nothing unanswered: no note
        const caught = testScope("caught the stop");
        noteUnanswered(caught, { kind: "chat", describe: "x", file: path.join(inTest, recorded), mode: "record_or_replay", how: "stopped" });
        const caughtNote = await stderrOf(async () => endTest(caught, true, new Error("expected an answer")));
        expect(caughtNote, "the control: another error").to.include("had no fixture");
        // its fix is where the tests run or dir, not recording again from here, which stops again (review 57 M2)
        expect(caughtNote).to.include("Fix: run the tests from the package's root, or anchor dir").and.not.include("record it:");
        expect(fs.existsSync(inTest), "nothing written").to.equal(false);
        // its test is told at its end when the error is caught, as for a miss
        expect(currentTest()?.unanswered?.map((u) => u.how)).to.deep.equal(["missed", "stopped"]); // the replay_only miss above, then this
        currentTest()!.unanswered = []; // this test means it
        // another question, recorded nowhere: recorded as usual, into the directory it then creates; the held one still stops
        await openai(fake, vcr.cache).invoke("another question");
        expect(fake.count() - before).to.equal(1);
        expect(fixtureFiles(inTest)).to.have.length(1);
        expect(
          await openai(fake, vcr.cache)
            .invoke("hello from the app")
            .catch((e) => e),
        ).to.be.instanceOf(VcrConfigError);
        // record_always too (recheck N1: it recorded the whole suite into test/cassettes)
        const always = await openai(fake, new Vcr({ dir: "cassettes", mode: "record_always" }).cache)
          .invoke("hello from the app")
          .catch((e) => e);
        expect(always).to.be.instanceOf(VcrConfigError);
        expect(fake.count() - before).to.equal(1);
        currentTest()!.unanswered = [];
        // an absolute dir is where its author put it: recorded, a second copy
        await openai(fake, new Vcr({ dir: inTest, mode: "record_or_replay" }).cache).invoke("hello from the app");
        expect(fake.count() - before).to.equal(2);
        fs.rmSync(path.join(inTest, recorded));
        // the fixture moved to the directory meant: it replays
        fs.renameSync(path.join(root, "cassettes", recorded), path.join(inTest, recorded));
        const sealed = new Vcr({ dir: "cassettes", mode: "replay_only" });
        await openai(fake, sealed.cache).invoke("hello from the app");
        expect(sealed.stats()).to.include({ replayed: 1, missed: 0 });
        expect(fake.count() - before).to.equal(2);
      } finally {
        process.chdir(saved);
      }
    }));

  it("run from a directory inside a workspace package (packages/a/src) whose workspace's root holds the fixture: stopped too, the root's fixture named (0 requests, nothing written)", () =>
    withFakeProvider({}, async (fake) => {
      const root = tmpDir("vcr-ws3-");
      fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }));
      const src = path.join(root, "packages", "a", "src");
      fs.mkdirSync(src, { recursive: true });
      fs.writeFileSync(path.join(root, "packages", "a", "package.json"), JSON.stringify({ name: "a" }));
      await openai(fake, new Vcr({ dir: path.join(root, "cassettes"), mode: "record_or_replay" }).cache).invoke("hello from the root's suite");
      const [recorded] = fixtureFiles(path.join(root, "cassettes"));
      const saved = process.cwd();
      process.chdir(src);
      try {
        const before = fake.count();
        const miss = await openai(fake, new Vcr({ dir: "cassettes", mode: "replay_only" }).cache)
          .invoke("hello from the root's suite")
          .catch((e) => e);
        expect(miss).to.be.instanceOf(VcrMissError);
        expect(miss.message).to.include(`  ${path.join(root, "cassettes", recorded)} holds this very fixture`);
        const stopped = await openai(fake, new Vcr({ dir: "cassettes", mode: "record_or_replay" }).cache)
          .invoke("hello from the root's suite")
          .catch((e) => e);
        expect(stopped).to.be.instanceOf(VcrConfigError);
        expect(stopped.message).to.include(
          `was not made: it would be recorded into ${path.join(src, "cassettes")}, while ${path.join(root, "cassettes", recorded)} holds this very request's fixture.`,
        );
        expect(stopped.message).to.include(`Or run the tests from ${root}.`);
        expect(fake.count() - before, "no request").to.equal(0);
        expect(fs.existsSync(path.join(src, "cassettes")), "nothing written").to.equal(false);
        currentTest()!.unanswered = []; // this test means it
      } finally {
        process.chdir(saved);
      }
    }));

  it("from a workspace package's own root, another package holding the same request (a shared prompt) is said once, and the call is recorded into the package's own directory", () =>
    withFakeProvider({}, async (fake) => {
      const root = tmpDir("vcr-ws2-");
      fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "mono", private: true, workspaces: ["packages/*"] }));
      for (const name of ["a", "b"]) {
        fs.mkdirSync(path.join(root, "packages", name), { recursive: true });
        fs.writeFileSync(path.join(root, "packages", name, "package.json"), JSON.stringify({ name }));
      }
      await openai(fake, new Vcr({ dir: path.join(root, "packages", "b", "cassettes"), mode: "record_or_replay" }).cache).invoke("a shared prompt");
      const saved = process.cwd();
      process.chdir(path.join(root, "packages", "a"));
      try {
        const before = fake.count();
        const vcr = new Vcr({ dir: "cassettes", mode: "record_or_replay" });
        const said = await stderrOf(async () => {
          await openai(fake, vcr.cache).invoke("a shared prompt");
          await openai(fake, vcr.cache).invoke("another prompt");
        });
        expect(said.split(ELSEWHERE)).to.have.length(2); // once
        expect(said).to.include("unless that is meant (two packages asking the same)");
        expect(fake.count() - before).to.equal(2);
        expect(fixtureFiles(path.join(root, "packages", "a", "cassettes"))).to.have.length(2);
      } finally {
        process.chdir(saved);
      }
    }));

  it("no warning from a standalone package whose parent directory happens to hold a cassettes/ of its own, nor once the directory exists", () =>
    withFakeProvider({}, async (fake) => {
      const parent = tmpDir("vcr-parent-");
      const pkg = path.join(parent, "pkg");
      fs.mkdirSync(pkg);
      fs.writeFileSync(path.join(pkg, "package.json"), JSON.stringify({ name: "pkg" }));
      await openai(fake, new Vcr({ dir: path.join(parent, "cassettes"), mode: "record_or_replay" }).cache).invoke("hello");
      const saved = process.cwd();
      process.chdir(pkg);
      try {
        const said = await stderrOf(() => openai(fake, new Vcr({ dir: "cassettes", mode: "record_or_replay" }).cache).invoke("hello"));
        expect(said).to.not.include(ELSEWHERE);
        expect(fixtureFiles(path.join(pkg, "cassettes"))).to.have.length(1);
      } finally {
        process.chdir(saved);
      }
    }));
});
