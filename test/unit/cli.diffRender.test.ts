/** How `diff` shows a changed text (the changed words with a few words of context, never the whole prompt), and fixtures re-recorded unchanged. */
import { expect } from "chai";
import { COMMENT_LIMIT, renderJson, renderMarkdown, renderText, wordChange } from "../../src/cli/diffRender";
import type { DiffReport } from "../../src/cli/diffCompute";
import { KINDS } from "../../src/kinds";
import type { VcrDifference } from "../../src/errors";

describe("diff: changed words in context", () => {
  const long = (w: string) =>
    `You are a support agent for Acme. Answer in two sentences, politely, and cite the order number. The customer writes: my parcel is ${w} and I want my money back today please.`;

  it("shows the changed word with six words either side, marked in text and in markdown", () => {
    expect(wordChange(long("late"), long("lost"), false)).to.equal("… The customer writes: my parcel is [-late-] {+lost+} and I want my money back …");
    expect(wordChange(long("late"), long("lost"), true)).to.equal("… The customer writes: my parcel is ~~late~~ **lost** and I want my money back …");
  });

  it("a changed run of thousands of characters (base64 of a PDF whose price changed, an image replaced) shows the characters that differ, cut, not both copies", () => {
    const pdf = (price: string) =>
      Buffer.from(`%PDF-1.4 ${"stream of page content ".repeat(4000)} Total: ${price} EUR ${"more content ".repeat(4000)}`).toString("base64");
    const text = wordChange(`Summarize: ${pdf("99")}`, `Summarize: ${pdf("98")}`, false);
    expect(text).to.match(/^Summarize: …[A-Za-z0-9+/]{20}\[-[A-Za-z0-9+/]{1,4}-\] \{\+[A-Za-z0-9+/]{1,4}\+\}[A-Za-z0-9+/]{20}…$/);
    // a longer price shifts every base64 character after it: the run is cut
    const shifted = wordChange(`Summarize: ${pdf("99")}`, `Summarize: ${pdf("199")}`, false);
    expect(shifted.length).to.be.below(600);
    expect(shifted.match(/more characters\)/g)).to.have.length(2);
    const image = "iVBORw0KGgo".repeat(200000); // 2.2 MB, a 64-character digest instead
    const replaced = wordChange(image, "3b00c19c8bd1b6b4", true);
    expect(replaced.length).to.be.below(600);
    expect(replaced).to.include("(2199800 more characters)").and.include("**3b00c19c8bd1b6b4**");
    // a long run that differs in a short stretch keeps its context; a short one is whole as before
    expect(wordChange("a".repeat(300) + "X" + "b".repeat(300), "a".repeat(300) + "Y" + "b".repeat(300), false)).to.equal(
      `…${"a".repeat(20)}[-X-] {+Y+}${"b".repeat(20)}…`,
    );
  });

  it("shows several edits in one stretch each on its own, unchanged words between them plain (trial 37); a rewrite sharing a word or two stays one change", () => {
    expect(
      wordChange("You are a helpful geography tutor. Answer in one sentence.", "You are a pirate geography tutor. Answer in one short sentence.", false),
    ).to.equal("You are a [-helpful-] {+pirate+} geography tutor. Answer in one {+short+} sentence.");
    expect(
      wordChange("You are a helpful geography tutor. Answer in one sentence.", "You are a pirate geography tutor. Answer in one short sentence.", true),
    ).to.equal("You are a ~~helpful~~ **pirate** geography tutor. Answer in one **short** sentence.");
    const long = (first: string, last: string) => `${first} ${"word ".repeat(20)}${last}`;
    expect(wordChange(long("a", "t"), long("X", "Y"), false)).to.equal("[-a-] {+X+} word word word word word word … word word word word word word [-t-] {+Y+}");
    expect(wordChange("echo: Stream a haiku", "Old pond, a frog jumps", false)).to.equal("[-echo: Stream a haiku-] {+Old pond, a frog jumps+}");
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

describe("diff: fixtures re-recorded with no reviewed difference (record_always over the same answers)", () => {
  const again = (n: number, response: VcrDifference[] = []) => ({ file: `cassettes/${n}.json`, kind: "chat", title: `m: "q${n}"`, request: [], response });
  const report: DiffReport = {
    changed: [],
    added: [],
    removed: [],
    rerecorded: [again(1), again(2, [{ path: "generations[0].text", recorded: "old", requested: "new" }]), again(3)],
    damaged: [],
  };

  it("text lists them on one line each under one heading; one whose answer changed is shown in full", () => {
    const text = renderText(report, { dir: "cassettes", base: "HEAD" });
    expect(text).to.contain("0 changed, 0 added, 0 removed, 3 re-recorded");
    expect(text).to.contain(
      "\nre-recorded with no difference a review shows (2): only what a review leaves out changed (the recording time, ids, provider metadata, reasoning text, the contents of blocks that are not text)\n" +
        '  cassettes/1.json  chat m: "q1"\n  cassettes/3.json  chat m: "q3"\n',
    );
    expect(text).to.contain('\nre-recorded chat m: "q2"\n  cassettes/2.json\n  response generations[0].text: [-old-] {+new+}\n');
    expect(text).to.not.contain("response: same");
  });

  it("markdown gives them one table row and no section; JSON lists each as before", () => {
    const md = renderMarkdown(report, { dir: "cassettes", base: "HEAD" });
    expect(md.match(/\| re-recorded \|/g)).to.have.length(2);
    expect(md).to.contain('| re-recorded | chat | m: "q2" | `response generations[0].text` | `cassettes/2.json` |'); // what changed, in the row
    expect(md).to.contain("| re-recorded | — | 2 fixture(s) with no difference a review shows: only what a review leaves out changed");
    expect(md).to.contain('**chat** m: "q2" (re-recorded)');
    expect(md).to.not.contain('m: "q1" (re-recorded)');
    expect(JSON.parse(renderJson(report)).rerecorded.map((x: { file: string }) => x.file)).to.deep.equal([
      "cassettes/1.json",
      "cassettes/2.json",
      "cassettes/3.json",
    ]);
  });
});

describe("diff: a prompt edit whose recorded answer stayed the same", () => {
  const report: DiffReport = {
    changed: [
      {
        before: "cassettes/a.json",
        after: "cassettes/b.json",
        kind: "chat",
        title: 'm: "Say hi politely"',
        request: [{ path: "messages[0].content", recorded: "Say hi", requested: "Say hi politely" }],
        response: [],
      },
    ],
    added: [],
    removed: [],
    rerecorded: [],
    damaged: [],
  };

  it("says so in text and in markdown: the answer did not change", () => {
    expect(renderText(report, { dir: "cassettes", base: "HEAD" })).to.contain("  request messages[0].content: Say hi {+politely+}\n  response: same\n");
    expect(renderMarkdown(report, { dir: "cassettes", base: "HEAD" })).to.contain("- request `messages[0].content`: Say hi **politely**\n- response: same\n");
  });
});

describe("diff --format markdown: a report too long for a pull-request comment", () => {
  const answer = (n: number) => [
    { path: "generations[0].text", recorded: `The old answer number ${n} `.repeat(6), requested: `The new answer number ${n} `.repeat(6) },
  ];
  const rerecorded = (count: number) =>
    Array.from({ length: count }, (_, n) => ({
      file: `cassettes/${String(n).padStart(64, "0")}.json`,
      kind: "chat",
      title: `gpt-4o-mini: "question ${n}"`,
      request: [],
      response: answer(n),
    }));
  const report = (count: number): DiffReport => ({ changed: [], added: [], removed: [], rerecorded: rerecorded(count), damaged: [] });
  const header = { dir: "cassettes", base: "origin/main..." };

  it("is cut to fit (GitHub refuses a comment over 65,536 characters): the whole table first, then the details that fit, and says what was left out", () => {
    const out = renderMarkdown(report(150), header);
    expect(out.length).to.be.at.most(COMMENT_LIMIT);
    expect(out.match(/^\| re-recorded \|/gm)).to.have.length(150); // every row of the table
    const details = out.match(/^\*\*chat\*\* /gm)?.length ?? 0;
    expect(details).to.be.above(0).and.below(150);
    expect(out).to.match(
      new RegExp(
        `_Cut to fit a pull-request comment: ${150 - details} of 150 changed fixtures' details left out \\(the whole report is \\d+ characters\\)\\. `,
      ),
    );
    expect(out.trimEnd()).to.match(/All of it: the same command with `--format text` or `--format json`\._$/);
  });

  it("a table too long itself keeps the rows that fit and counts the rest; a report that fits is not cut", () => {
    const out = renderMarkdown(report(1500), header);
    expect(out.length).to.be.at.most(COMMENT_LIMIT);
    const rows = out.match(/^\| re-recorded \|/gm)?.length ?? 0;
    expect(rows).to.be.above(100).and.below(1500);
    expect(out).to.include(`_Cut to fit a pull-request comment: ${1500 - rows} of the table's 1500 rows and 1500 of 1500 changed fixtures' details left out`);
    const small = renderMarkdown(report(20), header);
    expect(small).to.not.include("Cut to fit");
    expect(small.match(/^\*\*chat\*\* /gm)).to.have.length(20);
  });
});

describe("diff: an embedding's vector as a review compares it", () => {
  const review = KINDS.embedding.review! as (response: unknown) => any;

  it("a vector of numbers by its size, norm and digest; a base64 one by its length and digest; a change anywhere shows", () => {
    expect(review({ vector: [3, 4] })).to.deep.equal({ vector: { numbers: 2, norm: "5.0000", sha256: review({ vector: [3, 4] }).vector.sha256 } });
    expect(review({ vector: [3, 4] }).vector.sha256)
      .to.match(/^[0-9a-f]{12}$/)
      .and.not.equal(review({ vector: [3, 4.0001] }).vector.sha256);
    const b64 = review({ vector: "AAAAAAAAgD8=" });
    expect(b64.vector.base64Characters).to.equal(12);
    expect(b64.vector.sha256).to.not.equal(review({ vector: "AAAAAAAAAEA=" }).vector.sha256);
    expect(review({ other: 1 })).to.deep.equal({ other: 1 });
  });
});
