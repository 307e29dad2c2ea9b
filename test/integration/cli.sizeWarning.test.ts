/**
 * The size warning (`sizeWarningBytes`), through the library (no CLI involved): writing a
 * fixture at or above the limit prints one warning to stderr naming the file and its size;
 * the fixture is still written; `0` disables it.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { Vcr } from "../../src/index";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { stderrOf } from "../helpers/notes";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";

const warnings = (text: string) => text.split("\n").filter((l) => l.startsWith("langchain-vcr: warning: fixture "));

describe("size warning (sizeWarningBytes)", () => {
  let fake: FakeProvider;
  beforeEach(async () => {
    fake = await startFakeProvider();
  });
  afterEach(async () => {
    await fake.close();
    removeTmpDirs();
  });

  it("warns once, naming the file and its size, for a fixture at the limit; still writes it; not below the limit", async () => {
    // Learn the exact size of this recording with the warning off, then record it again at and below that size.
    const probe = tmpDir("vcr-size-");
    await openai(fake, new Vcr({ dir: probe, mode: "record_or_replay", sizeWarningBytes: 0 }).cache).invoke("size me");
    const size = fs.statSync(path.join(probe, fixtureFiles(probe)[0])).size;

    const at = tmpDir("vcr-size-");
    const vcr = new Vcr({ dir: at, mode: "record_or_replay", sizeWarningBytes: size });
    const model = openai(fake, vcr.cache);
    const first = await stderrOf(() => model.invoke("size me"));
    const file = path.join(at, fixtureFiles(at)[0]);
    expect(fs.statSync(file).size).to.equal(size);
    expect(warnings(first)).to.deep.equal([
      `langchain-vcr: warning: fixture ${file} is ${size} bytes (sizeWarningBytes is ${size}). ` +
        `It was written; large fixtures make reviews hard — consider a smaller prompt or response.`,
    ]);
    const replay = await stderrOf(() => model.invoke("size me"));
    expect(warnings(replay)).to.deep.equal([], "a replay writes nothing, so it warns about nothing");
    expect(fake.count()).to.equal(2, "probe + first recording; the replay never reached the fake");

    const below = tmpDir("vcr-size-");
    const quiet = await stderrOf(() => openai(fake, new Vcr({ dir: below, mode: "record_or_replay", sizeWarningBytes: size + 1 }).cache).invoke("size me"));
    expect(warnings(quiet)).to.deep.equal([]);
    expect(fixtureFiles(below)).to.have.length(1);
  });

  it("warns by default at 256 KiB, and 0 disables the warning", async () => {
    const big = "x".repeat(300_000);
    const byDefault = tmpDir("vcr-size-");
    fake.enqueue({ content: big });
    const warned = await stderrOf(() => openai(fake, new Vcr({ dir: byDefault, mode: "record_or_replay" }).cache).invoke("big answer please"));
    const file = path.join(byDefault, fixtureFiles(byDefault)[0]);
    expect(warnings(warned)).to.have.length(1);
    expect(warnings(warned)[0]).to.include(`fixture ${file} is ${fs.statSync(file).size} bytes (sizeWarningBytes is 262144)`);

    const off = tmpDir("vcr-size-");
    fake.enqueue({ content: big });
    const silent = await stderrOf(() => openai(fake, new Vcr({ dir: off, mode: "record_or_replay", sizeWarningBytes: 0 }).cache).invoke("big answer please"));
    expect(warnings(silent)).to.deep.equal([]);
    const written = path.join(off, fixtureFiles(off)[0]);
    expect(fs.statSync(written).size).to.be.greaterThan(262144, "the big fixture was written anyway");
    expect(fake.count()).to.equal(2);
  });
});
