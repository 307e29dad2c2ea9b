/** The one rule for optional stored members: chat generations and stream chunks agree on what is absent. */
import { expect } from "chai";
import { AIMessage, AIMessageChunk } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { storeGenerations } from "../../src/adapters/chat/generations";
import { storeChunk } from "../../src/adapters/stream/chunks";
import { isStoredMember } from "../../src/store/members";

describe("stored members: one rule for what is absent", () => {
  it("leaves out undefined, null, [] and {}; keeps everything else, an empty string included", () => {
    expect([undefined, null, [], {}].map(isStoredMember)).to.deep.equal([false, false, false, false]);
    expect(["", 0, false, [0], { a: 1 }, "x"].map(isStoredMember)).to.deep.equal([true, true, true, true, true, true]);
  });

  it('writes no "id": null for a chat generation, as for a stream chunk', () => {
    const message = new AIMessage({ content: "hi" });
    (message as unknown as { id: null }).id = null;
    const stored = storeGenerations([{ text: "hi", message: message as never }]);
    expect(stored.generations[0].message).to.not.have.property("id");
    const chunk = new AIMessageChunk({ content: "hi" });
    (chunk as unknown as { id: null }).id = null;
    expect(storeChunk(new ChatGenerationChunk({ text: "hi", message: chunk })).message).to.not.have.property("id");
  });
});
