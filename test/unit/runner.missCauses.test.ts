import { expect } from "chai";
import { addCauses, missCausesNote, type MissCauses } from "../../src/runner/summary";
import { Usage } from "../../src/runner/usage";
import { emit } from "../../src/scope";

const FIX = "  If the change is meant (a prompt edited, LangChain or a provider package upgraded), record them again";

describe("the summary's roll-up of misses that share their first difference from the nearest fixture", () => {
  it("three misses of one cause are said, with the count and the difference; two are not", () => {
    expect(missCausesNote(new Map([["temperature: (absent) → 0.5", 2]]), 2)).to.equal(undefined);
    const note = missCausesNote(
      new Map([
        ["temperature: (absent) → 0.5", 3],
        ['messages[1].content: "a" → "b"', 1],
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

  it("the most shared first, three at most, and how many more there are", () => {
    const causes: MissCauses = new Map([
      ["b", 3],
      ["a", 3],
      ["c", 9],
      ["d", 4],
      ["e", 5],
    ]);
    const lines = missCausesNote(causes, 30)!.split("\n");
    expect(lines[0]).to.include("24 of the 30 misses");
    expect(lines.slice(1, 5)).to.deep.equal(["  9× c", "  5× e", "  4× d", "  … and 2 more shared difference(s), of 6 misses"]);
  });

  it("counts from other processes add up; what is not a count adds nothing; past 200 causes a new one is not kept, a known one still counts", () => {
    const into: MissCauses = new Map([["x", 1]]);
    addCauses(into, Object.entries({ x: 2, y: "3", z: "many", w: -1, v: null }));
    expect([...into]).to.deep.equal([
      ["x", 3],
      ["y", 3],
    ]);
    const full: MissCauses = new Map(Array.from({ length: 200 }, (_, i) => [`cause ${i}`, 1] as [string, number]));
    addCauses(full, [
      ["new", 5],
      ["cause 7", 4],
    ]);
    expect(full.has("new")).to.equal(false);
    expect(full.get("cause 7")).to.equal(5);
  });

  it("a test process's usage counts each miss's cause, and takes another's (its JSON report, a damaged one too)", () => {
    const usage = new Usage().start();
    try {
      for (let i = 0; i < 2; i++) emit({ type: "missed", kind: "chat", mode: "replay_only", cause: "temperature: (absent) → 0.5" });
      emit({ type: "missed", kind: "chat", mode: "replay_only" }); // no nearest: no cause
    } finally {
      usage.stop();
    }
    expect(usage.totals.missed).to.equal(3);
    usage.add({ totals: { missed: 2 } as never, dirs: [], missCauses: JSON.parse(JSON.stringify({ "temperature: (absent) → 0.5": 2 })) });
    usage.add({ totals: {} as never, dirs: [], missCauses: "garbage" as never });
    expect([...usage.missCauses]).to.deep.equal([["temperature: (absent) → 0.5", 4]]);
    expect(missCausesNote(usage.missCauses, usage.totals.missed)).to.include("4 of the 5 misses");
  });
});
