/**
 * Hostile and broken input, through the real ChatOpenAI and tools against the loopback fake:
 * a 50 MB fixture (valid: replays; corrupt: a clear VcrFixtureError, fast), symlinked
 * fixtures, a fixture that holds another request, non-UTF-8 text and lone surrogates in
 * prompts, a 1 MB prompt and a ~2 MB tool result.
 * (Empty, binary, truncated, wrong-hash, newer-schema and `__proto__` fixtures, and a fixture
 * directory that is a file or read-only, are in test/unit/store.test.ts.)
 */
import { expect } from "chai";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { HumanMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "langchain";
import { z } from "zod";
import { Vcr, VcrFixtureError, VcrMissError, withVcr } from "../../src/index";
import { inOwnTest } from "../helpers/ownTest";
import { validateFixtures } from "../../src/validate";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { fixtureFiles, tmpDir } from "../helpers/tmp";
import { ok, runScript } from "./scripts/compiled";
import { asciiJson } from "./scripts/replayPrompts";

const MB = 1024 * 1024;
const digest = (file: string) => createHash("sha256").update(fs.readFileSync(file)).digest("hex");

describe("reliability: hostile and broken input", function () {
  this.timeout(30000);
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)), "vcr-rel-hostile-");

  /** Records one question; returns its fixture file. */
  async function recordOne(question: string, vcr = new Vcr({ dir, mode: "record_or_replay" })): Promise<string> {
    const before = new Set(fixtureFiles(dir));
    await openai(fake, vcr.cache).invoke([new HumanMessage(question)]);
    const added = fixtureFiles(dir).filter((f) => !before.has(f));
    expect(added).to.have.length(1);
    return path.join(dir, added[0]);
  }

  const replay = (question: string, dirOverride = dir) =>
    withVcr({ mode: "replay_only" }, () => openai(fake, new Vcr({ dir: dirOverride }).cache).invoke([new HumanMessage(question)]));

  describe("a 50 MB fixture", () => {
    it("replays correctly when valid, and validate accepts it", async () => {
      const file = await recordOne("the big one");
      const big = "0123456789abcdef".repeat((50 * MB) / 16);
      const f = JSON.parse(fs.readFileSync(file, "utf8"));
      f.response.generations[0].text = big;
      f.response.generations[0].message.content = big;
      fs.writeFileSync(file, JSON.stringify(f, null, 2));
      expect(fs.statSync(file).size).to.be.greaterThan(100 * MB); // the text is stored twice
      fake.reset();

      const answer = await replay("the big one");
      expect(answer.content).to.have.length(big.length);
      expect(answer.content === big).to.equal(true);
      expect(fake.count()).to.equal(0);
      expect(await validateFixtures(dir)).to.deep.equal([]);
    });

    for (const [name, damage] of [
      ["truncated", (b: Buffer) => b.subarray(0, b.length - 10)],
      [
        "with a raw control character in the middle",
        (b: Buffer) => Buffer.concat([b.subarray(0, b.length >> 1), Buffer.from([0x01]), b.subarray((b.length >> 1) + 1)]),
      ],
    ] as const) {
      it(`${name}: a clear VcrFixtureError within seconds, never re-recorded, file untouched`, async () => {
        const file = await recordOne("the big broken one");
        const f = JSON.parse(fs.readFileSync(file, "utf8"));
        f.response.generations[0].text = "x".repeat(50 * MB);
        fs.writeFileSync(file, damage(Buffer.from(JSON.stringify(f, null, 2))));
        const before = digest(file);
        fake.reset();

        for (const mode of ["replay_only", "record_or_replay"] as const) {
          const started = Date.now();
          const err = await withVcr({ mode }, () =>
            openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke([new HumanMessage("the big broken one")]),
          ).catch((e) => e);
          expect(Date.now() - started, mode).to.be.below(20000); // a hang guard, not a speed test
          expect(err, mode).to.be.instanceOf(VcrFixtureError);
          expect(err.file).to.equal(file);
          expect(err.message).to.include("is not valid JSON");
        }
        expect(fake.count()).to.equal(0);
        expect(digest(file)).to.equal(before);
        const problems = await validateFixtures(dir);
        expect(problems).to.have.length(1);
        expect(problems[0].file).to.equal(file);
        expect(problems[0].problem).to.match(/^is not valid JSON/);
      });
    }
  });

  describe("symlinked fixtures (links are followed)", () => {
    before(function () {
      if (process.platform === "win32") this.skip(); // creating symlinks needs privileges there
    });

    it("a fixture that is a symlink to a file elsewhere replays, and validate accepts it", async () => {
      const file = await recordOne("linked question");
      const elsewhere = path.join(tmpDir("vcr-rel-shared-"), "shared-fixture.json");
      fs.renameSync(file, elsewhere);
      fs.symlinkSync(elsewhere, file);
      fake.reset();
      expect((await replay("linked question")).content).to.equal("echo: linked question");
      expect(fake.count()).to.equal(0);
      expect(await validateFixtures(dir)).to.deep.equal([]);
    });

    it("record_always replaces the link by a regular file and leaves the linked file untouched", async () => {
      const file = await recordOne("linked and re-recorded");
      const elsewhere = path.join(tmpDir("vcr-rel-shared-"), "shared-fixture.json");
      fs.renameSync(file, elsewhere);
      fs.symlinkSync(elsewhere, file);
      const before = digest(elsewhere);
      await withVcr({ mode: "record_always" }, () =>
        openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke([new HumanMessage("linked and re-recorded")]),
      );
      expect(fs.lstatSync(file).isSymbolicLink()).to.equal(false);
      expect(digest(elsewhere)).to.equal(before);
      expect(await validateFixtures(dir)).to.deep.equal([]);
    });

    it("a dangling symlink is a VcrFixtureError naming the link and its target — never a miss that 'records' nothing", async () => {
      const file = await recordOne("dangling question");
      const gone = path.join(dir, "..", `${path.basename(dir)}-gone.json`);
      fs.rmSync(file);
      fs.symlinkSync(gone, file);
      fake.reset();
      for (const mode of ["replay_only", "record_or_replay"] as const) {
        const err = await withVcr({ mode }, () =>
          openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke([new HumanMessage("dangling question")]),
        ).catch((e) => e);
        expect(err, mode).to.be.instanceOf(VcrFixtureError);
        expect(err.file).to.equal(file);
        expect(err.message).to.include(`is a symbolic link to ${gone}, which does not exist`);
      }
      expect(fake.count()).to.equal(0);
      expect(fs.readlinkSync(file)).to.equal(gone);
      const problems = await validateFixtures(dir);
      expect(problems.map((p) => p.file)).to.deep.equal([file]);
    });
  });

  describe("a fixture that holds another request", () => {
    it("whose `hash` field names another file: a VcrFixtureError for its name; the other request still replays", async () => {
      const fileA = await recordOne("question A");
      const fileB = await recordOne("question B");
      fs.copyFileSync(fileB, fileA); // a bad merge or a copy by hand
      const before = digest(fileA);
      fake.reset();
      for (const mode of ["replay_only", "record_or_replay"] as const) {
        const err = await withVcr({ mode }, () =>
          openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke([new HumanMessage("question A")]),
        ).catch((e) => e);
        expect(err, mode).to.be.instanceOf(VcrFixtureError);
        expect(err.file).to.equal(fileA);
        expect(err.message).to.include(`has "hash" ${path.basename(fileB, ".json")} but its file name says ${path.basename(fileA, ".json")}`);
      }
      expect((await replay("question B")).content).to.equal("echo: question B");
      expect(fake.count()).to.equal(0);
      expect(digest(fileA)).to.equal(before);
      const problems = await validateFixtures(dir);
      expect(problems.map((p) => p.file)).to.deep.equal([fileA]);
    });

    it("whose `hash` was edited to match its name: another request's answer is never replayed", async () => {
      const fileA = await recordOne("question A");
      const fileB = await recordOne("question B");
      const hashA = path.basename(fileA, ".json");
      const forged = JSON.parse(fs.readFileSync(fileB, "utf8"));
      forged.hash = hashA;
      fs.writeFileSync(fileA, JSON.stringify(forged, null, 2));
      fake.reset();
      const err = await replay("question A").catch((e) => e);
      expect(err).to.be.instanceOf(VcrFixtureError);
      expect(err.file).to.equal(fileA);
      expect(err.message).to.include(`has a "request" that does not hash to its name (it hashes to ${path.basename(fileB, ".json")})`);
      expect(fake.count()).to.equal(0);
      const problems = await validateFixtures(dir);
      expect(problems.map((p) => p.file)).to.deep.equal([fileA]);
      expect(problems[0].problem).to.include("no longer hashes to its");
    });
  });

  describe("text that is not clean UTF-8", () => {
    const PROMPTS = [
      "lone high \uD800 surrogate",
      "lone low \uDC00 surrogate",
      "\uDBFF",
      "\uFFFD", // what a lone surrogate becomes if anything encodes it: must stay a different request
      "reversed pair \uDC00\uD800",
      "NUL \u0000 and C1 \u0085 controls \u001b[0m",
      "\uFEFFleading BOM",
      Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0x41]).toString("latin1"), // invalid UTF-8 bytes read as latin1
      Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0x41]).toString("utf8"), // ... and decoded as UTF-8 (U+FFFD)
      "emoji 👩🏽‍💻 and combining e\u0301 and RTL \u202Eabc",
    ];

    it("records and replays each exactly, as distinct requests; files are valid UTF-8 JSON; hashes hold in a new process", async () => {
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      for (const p of PROMPTS) expect((await openai(fake, vcr.cache).invoke([new HumanMessage(p)])).content === `echo: ${p}`).to.equal(true);
      expect(fixtureFiles(dir)).to.have.length(PROMPTS.length); // no two collapse into one
      expect(fake.count()).to.equal(PROMPTS.length);

      for (const f of fixtureFiles(dir)) {
        const bytes = fs.readFileSync(path.join(dir, f));
        const text = new TextDecoder("utf-8", { fatal: true }).decode(bytes); // throws on invalid UTF-8
        expect(text).not.to.include("\uFFFD\uFFFD\uFFFD"); // nothing was replaced on the way to disk
      }
      expect(await validateFixtures(dir)).to.deep.equal([]);

      // replay in this process...
      fake.reset();
      for (const p of PROMPTS) expect((await replay(p)).content === `echo: ${p}`).to.equal(true);
      expect(fake.count()).to.equal(0);
      // ...and in a new one (the hash of each request is the same in another run)
      const out = ok(await runScript("replayPrompts.ts", { FIXTURE_DIR: dir, PROMPTS_JSON: asciiJson(PROMPTS) }));
      const child = JSON.parse(out.stdout);
      expect(child.answers).to.deep.equal(PROMPTS.map((p) => `echo: ${p}`));
      expect(child.stats).to.deep.equal({ replayed: PROMPTS.length, recorded: 0, bypassed: 0, missed: 0 });
    });
  });

  describe("very large inputs and outputs", () => {
    it("a 1 MB prompt message round-trips", async () => {
      const prompt = "Summarize: " + "lorem ipsum dolor sit amet ".repeat(MB / 27 + 1);
      const vcr = new Vcr({ dir, mode: "record_or_replay", sizeWarningBytes: 0 });
      const recorded = await openai(fake, vcr.cache).invoke([new HumanMessage(prompt)]);
      expect(recorded.content).to.equal(`echo: ${prompt}`);
      const [file] = fixtureFiles(dir);
      expect(fs.statSync(path.join(dir, file)).size).to.be.greaterThan(2 * MB);
      fake.reset();
      const replayed = await replay(prompt);
      expect(replayed.content).to.equal(`echo: ${prompt}`);
      expect(fake.count()).to.equal(0);
      expect(await replay(prompt.slice(0, -1)).catch((e) => e)).to.be.instanceOf(VcrMissError); // one character less is another request
    });

    it("a tool returning ~2 MB (a string through a ToolCall, and a large object) round-trips through vcr.tool", async () => {
      const report = "row,".repeat(512 * 1024); // 2 MB
      const rows = Array.from({ length: 20000 }, (_, i) => ({ id: i, name: `item ${i}`, tags: ["a", "b"], price: i / 7 }));
      let runs = 0;
      const make = (vcr: Vcr) =>
        [
          vcr.tool(tool(async () => (runs++, report), { name: "export_report", description: "Export", schema: z.object({ month: z.string() }) })),
          vcr.tool(tool(async () => (runs++, rows), { name: "list_items", description: "List", schema: z.object({}) })),
        ] as const;
      const call = { id: "call_live_1", name: "export_report", args: { month: "2026-01" }, type: "tool_call" as const };

      const [exportLive, listLive] = make(new Vcr({ dir, mode: "record_or_replay", sizeWarningBytes: 0 }));
      const liveMsg = (await exportLive.invoke(call)) as ToolMessage;
      expect(liveMsg.content).to.equal(report);
      expect(await listLive.invoke({})).to.deep.equal(rows);
      expect(runs).to.equal(2);

      const [exportReplay, listReplay] = make(new Vcr({ dir, mode: "record_or_replay" }));
      await inOwnTest({ mode: "replay_only" }, async () => {
        const msg = (await exportReplay.invoke({ ...call, id: "call_other_7" })) as ToolMessage;
        expect(msg).to.be.instanceOf(ToolMessage);
        expect(msg.content).to.equal(report);
        expect(msg.tool_call_id).to.equal("call_other_7");
        expect(await listReplay.invoke({})).to.deep.equal(rows);
      });
      expect(runs).to.equal(2); // replays never ran a body
      expect(await validateFixtures(dir)).to.deep.equal([]);
    });
  });
});
