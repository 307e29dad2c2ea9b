import { expect } from "chai";
import * as path from "node:path";
import { addCauses, causesRecord, missCausesNote, requestKey, type MissCauses } from "../../src/runner/missCauses";
import { usageSummaryLine } from "../../src/runner/summary";
import { Usage } from "../../src/runner/usage";
import { emit, enterTest, leaveTest } from "../../src/scope";
import { Vcr } from "../../src/index";
import { VcrMissError } from "../../src/errors";
import { offlineOpenAI, openai } from "../helpers/models";
import { startFakeProvider } from "../helpers/fakeProvider";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";

const FIX = "  If the change is meant (a prompt edited; LangChain, a provider package or langchain-vcr upgraded or downgraded), record them again";

/** `requests` distinct requests, missed `misses` times in all. */
function cause(misses: number, requests = misses): { misses: number; requests: Set<string> } {
  return { misses, requests: new Set(Array.from({ length: requests }, (_, i) => `r${i}`)) };
}

/** What a test process counts when `test` makes the request `hash` and it misses with `diff`. */
function missIn(test: string, hash: string, diff = "temperature: (absent) → 0.5"): void {
  enterTest(test, "/p/test/a.test.ts");
  try {
    emit({ type: "missed", kind: "chat", mode: "replay_only", cause: diff, hash });
  } finally {
    leaveTest();
  }
}

describe("the summary's roll-up of misses that share their first difference from the nearest fixture", () => {
  it("three requests of one cause are said, with the count and the difference; two are not", () => {
    expect(missCausesNote(new Map([["temperature: (absent) → 0.5", cause(2)]]), 2)).to.equal(undefined);
    const note = missCausesNote(
      new Map([
        ["temperature: (absent) → 0.5", cause(3)],
        ['messages[1].content: "a" → "b"', cause(1)],
      ]),
      5,
    )!;
    const lines = note.split("\n");
    expect(lines[0]).to.equal(
      "langchain-vcr: 3 of the 5 misses share their first difference from the nearest recorded fixture (each test's error shows the rest):",
    );
    expect(lines[1]).to.equal("  3× temperature: (absent) → 0.5");
    expect(lines[2]).to.match(/ review the new fixtures: LANGCHAIN_VCR_MODE=record_or_replay \S.*; if not, undo it\.$/);
    expect(lines[2].startsWith(FIX)).to.equal(true);
    expect(lines).to.have.length(3);
  });

  it("run through the package manager from above the package (npm test -w packages/api: INIT_CWD), its command starts in the package, as each test's own does (trial 36b)", () => {
    const saved = process.env.INIT_CWD;
    process.env.INIT_CWD = path.dirname(process.cwd());
    try {
      const note = missCausesNote(new Map([["temperature: 0 → 0.5", cause(3)]]), 3)!;
      expect(note.split("\n")[2]).to.include(` review the new fixtures: cd ${path.basename(process.cwd())} && LANGCHAIN_VCR_MODE=record_or_replay `);
    } finally {
      if (saved === undefined) delete process.env.INIT_CWD;
      else process.env.INIT_CWD = saved;
    }
  });

  it("counts requests, not misses: one request missed on 3 attempts is not rolled up; 3 requests missed on 2 attempts each are, and the line says how many requests", () => {
    expect(missCausesNote(new Map([["temperature: (absent) → 0.5", cause(3, 1)]]), 3)).to.equal(undefined);
    expect(missCausesNote(new Map([["temperature: (absent) → 0.5", cause(5, 2)]]), 5)).to.equal(undefined);
    const lines = missCausesNote(new Map([["temperature: (absent) → 0.5", cause(6, 3)]]), 7)!.split("\n");
    expect(lines[0]).to.include("6 of the 7 misses share their first difference");
    expect(lines[1]).to.equal("  6× temperature: (absent) → 0.5 (3 distinct requests)");
  });

  it("the most shared first (by requests), three at most, and how many more there are", () => {
    const causes: MissCauses = new Map([
      ["b", cause(3)],
      ["a", cause(3)],
      ["c", cause(9)],
      ["d", cause(4)],
      ["e", cause(5)],
      ["f", cause(20, 2)], // one request retried: not shared
    ]);
    const lines = missCausesNote(causes, 50)!.split("\n");
    expect(lines[0]).to.include("24 of the 50 misses");
    expect(lines.slice(1, 5)).to.deep.equal(["  9× c", "  5× e", "  4× d", "  … and 2 more shared difference(s), of 6 misses"]);
  });

  it("a test process counts a request missed again in the same test (a retried attempt) once, the same request in another test apart", () => {
    const usage = new Usage().start();
    try {
      for (let attempt = 0; attempt < 3; attempt++) missIn("retried", "h1");
      emit({ type: "missed", kind: "chat", mode: "replay_only" }); // no nearest: no cause
    } finally {
      usage.stop();
    }
    expect(usage.totals.missed).to.equal(4);
    expect(usageSummaryLine(usage)).to.not.include("share their first difference");
    usage.start();
    try {
      missIn("another", "h1");
      missIn("a third", "h2");
    } finally {
      usage.stop();
    }
    expect(usageSummaryLine(usage)).to.include(
      "langchain-vcr: 5 of the 6 misses share their first difference from the nearest recorded fixture (each test's error shows the rest):\n" +
        "  5× temperature: (absent) → 0.5 (3 distinct requests)\n",
    );
  });

  it("a prompt prefix edited where it is joined to each test's own text is one cause: the edit, not each text around it (trial 44 L3)", async () => {
    const fake = await startFakeProvider();
    const dir = tmpDir("vcr-prefix-");
    const prefix = "Summarise the customer's message in one sentence: ";
    const messages = ["My order 42 arrived broken and I want a refund now, please.", "Where is my parcel? It was due on Monday.", "Cancel my subscription."];
    const usage = new Usage().start();
    try {
      const recording = new Vcr({ dir, mode: "record_or_replay" });
      for (const m of messages) await openai(fake, recording.cache).invoke(prefix + m);
      const sealed = new Vcr({ dir, mode: "replay_only" });
      for (const m of messages) {
        const err = await openai(fake, sealed.cache)
          .invoke(prefix.replace(":", ";") + m)
          .catch((e: unknown) => e);
        expect(err).to.be.instanceOf(VcrMissError);
        expect((err as Error).message).to.include(`messages[0].content: "${prefix}${m}"`); // each error shows its own text
      }
    } finally {
      usage.stop();
      await fake.close();
    }
    expect(fake.count()).to.equal(3);
    expect(usageSummaryLine(usage)).to.include(
      "langchain-vcr: 3 of the 3 misses share their first difference from the nearest recorded fixture (each test's error shows the rest):\n" +
        '  3× messages[0].content: "… in one sentence:…" → "… in one sentence;…"\n',
    );
    removeTmpDirs();
  });

  it("a run whose every lookup missed names the directory it looked in, not '(no fixtures used)' (trial 36b: it read like the wrong directory)", async () => {
    const dir = tmpDir("vcr-missdir-");
    const usage = new Usage().start();
    try {
      const err = await offlineOpenAI(new Vcr({ dir, mode: "replay_only" }).cache)
        .invoke("never recorded")
        .catch((e: unknown) => e);
      expect(err).to.be.instanceOf(VcrMissError);
    } finally {
      usage.stop();
    }
    try {
      expect(usageSummaryLine(usage))
        .to.include(" 1 missed — mode replay_only")
        .and.to.match(new RegExp(`fixtures: ${dir.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`));
    } finally {
      removeTmpDirs();
    }
  });

  it("counts from other processes add up, a request two processes reported once; what is not a count adds nothing; past 200 causes a new one is not kept, a known one still counts", () => {
    const key = requestKey("/p/a.test.ts", "t", "h");
    const into: MissCauses = new Map([["x", { misses: 1, requests: new Set([key]) }]]);
    addCauses(
      into,
      Object.entries({
        x: { misses: 2, requests: [key, "other"] },
        y: { misses: "3", requests: ["a", "b", 7] },
        z: { misses: "many", requests: [] },
        w: { misses: -1, requests: ["c"] },
        v: null,
        u: 4, // the form before requests were counted
      }),
    );
    expect(causesRecord(into)).to.deep.equal({ x: { misses: 3, requests: [key, "other"] }, y: { misses: 3, requests: ["a", "b"] } });
    const full: MissCauses = new Map(Array.from({ length: 200 }, (_, i) => [`cause ${i}`, cause(1)] as [string, ReturnType<typeof cause>]));
    addCauses(full, [
      ["new", { misses: 5, requests: ["n"] }],
      ["cause 7", { misses: 4, requests: ["r1"] }],
    ]);
    expect(full.has("new")).to.equal(false);
    expect(causesRecord(full)["cause 7"]).to.deep.equal({ misses: 5, requests: ["r0", "r1"] });
  });

  it("a usage takes another's (its JSON report, a damaged one too), and one in this process", () => {
    const usage = new Usage().start();
    try {
      missIn("one", "h1");
    } finally {
      usage.stop();
    }
    const other = new Usage().start();
    try {
      missIn("two", "h2");
    } finally {
      other.stop();
    }
    usage.add({ totals: other.totals, dirs: [], missCauses: JSON.parse(JSON.stringify(causesRecord(other.missCauses))) });
    usage.add({ totals: {} as never, dirs: [], missCauses: "garbage" as never });
    usage.add({ totals: other.totals, dirs: [], missCauses: other.missCauses }); // the same request again: still 2
    expect(causesRecord(usage.missCauses)["temperature: (absent) → 0.5"].requests).to.have.length(2);
    missIn("three", "h3"); // not listening: not counted
    const third = new Usage().start();
    try {
      missIn("three", "h3");
    } finally {
      third.stop();
    }
    usage.add(third);
    expect(missCausesNote(usage.missCauses, usage.totals.missed)).to.include("4 of the 4 misses").and.include("(3 distinct requests)");
  });
});
