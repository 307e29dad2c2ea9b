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

  it("a change of whitespace alone is shown, quoted with its escapes, never as an unmarked line", () => {
    expect(wordChange("Cite the ids.\n\nContext: x", "Cite the ids.\n Context: x", false)).to.equal('Cite the ids. [-"\\n\\n"-] {+"\\n "+} Context: x');
    expect(wordChange("Cite the ids.\n\nContext: x", "Cite the ids.\n Context: x", true)).to.equal('Cite the ids. ~~"\\\\n\\\\n"~~ **"\\\\n "** Context: x');
    expect(wordChange("one  two", "one two", false)).to.equal('one [-"  "-] {+" "+} two');
  });
});
