/**
 * The near-miss note: when `record_or_replay` records a request that is an edit of a recorded
 * one (a changed date, word or parameter), one line on stderr names the nearest fixture and
 * what changed — usually an unintended prompt change. Another question, a conversation that
 * grew, a nearest fixture this process replayed or recorded (another request of the same run,
 * not the old form of an edited one), or LANGCHAIN_VCR_QUIET print nothing.
 */
import { expect } from "chai";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import * as fs from "node:fs";
import * as path from "node:path";
import { Vcr, VcrMissError, withVcr, type Fixture } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { fromAnEarlierRun, readFixtures, tmpDir } from "../helpers/tmp";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { interceptNotes } from "../helpers/notes";
import { inOwnTest } from "../helpers/ownTest";

/** Runs `fn` with the note enabled and returns what langchain-vcr wrote to stderr. */
async function notesDuring(fn: () => Promise<unknown>, quiet?: string): Promise<string[]> {
  const saved = process.env.LANGCHAIN_VCR_QUIET; // the suite's plugin set-up silences notes
  if (quiet === undefined) delete process.env.LANGCHAIN_VCR_QUIET;
  else process.env.LANGCHAIN_VCR_QUIET = quiet;
  const notes: string[] = [];
  const restore = interceptNotes((text) => notes.push(text));
  try {
    await fn();
  } finally {
    restore();
    if (saved === undefined) delete process.env.LANGCHAIN_VCR_QUIET;
    else process.env.LANGCHAIN_VCR_QUIET = saved;
  }
  return notes;
}

describe("the near-miss note on recording", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));
  const model = () => openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache);
  /** What `ask` records as an earlier run would have: into another directory, copied into this test's (this process never met the copies). */
  async function recordedEarlier(ask: (earlier: string) => Promise<unknown>): Promise<void> {
    const earlier = tmpDir();
    await ask(earlier);
    const files = fs.readdirSync(earlier);
    for (const f of files) fs.copyFileSync(path.join(earlier, f), path.join(dir, f));
    fromAnEarlierRun(dir, files); // written before this run started
  }
  const earlierModel = (earlier: string, fields?: Record<string, unknown>) => openai(fake, new Vcr({ dir: earlier, mode: "record_or_replay" }).cache, fields);

  it("a value the redactors mask, changed (a teammate's email): the miss and the note say the requests differ inside it, and send no one to upgrade fixtures (trial 57 M1)", async () => {
    const maskEmails = (f: Fixture) => JSON.parse(JSON.stringify(f).replace(/[\w.]+@[\w.]+\w/g, "<email>")) as Fixture;
    const ask = (email: string, earlier?: string, mode: "record_or_replay" | "replay_only" = "record_or_replay") =>
      openai(fake, new Vcr({ dir: earlier ?? dir, mode, redactors: [maskEmails] }).cache).invoke(`Write to ${email} about order 42.`);
    await recordedEarlier((earlier) => ask("jane.doe@example.org", earlier));
    const miss = await ask("john.smith@example.com", undefined, "replay_only").catch((e) => e);
    expect(miss).to.be.instanceOf(VcrMissError);
    expect(miss.message)
      .to.include("the same request as the redactors leave both: they differ only inside a value the redactors mask")
      .and.not.include("older")
      .and.not.include("migrate")
      .and.not.include("john.smith");
    const notes = await notesDuring(() => ask("john.smith@example.com"));
    expect(notes).to.have.length(1);
    expect(notes[0]).to.include("is the same request as the redactors leave both").and.not.include("older").and.not.include("migrate");
    expect([fake.count(), readFixtures(dir).length]).to.deep.equal([2, 2]);
  });

  it("an image's bytes changed under the same question: one note naming its sha256 (trial 57 M3: none before)", async () => {
    const ask = (png: string, model: { invoke: (m: HumanMessage[]) => Promise<unknown> }) =>
      model.invoke([
        new HumanMessage({
          content: [
            { type: "text", text: "Describe this chart." },
            { type: "image_url", image_url: { url: `data:image/png;base64,${png}` } },
          ],
        }),
      ]);
    await recordedEarlier((earlier) => ask("iVBORw0KGgoAAAANSUhEUgAAAAE=", earlierModel(earlier)));
    const notes = await notesDuring(() => ask("iVBORw0KGgoAAAANSUhEUgAAAAI=", model()));
    expect(notes).to.have.length(1);
    expect(notes[0]).to.include("messages[0].content[1].image_url.url.sha256:").and.not.include("iVBORw0KGgo");
    expect(fake.count()).to.equal(2);
  });

  it("a prompt that is an edit of a recorded one (a date changed): one note with the field, both values and the hint", async () => {
    await recordedEarlier((earlier) => earlierModel(earlier).invoke("Today is 2026-11-28. Summarize my calendar."));
    const notes = await notesDuring(() => model().invoke("Today is 2026-11-29. Summarize my calendar."));
    expect(notes).to.have.length(1);
    expect(notes[0]).to.include("differs at:");
    expect(notes[0]).to.include("messages[0].content");
    expect(notes[0]).to.include("2026-11-28").and.include("2026-11-29");
    expect(notes[0]).to.include("hint: a date changed between runs: add normalizers.isoDate");
    expect(fake.count()).to.equal(2);
  });

  it("a long prompt edited by one letter: the miss says the edit on its own line, not only both whole texts (trial 47); a short one keeps one line", async () => {
    const long = "Summarise in one sentence: The quarterly meeting moved to Tuesday; budget review is postponed to next month.";
    await model().invoke(long);
    await model().invoke("Be brief.");
    const sealed = () => openai(fake, new Vcr({ dir, mode: "replay_only" }).cache);
    const miss = await sealed()
      .invoke(long.replace("Summarise", "Summarize"))
      .catch((e) => e);
    expect(miss).to.be.instanceOf(VcrMissError);
    const lines = miss.message.split("\n");
    const at = lines.findIndex((l: string) => l.startsWith("    messages[0].content: "));
    expect(lines[at]).to.include("Summarise in one sentence").and.include("Summarize in one sentence");
    expect(lines[at + 1]).to.equal('      the edit: "Summarise…" → "Summarize…"');
    const short = await sealed()
      .invoke("Be briefer.")
      .catch((e) => e);
    expect(short.message).to.include('    messages[0].content: "Be brief." → "Be briefer."\n');
    expect(short.message).to.not.include("the edit:");
    expect(fake.count(), "no request on the misses").to.equal(2);
  });

  it("the note names the test that recorded (a runner prints it under whichever test's output, or none: trial 37)", async () => {
    await recordedEarlier((earlier) => earlierModel(earlier).invoke("Today is 2026-11-28. Plan my week."));
    const notes = await notesDuring(() => inOwnTest({}, () => model().invoke("Today is 2026-11-29. Plan my week."), "plans the week"));
    expect(notes).to.have.length(1);
    const lines = notes[0].split("\n");
    expect(lines[1]).to.equal("  test:     plans the week");
    // above the differences, not among them (trial 54)
    expect(lines[0]).to.match(/recorded a new chat fixture \S+\.json$/);
    expect(lines[2]).to.match(/^ {2}the nearest recorded one \S+\.json differs at:$/);
    expect(lines[3]).to.match(/^ {4}messages\[0\]\.content/);
  });

  it("a nearest fixture written since the run started (another test process of the run recorded it: vitest, jest) is not noted", async () => {
    const earlier = tmpDir();
    await earlierModel(earlier).invoke("Today is 2026-11-28. Summarize my calendar.");
    for (const f of fs.readdirSync(earlier)) fs.copyFileSync(path.join(earlier, f), path.join(dir, f)); // written now: this run's
    expect(await notesDuring(() => model().invoke("Today is 2026-11-29. Summarize my calendar."))).to.deep.equal([]);
    expect(fake.count()).to.equal(2);
  });

  it("a changed parameter (temperature) is noted", async () => {
    await recordedEarlier((earlier) => earlierModel(earlier, { temperature: 0 }).invoke("Same question."));
    const notes = await notesDuring(() => openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache, { temperature: 0.7 }).invoke("Same question."));
    expect(notes).to.have.length(1);
    expect(notes[0]).to.include("temperature");
  });

  it("a parameter only the new request has (one a LangChain upgrade adds, or top_p set) is noted: not a conversation that grew", async () => {
    await recordedEarlier((earlier) => earlierModel(earlier).invoke("Same question."));
    const notes = await notesDuring(() => openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache, { topP: 0.5 }).invoke("Same question."));
    expect(notes).to.have.length(1);
    expect(notes[0]).to.include("top_p");
    expect(fake.count()).to.equal(2);
  });

  it("the same question asked with more than 3 changes (an upgrade's re-keyed agent turn) is noted as the same question (recheck 62)", async () => {
    const changed = { temperature: 0.3, topP: 0.5, maxTokens: 64, frequencyPenalty: 0.1 };
    await recordedEarlier((earlier) => earlierModel(earlier).invoke("Same question."));
    const notes = await notesDuring(() => openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache, changed).invoke("Same question."));
    expect(notes).to.have.length(1);
    expect(notes[0]).to.match(/the nearest recorded one \S+\.json, which asks the same question, differs at:\n/);
    for (const field of ["temperature", "top_p", "max_tokens", "frequency_penalty"]) expect(notes[0]).to.include(`    ${field}: (absent) → `);
    expect(notes[0]).to.include(
      "If the change is meant (an upgrade, a parameter set), the old fixture goes unused: a whole-suite run, then npx langchain-vcr prune, removes it.",
    );
    expect(fake.count()).to.equal(2);
  });

  it("the same question under a rewritten system prompt, with more than 3 changes, is not noted: another test's persona as often (review 63)", async () => {
    const changed = { temperature: 0.3, topP: 0.5, maxTokens: 64, frequencyPenalty: 0.1 };
    await recordedEarlier((earlier) => earlierModel(earlier).invoke([new SystemMessage("You are a helpful assistant."), new HumanMessage("Same question.")]));
    const notes = await notesDuring(() =>
      openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache, changed).invoke([
        new SystemMessage("Answer as a pirate, in one line."),
        new HumanMessage("Same question."),
      ]),
    );
    expect(notes).to.deep.equal([]);
    expect(fake.count()).to.equal(2);
  });

  it("another question with more than 3 changes is not noted", async () => {
    await recordedEarlier((earlier) => earlierModel(earlier).invoke("Same question."));
    const changed = { temperature: 0.3, topP: 0.5, maxTokens: 64, frequencyPenalty: 0.1 };
    const notes = await notesDuring(() => openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache, changed).invoke("Another question entirely."));
    expect(notes).to.deep.equal([]);
    expect(fake.count()).to.equal(2);
  });

  it("another question in the same directory is not noted", async () => {
    await model().invoke("What is the capital of France?");
    const notes = await notesDuring(() => model().invoke("Where is order 42?"));
    expect(notes).to.deep.equal([]);
    expect(fake.count()).to.equal(2);
  });

  it("a conversation that grew (the next turn) is not noted", async () => {
    await model().invoke([{ role: "user", content: "Hi, I need help with order 42." }]);
    const notes = await notesDuring(() =>
      model().invoke([
        { role: "user", content: "Hi, I need help with order 42." },
        { role: "assistant", content: "Sure, what is wrong with it?" },
        { role: "user", content: "It never arrived." },
      ]),
    );
    expect(notes).to.deep.equal([]);
  });

  it("record_always notes a request recorded into a new file, never one recorded again into its own", async () => {
    const always = () => openai(fake, new Vcr({ dir, mode: "record_always" }).cache);
    await recordedEarlier(async (earlier) => {
      await earlierModel(earlier).invoke("Today is 2026-11-28. Summarize my calendar.");
      await earlierModel(earlier).invoke("Plan my week from 2026-11-30.");
    });
    expect(await notesDuring(() => always().invoke("Today is 2026-11-28. Summarize my calendar."))).to.deep.equal([]);
    const notes = await notesDuring(() => always().invoke("Plan my week from 2026-12-07."));
    expect(notes).to.have.length(1);
    expect(notes[0]).to.include("differs at:").and.include("2026-11-30").and.include("2026-12-07");
    expect(fake.count()).to.equal(4);
  });

  it("prompts from one template recorded in one run (a test.each) are not noted: the nearest is a fixture this run recorded", async () => {
    const notes = await notesDuring(async () => {
      for (const animal of ["owls", "bees", "cats"]) await model().invoke(`Write one line about ${animal}.`);
    });
    expect(notes).to.deep.equal([]);
    expect(fake.count()).to.equal(3);
    expect(fs.readdirSync(dir)).to.have.length(3);
  });

  it("a new filling of a template whose siblings this run replayed is not noted; an edit of one it did not use is", async () => {
    await recordedEarlier(async (earlier) => {
      for (const animal of ["owls", "bees"]) await earlierModel(earlier).invoke(`Write one line about ${animal}.`);
    });
    const notes = await notesDuring(async () => {
      await model().invoke("Write one line about owls."); // replayed
      await model().invoke("Write one line about owlets."); // new: nearest "owls", replayed in this run
    });
    expect(fake.count()).to.equal(3);
    expect(notes).to.deep.equal([]);
    // "bees" went unused in this run: a request nearest to it is noted
    const edited = await notesDuring(() => model().invoke("Write one line about bees!"));
    expect(edited).to.have.length(1);
    expect(edited[0]).to.include("bees.").and.include("bees!");
  });

  it("a fixture renamed by hand: a replay_only miss names the file holding the request and gives it its name back; recording it again says the old file is never read", async () => {
    await recordedEarlier((earlier) => earlierModel(earlier).invoke("Where is my fixture?"));
    // an edit of it beside it: recording the request again says the renamed file holds it, and no near-miss note on top
    await recordedEarlier((earlier) => earlierModel(earlier).invoke("Where is my fixture, please?"));
    const [own] = fs
      .readdirSync(dir)
      .filter((f) => readFixtures(dir).find((x) => x.hash === f.slice(0, 64) && JSON.stringify(x.request).includes('"Where is my fixture?"')));
    const renamed = path.join(dir, `${"0".repeat(64)}.json`);
    fs.renameSync(path.join(dir, own), renamed);
    const miss = await withVcr({ mode: "replay_only" }, () => model().invoke("Where is my fixture?")).catch((e: Error) => e);
    expect(miss).to.be.instanceOf(VcrMissError);
    const text = (miss as Error).message;
    expect(text).to.include(`  ${renamed} holds this very request under another name (its "hash" is this one)`);
    expect(text).to.include(`  Fix: give it its name back (git mv ${renamed} ${path.join(dir, own)}), or restore both from git.`);
    expect(text).to.not.include("nearest recorded").and.not.include("To record it");
    // renamed to a name of its own: found too
    const named = path.join(dir, "where.json");
    fs.renameSync(renamed, named);
    const namedMiss = await withVcr({ mode: "replay_only" }, () => model().invoke("Where is my fixture?")).catch((e: Error) => e);
    expect((namedMiss as VcrMissError).message).to.include(`  ${named} holds this very request under another name`);
    expect((namedMiss as VcrMissError).nearest).to.equal(undefined); // as the message: no other request's fixture
    // copied and then edited: its "hash" is this request's, its request no longer is: not named
    const copy = JSON.parse(fs.readFileSync(named, "utf8"));
    copy.request.messages[0].content = "Where is my other fixture?";
    fs.writeFileSync(named, JSON.stringify(copy, null, 2));
    const editedMiss = await withVcr({ mode: "replay_only" }, () => model().invoke("Where is my fixture?")).catch((e: Error) => e);
    expect((editedMiss as VcrMissError).message).to.not.include("holds this very request");
    fs.renameSync(named, renamed);
    fs.writeFileSync(
      renamed,
      JSON.stringify({ ...copy, request: { ...copy.request, messages: [{ ...copy.request.messages[0], content: "Where is my fixture?" }] } }, null, 2),
    );
    const notes = await notesDuring(() => model().invoke("Where is my fixture?"));
    expect(notes).to.have.length(1);
    expect(notes[0]).to.include(`; ${renamed} held this very request under another name (renamed or copied by hand?), and is never read.`);
    expect(fake.count()).to.equal(3);
  });

  it("LANGCHAIN_VCR_QUIET silences it", async () => {
    await recordedEarlier((earlier) => earlierModel(earlier).invoke("Today is 2026-11-28. Summarize my calendar."));
    const notes = await notesDuring(() => model().invoke("Today is 2026-11-29. Summarize my calendar."), "1");
    expect(notes).to.deep.equal([]);
  });
});
