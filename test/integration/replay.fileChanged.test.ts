import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { Vcr } from "../../src/index";
import { runChild } from "../helpers/child";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { OpenAIEmbeddings } from "@langchain/openai";
import { tool } from "@langchain/core/tools";
import { type AIMessage, HumanMessage } from "@langchain/core/messages";
import type { ChatGeneration } from "@langchain/core/outputs";
import { z } from "zod";
import { openai, TEST_KEY } from "../helpers/models";
import { inOwnTest } from "../helpers/ownTest";
import { fixtureFiles } from "../helpers/tmp";
import { fsCallsOn } from "../helpers/fsCalls";
import { descriptorsCheck } from "../../src/store/heldFiles";

const Q = "What is 2+2?";
const OLD = Date.now() / 1000 - 3600; // fixtures a suite replays were written long before it runs

/** Counts reads of `file` through fs.readFileSync while `fn` runs. */
async function readsOf(file: string, fn: () => Promise<unknown>): Promise<number> {
  return (await fsCallsOn(file, ["readFileSync"], fn)).readFileSync;
}

/** Another process rewrites `file`: `how` is the JS it runs with `f` (the path) and `text` (the new contents). */
async function rewriteElsewhere(file: string, text: string, how: string): Promise<void> {
  const out = await runChild(
    process.execPath,
    ["-e", `const fs = require("node:fs"); const f = process.argv[1]; const text = process.argv[2]; ${how}`, file, text],
    {
      cwd: path.dirname(file),
      env: process.env,
      timeoutMs: 20000,
    },
  );
  expect(out.status, out.stderr).to.equal(0);
}

describe("replay keeps a parsed fixture until its file changes", function () {
  this.timeout(60000);
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  async function recordedAndKept() {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const model = openai(fake, vcr.cache);
    const live = await model.invoke(Q);
    const file = path.join(dir, fixtureFiles(dir)[0]);
    fs.utimesSync(file, OLD, OLD);
    // the miss before recording was the file's first read: this one stats it first, reads, parses, checks and keeps it
    expect(await readsOf(file, async () => expect((await model.invoke(Q)).content).to.equal(live.content))).to.equal(1);
    expect(await readsOf(file, () => model.invoke(Q))).to.equal(0); // kept: not read again
    // its ctime is within the last second (utimes just set it): checked by path, no descriptor held yet (the test below holds them)
    const byPath = await fsCallsOn(file, ["statSync", "readFileSync"], () => model.invoke(Q));
    expect(byPath).to.deep.equal({ statSync: 1, readFileSync: 0 });
    return { vcr, model, file, text: fs.readFileSync(file, "utf8"), live };
  }

  const REWRITES = [
    ["in place (same inode, new mtime)", "fs.writeFileSync(f, text);"],
    ["in place, same size, mtime set back to the old one (ctime tells)", `fs.writeFileSync(f, text); fs.utimesSync(f, ${OLD}, ${OLD});`],
    ["by rename, as git and langchain-vcr write", 'fs.writeFileSync(f + ".tmp", text); fs.renameSync(f + ".tmp", f);'],
    ["by moving the old file away (still linked) and writing a new one", 'fs.renameSync(f, f + ".old"); fs.writeFileSync(f, text);'],
    ["by deleting it and writing it anew", "fs.rmSync(f); fs.writeFileSync(f, text);"],
    ["by copying another file over it", 'fs.writeFileSync(f + ".new", text); fs.copyFileSync(f + ".new", f); fs.rmSync(f + ".new");'],
  ];
  for (const [name, how] of REWRITES) {
    it(`a fixture rewritten by another process ${name}: the next replay returns the new response`, async () => {
      const { vcr, model, file, text, live } = await recordedAndKept();
      const changed = text.split(JSON.stringify(live.content)).join(JSON.stringify(String(live.content).toUpperCase()));
      expect(changed).to.not.equal(text);
      expect(changed.length).to.equal(text.length);
      await rewriteElsewhere(file, changed, how);
      expect(await readsOf(file, async () => expect((await model.invoke(Q)).content).to.equal(String(live.content).toUpperCase()))).to.equal(1);
      expect(fake.count()).to.equal(1);
      expect(vcr.stats()).to.include({ recorded: 1, replayed: 4 });
    });
  }

  it("fixtures checked through a descriptor held open (a second after their last change, on a local Linux file system): every one of those rewrites by another process is seen at the next replay", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const model = openai(fake, vcr.cache);
    const asks = REWRITES.map((_, i) => `Question ${i}: what is 2+2?`);
    const live: string[] = [];
    for (const q of asks) live.push(String((await model.invoke(q)).content));
    const files = fixtureFiles(dir).map((f) => path.join(dir, f));
    for (const f of files) fs.utimesSync(f, OLD, OLD);
    for (const q of asks) await model.invoke(q); // read again: kept
    await new Promise((r) => setTimeout(r, 1100)); // their ctime a second old: held from their next replay
    for (const q of asks) await model.invoke(q);
    const held = descriptorsCheck(dir);
    for (const [i, q] of asks.entries()) {
      const file = files.find((f) => fs.readFileSync(f, "utf8").includes(JSON.stringify(live[i])))!;
      expect(await fsCallsOn(file, ["statSync", "readFileSync"], () => model.invoke(q)), REWRITES[i][0]).to.deep.equal({
        statSync: held ? 0 : 1,
        readFileSync: 0,
      });
      const text = fs.readFileSync(file, "utf8");
      const changed = text.split(JSON.stringify(live[i])).join(JSON.stringify(live[i].toUpperCase()));
      expect(changed.length).to.equal(text.length);
      await rewriteElsewhere(file, changed, REWRITES[i][1]);
      expect(await readsOf(file, async () => expect((await model.invoke(q)).content, REWRITES[i][0]).to.equal(live[i].toUpperCase()))).to.equal(1);
    }
    expect(fake.count()).to.equal(asks.length);
  });

  it("a fixture rewritten right after it was read (within the same second): never replayed stale", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const model = openai(fake, vcr.cache);
    const live = await model.invoke(Q);
    const file = path.join(dir, fixtureFiles(dir)[0]);
    const text = fs.readFileSync(file, "utf8");
    expect((await model.invoke(Q)).content).to.equal(live.content);
    const changed = text.split(JSON.stringify(live.content)).join(JSON.stringify("same len " + String(live.content).slice(9)));
    fs.writeFileSync(file, changed); // same size, same tick as the read a moment ago
    expect((await model.invoke(Q)).content).to.equal("same len " + String(live.content).slice(9));
  });

  it("a fixture that is a symbolic link, pointed at another file: the next replay returns the new target's response", async () => {
    const { model, file, text, live } = await recordedAndKept();
    const a = path.join(path.dirname(file), "a.target"),
      b = path.join(path.dirname(file), "b.target");
    fs.renameSync(file, a);
    fs.writeFileSync(b, text.split(JSON.stringify(live.content)).join(JSON.stringify("from b")));
    fs.utimesSync(b, OLD, OLD);
    fs.symlinkSync(a, file);
    for (let i = 0; i < 3; i++) expect((await model.invoke(Q)).content).to.equal(live.content); // read, kept, replayed from what was kept
    await rewriteElsewhere(file, b, "fs.rmSync(f); fs.symlinkSync(text, f);");
    expect((await model.invoke(Q)).content).to.equal("from b");
    expect(fake.count()).to.equal(1);
  });

  it("a fixture deleted after it was kept is a miss, not a replay", async () => {
    const { file } = await recordedAndKept();
    fs.rmSync(file);
    const vcr = new Vcr({ dir, mode: "replay_only" });
    const err = await openai(fake, vcr.cache)
      .invoke(Q)
      .catch((e) => e);
    expect(err.code).to.equal("VCR_MISS");
    expect(fake.count()).to.equal(1);
  });

  it("each replay gets its own objects: mutating a replayed message never changes the next replay", async () => {
    const { model } = await recordedAndKept();
    const first = await model.invoke(Q);
    const pristine = JSON.parse(JSON.stringify({ r: first.response_metadata, u: first.usage_metadata, k: first.additional_kwargs, c: first.content }));
    (first.response_metadata as Record<string, unknown>).model_name = "mutated";
    (first.response_metadata as Record<string, unknown>).added = true;
    first.usage_metadata!.total_tokens = -1;
    (first.additional_kwargs as Record<string, unknown>).mutated = [1];
    first.content = "mutated";
    const nested = Object.values(first.response_metadata).find((v) => v !== null && typeof v === "object") as Record<string, unknown>;
    expect(nested, "the recorded response_metadata has a nested object to change").to.be.an("object");
    nested.deep = "mutated";
    const next = await model.invoke(Q);
    expect(JSON.parse(JSON.stringify({ r: next.response_metadata, u: next.usage_metadata, k: next.additional_kwargs, c: next.content }))).to.deep.equal(
      pristine,
    );
    expect(fake.count()).to.equal(1);
  });

  it("each generate() gets its own generation: mutating anything in a replayed generation, nested, never changes the next replay", async () => {
    const { model, file, text } = await recordedAndKept();
    type Stored = { generationInfo?: Record<string, unknown>; message: Record<string, unknown> };
    const fixture = JSON.parse(text) as { response: { generations: Stored[] } };
    const g = fixture.response.generations[0];
    g.generationInfo = { ...g.generationInfo, logprobs: { content: [{ token: "4" }] } };
    Object.assign(g.message, {
      content: [{ type: "text", text: "four" }],
      tool_calls: [{ name: "lookup", args: { q: ["a"] }, id: "call_1", type: "tool_call" }],
      invalid_tool_calls: [{ name: "bad", args: "{", id: "call_2", error: "not JSON", type: "invalid_tool_call" }],
      additional_kwargs: { nested: { a: 1 } },
    });
    fs.writeFileSync(file, JSON.stringify(fixture, null, 2) + "\n");
    fs.utimesSync(file, OLD, OLD);
    const generation = async () => (await model.generate([[new HumanMessage(Q)]])).generations[0][0] as ChatGeneration;
    const snapshot = (c: ChatGeneration) => {
      const m = c.message as AIMessage;
      return JSON.stringify({
        info: c.generationInfo,
        m: [m.content, m.tool_calls, m.invalid_tool_calls, m.additional_kwargs, m.response_metadata, m.usage_metadata],
      });
    };
    await generation(); // read again, and kept
    const first = await generation(); // from what was kept
    const pristine = snapshot(first);
    expect(pristine).to.include('"token":"4"').and.include('"q":["a"]').and.include('"text":"four"').and.include('"error":"not JSON"');
    const m = first.message as AIMessage;
    (first.generationInfo!.logprobs as { content: unknown[] }).content.push("mutated");
    (m.content as { text: string }[])[0].text = "mutated";
    (m.tool_calls![0].args.q as string[]).push("mutated");
    m.invalid_tool_calls![0].error = "mutated";
    (m.additional_kwargs.nested as Record<string, unknown>).a = "mutated";
    (Object.values(m.response_metadata).find((v) => v !== null && typeof v === "object") as Record<string, unknown>).deep = "mutated";
    (m.usage_metadata as unknown as Record<string, Record<string, unknown>>).input_token_details.mutated = 1;
    expect(snapshot(first)).to.not.equal(pristine);
    expect(snapshot(await generation())).to.equal(pristine);
    expect(fake.count()).to.equal(1);
  });

  it("every kind replays from a kept fixture, twice, the same: chat, stream, embeddings, tool", async () => {
    let toolRuns = 0;
    const run = async (vcr: Vcr) => {
      const model = openai(fake, vcr.cache);
      const chat = (await model.invoke(Q)).content;
      let streamed = "";
      for await (const chunk of await model.stream("stream me")) streamed += chunk.content;
      const emb = vcr.embeddings(
        new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } }),
      );
      const vectors = [await emb.embedQuery("a query"), await emb.embedDocuments(["doc one", "doc two"])];
      const lookup = vcr.tool(
        tool(async ({ q }: { q: string }) => (toolRuns++, `found ${q}`), { name: "lookup", description: "Looks up.", schema: z.object({ q: z.string() }) }),
      );
      const found = await lookup.invoke({ id: "call_1", name: "lookup", args: { q: "x" }, type: "tool_call" });
      return JSON.stringify({ chat, streamed, vectors, found: found.content });
    };
    const recorded = await inOwnTest({}, () => run(new Vcr({ dir, mode: "record_or_replay" })));
    const requests = fake.count();
    for (const f of fixtureFiles(dir)) fs.utimesSync(path.join(dir, f), OLD, OLD);
    const replayVcr = new Vcr({ dir, mode: "replay_only" });
    expect(await inOwnTest({}, () => run(replayVcr))).to.equal(recorded); // read, parsed, kept
    expect(await inOwnTest({}, () => run(replayVcr))).to.equal(recorded); // from what was kept
    expect(fake.count()).to.equal(requests);
    expect(toolRuns).to.equal(1);
    expect(replayVcr.stats().replayed).to.be.greaterThan(0);
  });
});
