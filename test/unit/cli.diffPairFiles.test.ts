/**
 * diff pairs a re-recorded fixture whose input file changed (an image replaced, a PDF edited)
 * with its old self: the request's title, which pairs fixtures asking the same question, names a
 * file block by its type and mime type, not its digest (src/kinds/text.ts, `digests: false`).
 * Found by the verification of pkg41: "0 changed, 10 added, 10 removed" for a re-recorded set.
 */
import { expect } from "chai";
import { computeDiff } from "../../src/cli/diffCompute";
import { renderJson, renderMarkdown, renderText } from "../../src/cli/diffRender";
import type { Fixture } from "../../src/store/fixture";
import { chatFixture } from "../helpers/chatFixture";
import type { FixtureFile } from "../../src/store/reader";

function imageAsked(sha256: string, answer: string): Fixture {
  const request = {
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: "What is in this image?" },
          { type: "image", source: { type: "base64", media_type: "image/png", data: { sha256 } } },
        ],
      },
    ],
    model: "claude-haiku-4-5",
  };
  return chatFixture(request, answer, "2026-12-06T00:00:00.000Z");
}

function side(fixtures: Fixture[]) {
  const files = new Map<string, FixtureFile>(fixtures.map((f) => [`${f.hash}.json`, { file: `${f.hash}.json`, text: "", bytes: 0, fixture: f }]));
  return { files, label: (name: string) => `cassettes/${name}` };
}

describe("diff: a fixture re-recorded with another image", () => {
  it("is one changed fixture (the image's digest and the answer), not one added and one removed", () => {
    const before = imageAsked("a".repeat(64), "A red pixel.");
    const after = imageAsked("b".repeat(64), "A blue pixel.");
    const report = computeDiff(side([before]), side([after]), []);
    expect(report.added).to.deep.equal([]);
    expect(report.removed).to.deep.equal([]);
    expect(report.changed).to.have.length(1);
    expect(report.changed[0].request.map((d) => d.path)).to.deep.equal(["messages[0].content[1].source.data.sha256"]);
    expect(report.changed[0].title).to.include("[image image/png]");
  });
});

describe("diff: added fixtures that edit one still there (before prune)", () => {
  const ask = (system: string, user: string): Fixture =>
    chatFixture(
      {
        messages: [
          { role: "system", content: system },
          { role: "user", content: user },
        ],
        model: "gpt-4o-mini",
      },
      "Bonjour",
    );

  it("each unchanged fixture is the edit of one added fixture at most, the nearest: a test copied beside an edit of its source is added (trial 38)", () => {
    const old = ask("You translate English to French.", "Good morning");
    const edited = ask("You translate English to formal French.", "Good morning");
    const copied = ask("You translate English to formal French.", "Good evening");
    const report = computeDiff(side([]), side([edited, copied]), [], () => side([old]));
    const byFile = new Map(report.added.map((a) => [a.file, a.editOf?.file]));
    expect(byFile.get(`cassettes/${edited.hash}.json`)).to.equal(`cassettes/${old.hash}.json`);
    expect(byFile.get(`cassettes/${copied.hash}.json`), "the copy: added, an edit of nothing still there").to.equal(undefined);
  });
});

describe("diff: a new fixture no test used in the last complete run (trial 58 M3)", () => {
  const ask = (q: string, at: string): Fixture => chatFixture({ messages: [{ role: "user", content: q }], model: "gpt-4o-mini" }, "ok", at);
  const started = "2026-12-06T12:00:00.000Z";

  it("is marked unused when recorded before that run started (a deleted test's), changed or added; not one recorded since, nor one the run used", () => {
    const old = ask("Summarize the release notes.", "2026-12-01T00:00:00.000Z");
    const orphan = ask("Summarize the release notes briefly.", "2026-12-06T11:00:00.000Z"); // recorded in a watch session, its test deleted later
    const added = ask("Translate the release notes.", "2026-12-06T11:30:00.000Z");
    const since = ask("Count the release notes.", "2026-12-06T13:00:00.000Z"); // a filtered run's, after
    const used = ask("Summarize the changelog.", "2026-12-06T11:00:00.000Z");
    const inUse = (name: string) => name === `${used.hash}.json`;
    const report = computeDiff(side([old]), side([orphan, added, since, used]), [], undefined, inUse, started);
    expect(report.changed.map((c) => [c.after, c.unused])).to.deep.equal([[`cassettes/${orphan.hash}.json`, true]]);
    const unused = new Map(report.added.map((a) => [a.file, a.unused]));
    expect(unused.get(`cassettes/${added.hash}.json`)).to.equal(true);
    expect(unused.get(`cassettes/${since.hash}.json`)).to.equal(undefined);
    expect(unused.get(`cassettes/${used.hash}.json`)).to.equal(undefined);
    const text = renderText(report, { dir: "cassettes", base: "HEAD" });
    expect(text).to.include(`  cassettes/${old.hash}.json → cassettes/${orphan.hash}.json\n  no test used it in the last complete run on this machine`);
    expect(renderMarkdown(report, { dir: "cassettes", base: "HEAD" }))
      .to.include("| changed (unused) |")
      .and.include("_(unused): no test used it");
    expect(JSON.parse(renderJson(report)).unused).to.have.members([`cassettes/${orphan.hash}.json`, `cassettes/${added.hash}.json`]);
    // no ledger: nothing is marked
    expect(computeDiff(side([old]), side([orphan]), []).changed[0].unused).to.equal(undefined);
  });
});
