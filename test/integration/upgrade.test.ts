/**
 * Upgrading from 0.1.0: the committed fixture set in test/fixtures-0.1.0/ (written with the
 * 0.1.0 canonical form) is never read as it is — every miss says so and names `migrate` —
 * and replays with 0 requests after one `langchain-vcr migrate` (the built CLI, a child
 * process). migrate is idempotent and leaves damaged and newer-than-known fixtures byte for byte.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { requestHash } from "../../src/canonical/json";
import { Vcr, VcrMissError } from "../../src/index";
import { formatFixture } from "../../src/store/format";
import { validateFixtures } from "../../src/validate";
import { cli } from "../helpers/cliRun";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { interceptNotes } from "../helpers/notes";
import { datedBack, fixtureFiles } from "../helpers/tmp";
import { runCalls } from "../fixtures-0.1.0/calls";

const SET = path.join(__dirname, "../fixtures-0.1.0");

/** The 0.1.0 fixtures, as committed before this run started. */
function copySet(dir: string): void {
  const files = fs.readdirSync(path.join(SET, "cassettes"));
  for (const f of files) fs.copyFileSync(path.join(SET, "cassettes", f), path.join(dir, f));
  datedBack(dir, files);
}

function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .sort()
      .map((f) => [f, fs.readFileSync(path.join(dir, f), "utf8")]),
  );
}

describe("upgrade: a 0.1.0 fixture directory", function () {
  this.timeout(60000);
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("is not read as it is: a miss says older fixtures are present and names npx langchain-vcr migrate", async () => {
    copySet(dir);
    const err = await openai(fake, new Vcr({ dir, mode: "replay_only" }).cache, { temperature: 0 })
      .invoke([new HumanMessage("What is the capital of France?")])
      .catch((e) => e);
    expect(err).to.be.instanceOf(VcrMissError);
    expect(err.message).to.contain(
      "7 fixture(s) in this directory were written by an older langchain-vcr and are never read — this very request is recorded, in the older form, in ",
    );
    expect(err.message).to.contain(`Upgrade them offline (no model call): npx langchain-vcr migrate ${JSON.stringify(dir)}`);
    // the nearest is that older copy: no empty list of differences
    expect(err.message).to.match(/nearest recorded chat fixture: .+[0-9a-f]{64}\.json, the same request in an older form\.\n/);
    expect(err.message).not.to.contain("which differs at:");
    expect(fake.count()).to.equal(0);
  });

  it("record_or_replay records it again, with a note that names migrate", async () => {
    copySet(dir);
    const notes: string[] = [];
    const restore = interceptNotes((n) => notes.push(n));
    const quiet = process.env.LANGCHAIN_VCR_QUIET; // the suite's plugin set-up silences notes
    delete process.env.LANGCHAIN_VCR_QUIET;
    try {
      await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache, { temperature: 0 }).invoke([new HumanMessage("What is the capital of France?")]);
    } finally {
      restore();
      if (quiet !== undefined) process.env.LANGCHAIN_VCR_QUIET = quiet;
    }
    expect(fake.count()).to.equal(1);
    expect(notes).to.have.length(1);
    expect(notes[0]).to.match(
      /the same request was recorded by an older langchain-vcr in .+[0-9a-f]{64}\.json, which is never read\.\n {2}Upgrade older fixtures offline instead of recording them again: npx langchain-vcr migrate /,
    );
  });

  it("validate reports each older fixture with the fix; stats counts them and show says so", async () => {
    copySet(dir);
    const stats = await cli(["stats", dir]);
    expect(stats.stdout).to.contain("(7 of an older schema version, never read: run langchain-vcr migrate)");
    const show = await cli(["show", path.join(dir, fixtureFiles(dir)[0])]);
    expect(show.stdout).to.contain("  schema:   1, older than this langchain-vcr's 2: never read until you run npx langchain-vcr migrate\n");
    const problems = await validateFixtures(dir);
    expect(problems).to.have.length(7);
    for (const p of problems)
      expect(p.problem).to.match(
        /^was written by an older langchain-vcr \(schemaVersion 1; this one writes 2\), so no lookup reads it\. Upgrade it offline, with no model call: npx langchain-vcr migrate /,
      );
  });

  it("replays every call with 0 requests after one migrate; a second migrate changes nothing", async () => {
    copySet(dir);
    const first = await cli(["migrate", dir]);
    expect(first.code, first.stderr).to.equal(0);
    expect(first.stdout.match(/^ {2}[0-9a-f]{64}\.json → [0-9a-f]{64}\.json$/gm)).to.have.length(7);
    expect(first.stdout).to.contain("upgraded 7 fixture(s) to schemaVersion 2, 0 already current.");
    expect(fixtureFiles(dir)).to.have.length(7);
    expect(await validateFixtures(dir)).to.deep.equal([]);
    const after = snapshot(dir);
    const second = await cli(["migrate", dir]);
    expect(second.code).to.equal(0);
    expect(second.stdout).to.contain("upgraded 0 fixture(s) to schemaVersion 2, 7 already current.");
    expect(snapshot(dir)).to.deep.equal(after);

    const vcr = new Vcr({ dir, mode: "replay_only" });
    const out = await runCalls(vcr, fake);
    expect(fake.count()).to.equal(0);
    expect(vcr.stats()).to.deep.include({ replayed: 7, recorded: 0, missed: 0 });
    expect(JSON.parse(JSON.stringify(out))).to.deep.equal(JSON.parse(fs.readFileSync(path.join(SET, "outputs.json"), "utf8")));
    expect(snapshot(dir)).to.deep.equal(after);
  });

  it("names each migrated fixture as the current version records the same call", async () => {
    copySet(dir);
    expect((await cli(["migrate", dir])).code).to.equal(0);
    const migrated = fixtureFiles(dir);
    const fresh = path.join(dir, "fresh");
    await runCalls(new Vcr({ dir: fresh, mode: "record_or_replay" }), fake);
    expect(fixtureFiles(fresh)).to.deep.equal(migrated);
  });

  it("writes nothing outside dir: a fixture symlinked from elsewhere is upgraded into dir, its target left as it was", async () => {
    const elsewhere = path.join(path.dirname(dir), path.basename(dir) + "-elsewhere");
    fs.mkdirSync(elsewhere);
    try {
      const [name] = fs.readdirSync(path.join(SET, "cassettes"));
      fs.copyFileSync(path.join(SET, "cassettes", name), path.join(elsewhere, name));
      fs.symlinkSync(path.join(elsewhere, name), path.join(dir, name));
      const outside = snapshot(elsewhere);
      const run = await cli(["migrate", dir]);
      expect(run.code, run.stderr).to.equal(0);
      expect(snapshot(elsewhere)).to.deep.equal(outside);
      const files = fs.readdirSync(dir);
      expect(files).to.have.length(1);
      expect(files[0]).to.not.equal(name);
      expect(fs.lstatSync(path.join(dir, files[0])).isSymbolicLink()).to.equal(false);
    } finally {
      fs.rmSync(elsewhere, { recursive: true, force: true });
    }
  });

  it("leaves a damaged, a redacted and a newer-than-known fixture byte for byte, lists them and exits 1", async () => {
    copySet(dir);
    const [a, b] = fixtureFiles(dir).map((f) => path.join(dir, f));
    fs.writeFileSync(a, fs.readFileSync(a, "utf8").replace('"request": {', '"request": { "edited": true,'));
    const redacted = JSON.parse(fs.readFileSync(b, "utf8"));
    fs.writeFileSync(b, formatFixture({ ...redacted, redacted: true }));
    const request = { tool: "x", args: {} };
    const newer = path.join(dir, requestHash("tool", request, 9) + ".json");
    fs.writeFileSync(
      newer,
      formatFixture({
        schemaVersion: 9,
        kind: "tool",
        hash: path.basename(newer, ".json"),
        recordedAt: "2030-01-01T00:00:00.000Z",
        request,
        response: { result: 1 },
      }),
    );
    const before = { a: fs.readFileSync(a, "utf8"), b: fs.readFileSync(b, "utf8"), newer: fs.readFileSync(newer, "utf8") };
    const run = await cli(["migrate", dir]);
    expect(run.code).to.equal(1);
    expect(run.stdout).to.contain("upgraded 5 fixture(s) to schemaVersion 2, 0 already current, 3 left as they were.");
    expect(run.stderr).to.contain("3 fixture(s) in");
    expect(run.stderr).to.contain(`${path.basename(a)}: has a "request" that does not hash to its name`);
    expect(run.stderr).to.contain(`${path.basename(b)}: is marked "redacted"`);
    expect(run.stderr).to.contain(`${path.basename(newer)}: has schemaVersion 9, newer than this langchain-vcr understands (2)`);
    expect({ a: fs.readFileSync(a, "utf8"), b: fs.readFileSync(b, "utf8"), newer: fs.readFileSync(newer, "utf8") }).to.deep.equal(before);
    expect(fs.readdirSync(dir).filter((f) => !/^[0-9a-f]{64}\.json$/.test(f) && f !== "fresh")).to.deep.equal([]);
  });
});
