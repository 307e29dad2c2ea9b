/**
 * Upgrading from 0.3.0 with binary input one level down in a content block (test/fixtures-0.3.0:
 * an Anthropic base64 image, streamed and not, and PDF; OpenAI's input_audio; Google's media
 * block). 0.3.0 keyed and stored those bytes as base64; this release digests them. The 0.3.0
 * fixtures replay with 0 requests and nothing written, under replay_only and record_or_replay;
 * a new recording holds each file's sha256, never its bytes, and a text source stays text (its
 * 0.3.0 fixture is found under its own name).
 */
import { expect } from "chai";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { Vcr } from "../../src/index";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { allBytes, datedBack, fixtureFiles, readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { spec as anthropic } from "../providers/specs/anthropic";
import { spec as google } from "../providers/specs/google";
import type { Fake } from "../providers/fakes/base";
import { PDF, PNG, runCalls, WAV } from "../fixtures-0.3.0/calls";

const SET = path.join(__dirname, "../fixtures-0.3.0");
const OUTPUTS = JSON.parse(fs.readFileSync(path.join(SET, "outputs.json"), "utf8"));

describe("upgrade: 0.3.0 fixtures of binary input one level down in a content block", function () {
  this.timeout(30000);
  let fake: FakeProvider;
  let a: Fake;
  let g: Fake;
  const requests = () => fake.count() + a.count() + g.count();
  before(async () => ([fake, a, g] = await Promise.all([startFakeProvider(), anthropic.start(), google.start()])));
  after(async () => {
    await Promise.all([fake.close(), a.close(), g.close()]);
    removeTmpDirs();
  });

  function copySet(): string {
    const dir = tmpDir();
    const files = fs.readdirSync(path.join(SET, "cassettes"));
    for (const f of files) fs.copyFileSync(path.join(SET, "cassettes", f), path.join(dir, f));
    datedBack(dir, files);
    return dir;
  }

  for (const mode of ["replay_only", "record_or_replay"] as const) {
    it(`replay under ${mode}: the answers 0.3.0 recorded, 0 requests, no fixture written or changed`, async () => {
      const dir = copySet();
      const before = allBytes(dir);
      const start = requests();
      const vcr = new Vcr({ dir, mode });
      expect(await runCalls(vcr, fake, { anthropic: a.url, google: g.url })).to.deep.equal(OUTPUTS);
      expect(requests() - start).to.equal(0);
      expect(vcr.stats()).to.deep.include({ replayed: 6, recorded: 0, missed: 0 });
      expect(allBytes(dir)).to.equal(before);
    });
  }

  it("a new recording holds each file's sha256 and mime type, never its bytes; the text source's fixture keeps its 0.3.0 name", async () => {
    const dir = tmpDir();
    const start = requests();
    a.enqueue({ text: "A single red pixel." }, { text: "A single red pixel, streamed." }, { text: "A one-page PDF." }, { text: "Plain text." });
    g.enqueue({ text: "A tiny picture." });
    expect(await runCalls(new Vcr({ dir, mode: "record_or_replay" }), fake, { anthropic: a.url, google: g.url })).to.deep.equal(OUTPUTS);
    expect(requests() - start).to.equal(6);
    const bytes = allBytes(dir);
    for (const b64 of [PNG, PDF, WAV]) expect(bytes).not.to.include(b64);
    const old = new Set(fs.readdirSync(path.join(SET, "cassettes")));
    const same = fixtureFiles(dir).filter((f) => old.has(path.basename(f)));
    expect(same, "only the text source is keyed as before").to.have.length(1);
    expect(fs.readFileSync(path.join(dir, path.basename(same[0])), "utf8")).to.include("Plain text stays text.");
    const blocks = readFixtures(dir).flatMap((f) =>
      (f.request.messages as { content: unknown }[]).flatMap((m) => (Array.isArray(m.content) ? (m.content as Record<string, any>[]) : [])),
    );
    const digested = (type: string, read: (b: Record<string, any>) => unknown) => blocks.filter((b) => b.type === type).map(read);
    expect(digested("image", (b) => b.source)).to.deep.equal([
      { type: "base64", media_type: "image/png", data: digest(PNG) },
      { type: "base64", media_type: "image/png", data: digest(PNG) },
    ]);
    expect(digested("document", (b) => b.source.data)).to.have.deep.members([digest(PDF), "Plain text stays text."]);
    expect(digested("input_audio", (b) => b.input_audio)).to.deep.equal([{ data: digest(WAV), format: "wav" }]);
    expect(digested("media", (b) => b.data)).to.deep.equal([digest(PNG)]);
  });
});

function digest(b64: string): { sha256: string } {
  return { sha256: crypto.createHash("sha256").update(Buffer.from(b64, "base64")).digest("hex") };
}
