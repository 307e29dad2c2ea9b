/**
 * A test's fake timers (`vi.useFakeTimers()`, jest's, sinon's) replace `globalThis.Date`: a fixture
 * recorded meanwhile is stamped with the real time, so `diff` still tells a re-recording (a new
 * `recordedAt`) from a hand edit (the same one), and two recordings under one frozen clock differ.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { Vcr } from "../../src/index";
import type { FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { openai } from "../helpers/models";
import { fixtureFiles } from "../helpers/tmp";

const FROZEN = Date.parse("2025-01-01T00:00:00.000Z");

/** What fake timers put on globalThis: a Date whose "now" is frozen. */
class FrozenDate extends Date {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(FROZEN);
    else super(...(args as [string]));
  }
  static override now(): number {
    return FROZEN;
  }
}

describe("recording under a test's fake clock", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("stamps recordedAt with the real time, not the frozen one", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const before = Date.now();
    const real = globalThis.Date;
    globalThis.Date = FrozenDate as DateConstructor;
    try {
      expect(new Date().toISOString()).to.equal("2025-01-01T00:00:00.000Z"); // the fake is in place
      await openai(fake, vcr.cache).invoke("asked under a frozen clock");
    } finally {
      globalThis.Date = real;
    }
    const files = fixtureFiles(dir);
    expect(files).to.have.length(1);
    const recordedAt = Date.parse(JSON.parse(fs.readFileSync(path.join(dir, files[0]), "utf8")).recordedAt);
    expect(recordedAt).to.be.at.least(before).and.at.most(Date.now());
    expect(fake.count()).to.equal(1);
  });

  it("keeps the machine's clock when a fake one (marked isFake, as @sinonjs/fake-timers marks it) was installed before langchain-vcr loaded", () => {
    const script = [
      `class FakeDate extends Date { constructor(...a) { super(...(a.length ? a : [${FROZEN}])); } static now() { return ${FROZEN}; } }`,
      `FakeDate.isFake = true;`,
      `globalThis.Date = FakeDate;`,
      `const { realNow } = require(${JSON.stringify(path.join(__dirname, "../../src/clock"))});`,
      `process.stdout.write(String(realNow()));`,
    ].join("\n");
    const before = Date.now();
    const out = execFileSync(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", script], { encoding: "utf8" });
    expect(Number(out)).to.be.at.least(before).and.at.most(Date.now());
  });
});
