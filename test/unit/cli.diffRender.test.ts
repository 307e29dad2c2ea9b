/** How `diff` shows a changed text: the changed words with a few words of context, never the whole prompt. */
import { expect } from "chai";
import { wordChange } from "../../src/cli/diffRender";

describe("diff: changed words in context", () => {
  const long = (w: string) =>
    `You are a support agent for Acme. Answer in two sentences, politely, and cite the order number. The customer writes: my parcel is ${w} and I want my money back today please.`;

  it("shows the changed word with six words either side, marked in text and in markdown", () => {
    expect(wordChange(long("late"), long("lost"), false)).to.equal("… The customer writes: my parcel is [-late-] {+lost+} and I want my money back …");
    expect(wordChange(long("late"), long("lost"), true)).to.equal("… The customer writes: my parcel is ~~late~~ **lost** and I want my money back …");
  });

  it("shows an insertion, a deletion, and escapes markdown", () => {
    expect(wordChange("Say hi", "Say hi twice", false)).to.equal("Say hi {+twice+}");
    expect(wordChange("Say hi twice", "Say hi", false)).to.equal("Say hi [-twice-]");
    expect(wordChange("use *bold*", "use `code`", true)).to.equal("use ~~\\*bold\\*~~ **\\`code\\`**");
    // GitHub renders $…$ as math
    expect(wordChange("refund $25 now", "refund $30 now", true)).to.equal("refund ~~\\$25~~ **\\$30** now");
  });
});
