import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { Vcr, VcrConfigError, VcrMissError, VcrRecordError, isVcrError, withVcr } from "../../src/index";
import { onScopeEvent } from "../../src/scope";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { fixtureFiles, fromAnEarlierRun, readFixtures } from "../helpers/tmp";
import { inOwnTest } from "../helpers/ownTest";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
import { withEnv } from "../helpers/env";

describe("modes", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("replay_only: a miss throws VcrMissError, never calls the model, writes nothing", async () => {
    const vcr = new Vcr({ dir, mode: "replay_only" });
    const err = await openai(fake, vcr.cache)
      .invoke("unrecorded question")
      .catch((e) => e);
    expect(err).to.be.instanceOf(VcrMissError);
    expect(isVcrError(err)).to.equal(true);
    expect(err.code).to.equal("VCR_MISS");
    expect(err.kind).to.equal("chat");
    expect(err.hash).to.match(/^[0-9a-f]{64}$/);
    expect(err.request).to.deep.equal({ model: "gpt-4o-mini", messages: [{ role: "user", content: "unrecorded question" }] });
    expect(err.message).to.include("mode replay_only never calls the real model");
    expect(err.message).to.include(path.join(dir, `${err.hash}.json`));
    expect(err.message).to.include('"content":"unrecorded question"');
    expect(err.message).to.include("To record it, run the test with the real provider configured: LANGCHAIN_VCR_MODE=record_or_replay npx mocha --grep ");
    expect(fake.count()).to.equal(0);
    expect(fixtureFiles(dir)).to.have.length(0);
    expect(vcr.stats()).to.deep.equal({ replayed: 0, recorded: 0, bypassed: 0, missed: 1 });
  });

  it("under CI, a miss that is no edit of its nearest fixture (a new test's) says its fixture may be recorded and not committed where the test passes; an edit's does not (trial 58 M1)", async () => {
    const vcr = new Vcr({ dir, mode: "replay_only" });
    const line = `  If this test passes on the machine that recorded it, its fixture is there and not committed: git status ${dir} there lists it.`;
    const ask = (q: string) =>
      openai(fake, vcr.cache)
        .invoke(q)
        .catch((e) => e);
    const inCi = await withEnv({ CI: "true" }, () => ask("a new test's question"));
    expect(inCi.message).to.include(line);
    const local = await withEnv({ CI: undefined }, () => ask("a new test's question"));
    expect(local.message).to.not.include("If this test passes");
    // an edit of a fixture no call of this run met (recorded elsewhere, copied in): its nearest says what changed
    const elsewhere = path.join(dir, "elsewhere");
    await openai(fake, new Vcr({ dir: elsewhere, mode: "record_or_replay" }).cache).invoke("Today is 2026-11-28");
    for (const f of fs.readdirSync(elsewhere)) fs.copyFileSync(path.join(elsewhere, f), path.join(dir, f));
    const edit = await withEnv({ CI: "true" }, () => ask("Today is 2026-11-29"));
    expect(edit.message).to.include("differs at:").and.not.include("answered another call").and.not.include("If this test passes");
  });

  it("replay_only: the miss names the nearest fixture and the field that changed by one character", async () => {
    const vcr = new Vcr({ dir });
    await withVcr({ mode: "record_or_replay" }, () => openai(fake, vcr.cache).invoke("Today is 2026-11-28"));
    const err = await withVcr({ mode: "replay_only" }, () => openai(fake, vcr.cache).invoke("Today is 2026-11-29")).catch((e) => e);
    expect(err).to.be.instanceOf(VcrMissError);
    expect(err.nearest.file).to.equal(path.join(dir, fixtureFiles(dir)[0]));
    expect(err.nearest.differences).to.deep.equal([{ path: "messages[0].content", recorded: "Today is 2026-11-28", requested: "Today is 2026-11-29" }]);
    expect(err.message).to.include('messages[0].content: "Today is 2026-11-28" → "Today is 2026-11-29"');
    expect(err.message).to.include("hint: a date changed between runs: add normalizers.isoDate");
    // the nearest answered a call of this run (it was recorded here): maybe another test's, and this one's never committed
    expect(err.message).to.include(
      `  ${err.nearest.file} answered another call earlier in this run: if this request is a new test's, not an edit of that call, its fixture was never recorded, or was recorded and not committed (on the machine that recorded it, git status ${dir} lists it).`,
    );
    // the same nearest in a directory no call of this run met: not said
    const other = path.join(dir, "copy");
    fs.mkdirSync(other);
    fs.copyFileSync(err.nearest.file, path.join(other, path.basename(err.nearest.file)));
    const fresh = await withVcr({ mode: "replay_only" }, () => openai(fake, new Vcr({ dir: other }).cache).invoke("Today is 2026-11-29")).catch((e) => e);
    expect(fresh.message).to.include("nearest recorded chat fixture").and.not.include("answered another call earlier in this run");
  });

  it("record_always: ignores the fixture, calls the model, overwrites", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    fake.enqueue({ content: "first answer" });
    await openai(fake, vcr.cache).invoke("q");
    fromAnEarlierRun(dir);
    fake.enqueue({ content: "second answer" });
    const again = await withVcr({ mode: "record_always" }, () => openai(fake, vcr.cache).invoke("q"));
    expect(again.content).to.equal("second answer");
    expect(fake.count()).to.equal(2);
    expect(fixtureFiles(dir)).to.have.length(1);
    expect(readFixtures(dir)[0].response.generations[0].text).to.equal("second answer");
    expect(vcr.stats().recorded).to.equal(2);
  });

  it("record_always: what another test of this run recorded is replayed, not recorded again, so the run's fixtures agree (trial 49); the test's own is recorded again", async () => {
    let runs = 0;
    const lookup = tool(async ({ q }) => `${q} #${++runs}`, { name: "lookup", description: "looks up", schema: z.object({ q: z.string() }) });
    const vcr = new Vcr({ dir, mode: "record_always" });
    const [wrapped] = vcr.tools([lookup]);
    const ask = () => openai(fake, vcr.cache).invoke("shared first question");
    fake.enqueue({ content: "answer one" }, { content: "answer two" }, { content: "answer three" });
    const first = await inOwnTest({}, async () => [await wrapped.invoke({ q: "stock" }), (await ask()).content], "first test");
    const second = await inOwnTest({}, async () => [await wrapped.invoke({ q: "stock" }), (await ask()).content], "second test");
    expect(second, "the second test replays what the first recorded").to.deep.equal(first);
    expect([runs, fake.count()]).to.deep.equal([1, 1]);
    // a test asking again what it recorded itself records it again (as before)
    await inOwnTest({}, async () => {
      await openai(fake, vcr.cache).invoke("its own question");
      await openai(fake, vcr.cache).invoke("its own question");
    });
    expect(fake.count()).to.equal(3);
    // and the run's fixtures replay: 0 requests
    const sealed = new Vcr({ dir, mode: "replay_only" });
    await inOwnTest({}, () => openai(fake, sealed.cache).invoke("shared first question"));
    expect(sealed.stats()).to.include({ replayed: 1, missed: 0 });
    expect(fake.count()).to.equal(3);
  });

  it("bypass: always calls the model and never writes", async () => {
    const vcr = new Vcr({ dir, mode: "bypass" });
    await openai(fake, vcr.cache).invoke("q");
    await openai(fake, vcr.cache).invoke("q");
    expect(fake.count()).to.equal(2);
    expect(fs.existsSync(dir) ? fixtureFiles(dir) : []).to.have.length(0);
    expect(vcr.stats()).to.deep.equal({ replayed: 0, recorded: 0, bypassed: 2, missed: 0 });
  });

  it("resolution: withVcr > LANGCHAIN_VCR_MODE > options.mode > CI default", () => {
    withEnv({ LANGCHAIN_VCR_MODE: undefined, CI: undefined }, () => {
      expect(new Vcr({ dir }).mode()).to.equal("record_or_replay");
      expect(new Vcr({ dir, mode: "bypass" }).mode()).to.equal("bypass");
    });
    withEnv({ LANGCHAIN_VCR_MODE: undefined, CI: "true" }, () => expect(new Vcr({ dir }).mode()).to.equal("replay_only"));
    withEnv({ LANGCHAIN_VCR_MODE: undefined, CI: "false" }, () => expect(new Vcr({ dir }).mode()).to.equal("record_or_replay"));
    withEnv({ LANGCHAIN_VCR_MODE: undefined, CI: "0" }, () => expect(new Vcr({ dir }).mode()).to.equal("record_or_replay"));
    withEnv({ LANGCHAIN_VCR_MODE: "record_always", CI: "1" }, () => {
      const vcr = new Vcr({ dir, mode: "bypass" });
      expect(vcr.mode()).to.equal("record_always");
      expect(withVcr({ mode: "replay_only" }, () => vcr.mode())).to.equal("replay_only");
    });
    withEnv({ LANGCHAIN_VCR_TOOL_MODE: "execute" }, () => {
      expect(new Vcr({ dir, toolMode: "replay" }).toolMode()).to.equal("execute");
      expect(withVcr({ toolMode: "replay" }, () => new Vcr({ dir }).toolMode())).to.equal("replay");
    });
  });

  it("an unknown mode anywhere is a VcrConfigError listing the valid values", () => {
    const valid = "Valid modes are: record_or_replay, replay_only, record_always, bypass.";
    expect(() => new Vcr({ dir, mode: "replay" as never })).to.throw(VcrConfigError, valid);
    expect(() => withVcr({ mode: "recrd" as never }, () => 1)).to.throw(VcrConfigError, valid);
    withEnv({ LANGCHAIN_VCR_MODE: "lockdown" }, () =>
      expect(() => new Vcr({ dir })).to.throw(VcrConfigError, `"lockdown" is not a valid mode (env LANGCHAIN_VCR_MODE)`),
    );
    expect(() => new Vcr({ dir, toolMode: "run" as never })).to.throw(VcrConfigError, "Valid tool modes are: replay, execute.");
    expect(() => new Vcr({ dri: "x" } as never)).to.throw(VcrConfigError, 'unknown option "dri"');
    expect(() => new Vcr({ sizeWarningBytes: -1 })).to.throw(VcrConfigError, "sizeWarningBytes");
  });

  it("withVcr scopes apply to everything inside fn (async included) and concurrent scopes never see each other", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    await openai(fake, vcr.cache).invoke("recorded");
    const seen: string[] = [];
    const scoped = (mode: "bypass" | "replay_only", delay: number) =>
      withVcr({ mode }, async () => {
        await new Promise((r) => setTimeout(r, delay));
        seen.push(`${mode}:${vcr.mode()}`);
        return openai(fake, vcr.cache).invoke("recorded");
      });
    await Promise.all([scoped("bypass", 20), scoped("replay_only", 5), scoped("bypass", 1)]);
    expect(seen.sort()).to.deep.equal(["bypass:bypass", "bypass:bypass", "replay_only:replay_only"]);
    expect(fake.count()).to.equal(3); // 1 recording + 2 bypassed; the replay_only scope replayed
    expect(vcr.mode()).to.equal("record_or_replay");
    const nested = withVcr({ mode: "bypass" }, () => withVcr({ toolMode: "execute" }, () => [vcr.mode(), vcr.toolMode()]));
    expect(nested).to.deep.equal(["bypass", "execute"]);
  });

  it("32 concurrent identical misses make ONE real call and one fixture", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const fakeSlow = await startFakeProvider({ latencyMs: 50 });
    try {
      const model = openai(fakeSlow, vcr.cache);
      const answers = await Promise.all(Array.from({ length: 32 }, () => model.invoke("same")));
      expect(fakeSlow.count()).to.equal(1);
      expect(new Set(answers.map((a) => a.content))).to.deep.equal(new Set(["echo: same"]));
      expect(fixtureFiles(dir)).to.have.length(1);
      expect(vcr.stats()).to.deep.equal({ replayed: 31, recorded: 1, bypassed: 0, missed: 0 });
    } finally {
      await fakeSlow.close();
    }
  });

  it("a call waiting on the same request in flight fails on its own abort, and the recording call is unaffected", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const fakeSlow = await startFakeProvider({ latencyMs: 600 });
    try {
      const model = openai(fakeSlow, vcr.cache);
      const first = model.invoke("same");
      await new Promise((r) => setTimeout(r, 50)); // the first call is in flight
      const controller = new AbortController();
      const waiting = model.invoke("same", { signal: controller.signal }).then(
        (answer) => ({ answer }),
        (error: unknown) => ({ error }),
      );
      let settled = false;
      void waiting.then(() => (settled = true));
      await new Promise((r) => setTimeout(r, 50)); // the second call waits on the first
      expect(settled).to.equal(false);
      controller.abort();
      await new Promise((r) => setTimeout(r, 50));
      expect(settled).to.equal(true); // before the first call's answer, 600 ms after it was sent
      const outcome = (await waiting) as { error?: Error };
      expect(outcome.error?.name).to.equal("AbortError");
      expect((await first).content).to.equal("echo: same");
      expect(fakeSlow.count()).to.equal(1);
      expect(fixtureFiles(dir)).to.have.length(1);
      expect(vcr.stats()).to.deep.equal({ replayed: 0, recorded: 1, bypassed: 0, missed: 0 });
    } finally {
      await fakeSlow.close();
    }
  });

  it("a failing live call writes nothing, reaches the caller unchanged, and releases waiters", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    fake.enqueue({ status: 500 });
    const err = await openai(fake, vcr.cache)
      .invoke("boom")
      .catch((e) => e);
    expect(isVcrError(err)).to.equal(false);
    expect(err.status).to.equal(500);
    expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).to.have.length(0);
    const ok = await openai(fake, vcr.cache).invoke("boom");
    expect(ok.content).to.equal("echo: boom");
    expect(fixtureFiles(dir)).to.have.length(1);
  });

  it("the client's own retries still work while recording", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    fake.enqueue({ status: 500 });
    const ok = await openai(fake, vcr.cache, { maxRetries: 2 }).invoke("retry me");
    expect(ok.content).to.equal("echo: retry me");
    expect(fake.count()).to.equal(2);
    expect(fixtureFiles(dir)).to.have.length(1);
  });

  it("an aborted call writes nothing", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const slow = await startFakeProvider({ latencyMs: 500 });
    try {
      const controller = new AbortController();
      const pending = openai(slow, vcr.cache)
        .invoke("abort me", { signal: controller.signal })
        .catch((e) => e);
      setTimeout(() => controller.abort(), 30);
      const err = await pending;
      expect(err).to.be.instanceOf(Error);
      expect(fs.existsSync(dir) ? fs.readdirSync(dir) : []).to.have.length(0);
    } finally {
      await slow.close();
    }
  });

  it("a call whose signal is already aborted fails with the client's AbortError, replayed as live: invoke, batch and stream, under record_or_replay and replay_only, 0 requests, nothing written or counted as a miss", async () => {
    await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke("cancelled by the user");
    const files = fixtureFiles(dir);
    const live = await openai(fake, undefined)
      .invoke("cancelled by the user", { signal: AbortSignal.abort() })
      .catch((e) => e);
    expect(live.name).to.equal("AbortError"); // what the test of a cancel path expects, live
    for (const mode of ["record_or_replay", "replay_only"] as const) {
      const vcr = new Vcr({ dir, mode });
      const before = fake.count();
      const signal = AbortSignal.abort();
      const model = openai(fake, vcr.cache);
      for (const call of [
        () => model.invoke("cancelled by the user", { signal }),
        () => model.batch(["cancelled by the user"], { signal }),
        () => model.invoke("never recorded, cancelled", { signal }),
        async () => {
          for await (const chunk of await model.stream("cancelled by the user", { signal })) void chunk;
        },
      ]) {
        const err = await call().then(
          () => undefined,
          (e) => e,
        );
        expect(err?.name, mode).to.equal("AbortError");
      }
      expect(fake.count() - before, mode).to.equal(0);
      expect(vcr.stats(), mode).to.deep.include({ replayed: 0, missed: 0, recorded: 0 });
    }
    expect(fixtureFiles(dir)).to.deep.equal(files);
  });

  it("a fixture directory that cannot be written (a part of its path is a file) fails a recording call before it is sent: VcrRecordError with the fix, 0 requests; replay_only and bypass are not refused", async () => {
    const file = path.join(dir, "not-a-dir");
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(file, "");
    const cassettes = path.join(file, "cassettes");
    const before = fake.count();
    for (const mode of ["record_or_replay", "record_always"] as const) {
      const err = await openai(fake, new Vcr({ dir: cassettes, mode }).cache)
        .invoke("never paid for")
        .catch((e) => e);
      expect(err, mode).to.be.instanceOf(VcrRecordError);
      expect(err.message, mode).to.include(`the fixture directory ${cassettes} cannot be created: ${file} is a file (a part of its path is a file).`);
      expect(err.message, mode)
        .to.include("Nothing was sent or run")
        .and.include("Fix it: give the Vcr a directory whose path is directories all the way (new Vcr({ dir })), or move the file out of the way.");
    }
    expect(fake.count()).to.equal(before);
    const miss = await openai(fake, new Vcr({ dir: cassettes, mode: "replay_only" }).cache)
      .invoke("never paid for")
      .catch((e) => e);
    expect(miss).to.be.instanceOf(VcrMissError);
    expect(miss.message).to.include("no chat fixture is recorded in this directory yet (it does not exist).");
    // a dangling symbolic link where the directory should be: refused before the call too, not after it
    const dangling = path.join(dir, "dangling");
    fs.symlinkSync(path.join(dir, "gone"), dangling);
    const linked = await openai(fake, new Vcr({ dir: dangling, mode: "record_or_replay" }).cache)
      .invoke("never paid for")
      .catch((e) => e);
    expect(linked).to.be.instanceOf(VcrRecordError);
    expect(linked.message).to.include(`the fixture directory ${dangling} is not a writable directory`);
    expect((await openai(fake, new Vcr({ dir: cassettes, mode: "bypass" }).cache).invoke("live")).content).to.equal("echo: live");
    expect(fake.count()).to.equal(before + 1);
  });

  it("a miss whose nearest fixture differs by its model alone hints to record the suite in one run and prune; one that differs more does not", async () => {
    await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke("which model?");
    const vcr = new Vcr({ dir, mode: "replay_only" });
    const err = await openai(fake, vcr.cache, { model: "gpt-4.1-mini" })
      .invoke("which model?")
      .catch((e) => e);
    expect(err).to.be.instanceOf(VcrMissError);
    expect(err.message).to.match(
      / {4}model: "gpt-4o-mini" → "gpt-4\.1-mini"\n {2}hint: only the model changed: every fixture of the old model misses the same way, so record them all in one run \(LANGCHAIN_VCR_MODE=record_or_replay .+\), then remove the old ones \(npx langchain-vcr prune\)/,
    );
    const other = await openai(fake, vcr.cache, { model: "gpt-4.1-mini" })
      .invoke("which model now?")
      .catch((e) => e);
    expect(other.message).to.not.include("only the model changed");
  });

  it("a live lookup (tool execute mode, bypass) still marks an existing fixture as used, so prune keeps it", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    await openai(fake, vcr.cache).invoke("kept by bypass");
    const used: string[] = [];
    const stop = onScopeEvent((e) => (e.type === "used" ? used.push(path.basename(e.file)) : undefined));
    try {
      await withVcr({ mode: "bypass" }, () => openai(fake, vcr.cache).invoke("kept by bypass"));
    } finally {
      stop();
    }
    expect(used).to.deep.equal(fixtureFiles(dir));
  });
});
