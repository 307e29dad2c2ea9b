/** appendNote: the live-call note joins a failed test's error where runners print it. */
import { expect } from "chai";
import { appendNote } from "../../src/diagnose/appendNote";
import { liveCallNote } from "../../src/runner/lifecycle";
import { Scope } from "../../src/scope";

describe("appendNote (the live-call note on a failed test's error)", () => {
  it("appends to the message and to the message's copy at the head of the stack; the frames stay", () => {
    const err = new Error("Timeout of 1500ms exceeded.");
    const frames = (err.stack ?? "").split("\n").slice(1);
    appendNote(err, "langchain-vcr: the note");
    expect(err.message).to.equal("Timeout of 1500ms exceeded.\nlangchain-vcr: the note");
    expect(err.stack).to.equal(["Error: Timeout of 1500ms exceeded.", "langchain-vcr: the note", ...frames].join("\n"));
  });

  it("an error whose stack nobody read yet gets the note once (V8 writes the stack out on its first read)", () => {
    const err = new Error("Timeout");
    appendNote(err, "NOTE");
    expect((err.stack ?? "").split("\n").slice(0, 3)).to.deep.equal(["Error: Timeout", "NOTE", (err.stack ?? "").split("\n")[2]]);
    expect((err.stack ?? "").split("\n")[2]).to.match(/^\s+at /);
  });

  it("puts the note after the message, never inside the error's name (TypeError: Type, Error: E)", () => {
    for (const err of [new TypeError("Type"), new Error("E"), new RangeError("Range")]) {
      void err.stack;
      appendNote(err, "NOTE");
      expect((err.stack ?? "").split("\n").slice(0, 2)).to.deep.equal([`${err.name}: ${err.message.split("\n")[0]}`, "NOTE"]);
    }
  });

  it("takes the message literally in the stack ($& and $1 are not replacement patterns)", () => {
    const err = new Error("costs $& and $1");
    appendNote(err, "note");
    expect((err.stack ?? "").split("\n").slice(0, 2)).to.deep.equal(["Error: costs $& and $1", "note"]);
  });

  it("leaves alone an error whose message cannot be set (a DOMException) or that has none", () => {
    const dom = new DOMException("The operation was aborted.", "AbortError");
    expect(() => appendNote(dom, "note")).to.not.throw();
    expect(dom.message).to.equal("The operation was aborted.");
    const odd = { message: 42 };
    appendNote(odd, "note");
    expect(odd.message).to.equal(42);
    expect(() => appendNote(undefined, "note")).to.not.throw();
  });
});

describe("liveCallNote (a test that ended with a live recording call in flight)", () => {
  const inFlight = (outcome?: "passed" | "failed") => {
    const scope = new Scope("streams a poem");
    scope.live.set("h1", { describe: 'ChatOpenAI (model "gpt-4o-mini")', kind: "chat_stream", hash: "h1", file: "/x/h1.json" });
    if (outcome) scope.outcome = outcome;
    return scope;
  };
  it("a failed or timed-out test: the call, its file, and the provider that did not answer in time", () => {
    const note = liveCallNote(inFlight("failed"))!;
    expect(note).to.include('test "streams a poem" ended while 1 live recording call(s) had not answered:');
    expect(note).to.include('  - chat_stream request from ChatOpenAI (model "gpt-4o-mini")').and.include("    expected: /x/h1.json");
    expect(note).to.include("The provider did not answer (or, for a stream, finish) within the test's timeout");
  });
  it("a test that passed: the call was not awaited or its stream not read to its end, not a timeout", () => {
    const note = liveCallNote(inFlight("passed"))!;
    expect(note).to.include("the test passed before the call answered (a call not awaited, or a stream not read to its end)");
    expect(note).not.to.include("timeout");
  });
});
