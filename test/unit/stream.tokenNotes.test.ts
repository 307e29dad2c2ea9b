import { expect } from "chai";
import { AIMessageChunk } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { TokenNotes } from "../../src/adapters/stream/tokenNotes";

const chunk = (text: string) => new ChatGenerationChunk({ text, message: new AIMessageChunk(text) });
const tokens = (notes: TokenNotes) => notes.recorded.map((s) => [s.text, s.newToken ?? null]);

describe("stream tokens while recording: which chunk each handleLLMNewToken call belongs to", () => {
  it("a call naming its chunk, after the chunk was yielded: that chunk (the token kept only when it differs from the text)", () => {
    const notes = new TokenNotes();
    const [a, b] = [chunk("a"), chunk("b")];
    notes.add(a);
    notes.note("a", { prompt: 0, completion: 0 }, a);
    notes.add(b);
    notes.note("B!", undefined, b);
    expect(tokens(notes)).to.deep.equal([
      ["a", { idx: { completion: 0, prompt: 0 } }],
      ["b", { token: "B!" }],
    ]);
  });

  it("a call naming its chunk before the chunk is yielded: kept until it comes; a chunk never called for has none", () => {
    const notes = new TokenNotes();
    const [a, b, c] = [chunk("a"), chunk("b"), chunk("c")];
    notes.note("a", undefined, a);
    notes.add(a);
    notes.add(b);
    notes.note("c", undefined, c);
    notes.note("c again", undefined, c);
    notes.add(c);
    expect(tokens(notes)).to.deep.equal([
      ["a", {}],
      ["b", null],
      ["c", {}],
    ]);
  });

  it("a call with no chunk (ChatGoogleGenerativeAI): the chunk just yielded, marked bare; one before any chunk is dropped", () => {
    const notes = new TokenNotes();
    notes.note("early", undefined, undefined);
    notes.add(chunk("x"));
    notes.note("x", undefined, undefined);
    notes.add(chunk("y"));
    notes.note("y2", { prompt: 0 }, undefined);
    expect(tokens(notes)).to.deep.equal([
      ["x", { bare: true }],
      ["y", { token: "y2", idx: { prompt: 0 }, bare: true }],
    ]);
  });

  it("the first call for a chunk wins: a second, with or without the chunk, changes nothing", () => {
    const notes = new TokenNotes();
    const a = chunk("a");
    notes.add(a);
    notes.note("first", undefined, a);
    notes.note("second", undefined, a);
    notes.note("bare", undefined, undefined);
    const b = chunk("b");
    notes.add(b);
    notes.note("bare b", undefined, undefined);
    notes.note("named b", undefined, b);
    expect(tokens(notes)).to.deep.equal([
      ["a", { token: "first" }],
      ["b", { token: "bare b", bare: true }],
    ]);
  });
});
