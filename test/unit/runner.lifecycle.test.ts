/** appendNote: the live-call note joins a failed test's error where runners print it. */
import { expect } from "chai";
import { appendNote } from "../../src/diagnose/appendNote";

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
