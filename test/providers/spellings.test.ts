/**
 * Requests a client spells two ways and the provider answers alike (src/canonical/spellings.ts):
 * ChatAnthropic before @langchain/anthropic 1.4 sent `thinking: {type: "disabled"}` on every call,
 * later versions send nothing. A fixture of either spelling replays for the other (an upgrade, a
 * downgrade), with no request and no fixture written; each still records under its own.
 */
import { expect } from "chai";
import { Vcr } from "../../src/index";
import { VcrMissError } from "../../src/errors";
import { readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { spec } from "./specs/anthropic";
import type { Fake } from "./fakes/base";

const OLD = { thinking: { type: "disabled" } }; // what @langchain/anthropic 1.3 sent unasked (1.5 sends it only when set, as here)

describe('ChatAnthropic\'s thinking: {type: "disabled"}, sent or not, replays one fixture', function () {
  this.timeout(20000);
  let fake: Fake;
  before(async () => (fake = await spec.start()));
  after(async () => {
    await fake.close();
    removeTmpDirs();
  });

  const model = (vcr: Vcr, fields: Record<string, unknown>) => spec.chat(fake.url, vcr.cache, fields);
  const streamed = async (vcr: Vcr, fields: Record<string, unknown>) => {
    let text = "";
    for await (const chunk of await model(vcr, fields).stream("hello")) text += chunk.content as string;
    return text;
  };

  for (const [recordedWith, replayedWith, label] of [
    [OLD, {}, "recorded by the old client, replayed by the new one (an upgrade)"],
    [{}, OLD, "recorded by the new client, replayed by the old one (a downgrade)"],
  ] as const) {
    it(`${label}: invoke and stream, 0 requests, no fixture written, under replay_only and record_or_replay`, async () => {
      const dir = tmpDir();
      const rec = new Vcr({ dir, mode: "record_or_replay" });
      const answer = (await model(rec, recordedWith).invoke("hello")).content;
      const streamAnswer = await streamed(rec, recordedWith);
      expect(readFixtures(dir)).to.have.length(2);
      expect(readFixtures(dir).every((f) => "thinking" in (f.request as object) === "thinking" in recordedWith)).to.equal(true);
      for (const mode of ["replay_only", "record_or_replay"] as const) {
        const before = fake.count();
        const vcr = new Vcr({ dir, mode });
        for (let i = 0; i < 2; i++) {
          // the second time, the spelling found is remembered: the same answer
          expect((await model(vcr, replayedWith).invoke("hello")).content, mode).to.equal(answer);
          expect(await streamed(vcr, replayedWith), mode).to.equal(streamAnswer);
        }
        expect(fake.count() - before, mode).to.equal(0);
        expect(readFixtures(dir), mode).to.have.length(2);
        expect(vcr.stats(), mode).to.deep.include({ replayed: 4, recorded: 0, missed: 0 });
      }
    });
  }

  it("thinking that is on is another request: it misses the disabled fixture (0 requests), and records under its own key", async () => {
    const dir = tmpDir();
    await model(new Vcr({ dir, mode: "record_or_replay" }), OLD).invoke("hello");
    const on = { thinking: { type: "enabled", budget_tokens: 1024 }, maxTokens: 2048 };
    const before = fake.count();
    const err = await model(new Vcr({ dir, mode: "replay_only" }), on)
      .invoke("hello")
      .catch((e) => e);
    expect(err).to.be.instanceOf(VcrMissError);
    expect(fake.count() - before).to.equal(0);
    await model(new Vcr({ dir, mode: "record_or_replay" }), on).invoke("hello");
    expect(fake.count() - before).to.equal(1);
    expect(readFixtures(dir)).to.have.length(2);
  });

  it("under record_always the call records under its own spelling (the other's fixture is left as it is)", async () => {
    const dir = tmpDir();
    await model(new Vcr({ dir, mode: "record_or_replay" }), OLD).invoke("hello");
    const [old] = readFixtures(dir);
    const before = fake.count();
    await model(new Vcr({ dir, mode: "record_always" }), {}).invoke("hello");
    expect(fake.count() - before).to.equal(1);
    const all = readFixtures(dir);
    expect(all).to.have.length(2);
    expect(all.find((f) => f.hash === old.hash)).to.deep.equal(old);
  });
});
