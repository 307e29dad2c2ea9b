/** A failed test's recording that tests beside it replayed: kept, handed over, or undone (runner/sharedRecordings.ts). */
import { expect } from "chai";
import { createdIn, forgetShared, settleShared, usedIn } from "../../src/runner/sharedRecordings";
import { Scope } from "../../src/scope";

const FILE = "/fixtures/a.json";

function created(title: string): Scope {
  const s = new Scope(title);
  s.created.add(FILE);
  createdIn(FILE);
  return s;
}
function end(s: Scope, failed: boolean): ReturnType<typeof settleShared> {
  s.ended = true;
  s.outcome = failed ? "failed" : "passed";
  return settleShared(s, failed);
}

describe("recordings shared by tests running at the same time", () => {
  beforeEach(forgetShared);
  it("nobody else used it: the failed test's to undo; it is no longer tracked", () => {
    const a = created("a");
    expect(end(a, true)).to.deep.equal([]);
    const b = new Scope("b");
    usedIn(FILE, () => b);
    expect(b.usedFromOthers).to.equal(undefined);
  });

  it("used by a test that passed first: kept, with that test's title", () => {
    const a = created("a");
    const b = new Scope("b");
    usedIn(FILE, () => b);
    expect([...b.usedFromOthers!]).to.deep.equal([FILE]);
    end(b, false);
    expect(end(a, true)).to.deep.equal([{ file: FILE, passedWith: "b", handedTo: [] }]);
  });

  it("used by tests still running: handed to each; the first to pass keeps it for all; a later failure does not undo it", () => {
    const a = created("a");
    const b = new Scope("b");
    const c = new Scope("c");
    usedIn(FILE, () => b);
    usedIn(FILE, () => c);
    usedIn(FILE, () => a); // the creator's own use is not sharing
    const shared = end(a, true);
    expect(shared.map((s) => [s.file, s.passedWith, s.handedTo.map((t) => t.title)])).to.deep.equal([[FILE, undefined, ["b", "c"]]]);
    expect([b.created.has(FILE), c.created.has(FILE)]).to.deep.equal([true, true]);
    end(b, false);
    expect(c.created.has(FILE), "kept for good once b passed").to.equal(false);
    expect(end(c, true)).to.deep.equal([]);
  });

  it("handed over, and every holder fails: the last one undoes it", () => {
    const a = created("a");
    const b = new Scope("b");
    usedIn(FILE, () => b);
    end(a, true);
    expect(b.created.has(FILE)).to.equal(true);
    expect(end(b, true)).to.deep.equal([]); // nobody else used it: b's clean-up deletes it
  });

  it("a runner that does not say how the test ended (jest, settled by its reporter): nothing handed over", () => {
    const a = created("a");
    const b = new Scope("b");
    usedIn(FILE, () => b);
    a.ended = true;
    expect(settleShared(a, undefined)).to.deep.equal([]);
    expect(b.created.has(FILE)).to.equal(false);
    forgetShared();
  });

  it("written again by a test beside it (record_always) that is still running: handed over, never put back to the failed test's bytes", () => {
    const a = created("a");
    const b = new Scope("b");
    b.overwritten.set(FILE, Buffer.from("a's recording"));
    usedIn(FILE, () => b);
    end(a, true);
    expect([b.created.has(FILE), b.overwritten.has(FILE), b.received?.has(FILE)]).to.deep.equal([true, false, true]);
  });

  it("jest (the outcome unknown at the test's end): still tracked for a later test of the file, until forgetShared", () => {
    const a = created("a");
    a.ended = true;
    expect(settleShared(a, undefined)).to.deep.equal([]);
    const b = new Scope("b"); // runs after a, replays its recording
    usedIn(FILE, () => b);
    expect([...(b.usedFromOthers ?? [])]).to.deep.equal([FILE]);
    forgetShared();
    const c = new Scope("c");
    usedIn(FILE, () => c);
    expect(c.usedFromOthers).to.equal(undefined);
  });
});
