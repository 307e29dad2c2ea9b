/**
 * The end-to-end checks every provider file runs against its own fake, through its real
 * LangChain client: record once here, replay everything in a new process with the fake
 * stopped; provider errors record nothing and surface unchanged; no credential on disk;
 * and the key tables (what busts the key, what never enters it).
 */
import { expect } from "chai";
import * as path from "node:path";
import { Vcr, VcrSecretError, withVcr } from "../../src/index";
import { runChild } from "../helpers/child";
import { stderrOf } from "../helpers/notes";
import { allBytes, fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";
import type { Fake, Reply } from "./fakes/base";
import { IMAGE, runOps, script } from "./ops";
import { describeSameObjects } from "./sameObjects";
import type { ProviderSpec } from "./spec";

const ROOT = path.join(__dirname, "../..");

export function describeRecordReplay(spec: ProviderSpec): void {
  describe("record here, replay in a new process with the fake stopped", function () {
    this.timeout(90000);
    let recorded: Record<string, any> | undefined;
    let replayed: Record<string, any> | undefined;
    let dir: string;
    before(() => void (dir = tmpDir(`vcr-${spec.name}-`)));
    after(() => removeTmpDirs());

    it("records each case once; the new process replays them all: 0 requests, 0 tool bodies", async () => {
      const fake = await spec.start();
      const replies = script(spec);
      fake.enqueue(...replies);
      let warned = "";
      try {
        warned = await stderrOf(async () => (recorded = await withVcr({ mode: "record_or_replay" }, () => runOps(spec, fake.url, dir))));
      } finally {
        await fake.close();
      }
      expect(warned, "every stream the client records says it ended").not.to.include("carry no finish reason");
      if (!recorded) throw new Error("the recording run returned nothing");
      const embeddingCalls = spec.embeddingRequests ?? 0;
      const fixtures = replies.length + (spec.embeddings ? 3 : 0) + 3; // a vector per text; + the agents' three tool calls
      expect(fake.count()).to.equal(replies.length + embeddingCalls);
      expect(recorded.agent.toolRuns).to.equal(1);
      expect(recorded.agentMessages.length, "the streamed agent's chunks").to.be.greaterThan(3);
      expect(recorded.stats.recorded).to.equal(fixtures);
      expect(fixtureFiles(dir)).to.have.length(fixtures);

      const child = await runChild(process.execPath, ["-r", "ts-node/register/transpile-only", path.join(__dirname, "replayChild.ts"), spec.name], {
        cwd: ROOT,
        env: {
          ...process.env,
          TS_NODE_TRANSPILE_ONLY: "true",
          LANGCHAIN_VCR_QUIET: "1",
          LANGCHAIN_VCR_MODE: "replay_only",
          FIXTURE_DIR: dir,
          FAKE_URL: fake.url,
        },
        timeoutMs: 60000,
      });
      expect(child.status, child.stderr).to.equal(0);
      replayed = JSON.parse(child.stdout.trim().split("\n").pop()!);
      expect(replayed!.stats).to.deep.equal({ replayed: fixtures, recorded: 0, bypassed: 0, missed: 0 });
      expect(replayed!.agent.toolRuns).to.equal(0);
      // 0 requests: the fake is stopped, so any request would have failed the child (connection refused)
    });

    const same = (key: string) => () => {
      if (!recorded || !replayed) throw new Error("the record-and-replay test above failed");
      expect(replayed[key]).to.deep.equal(recorded[key]);
      return [recorded[key], replayed[key]];
    };
    it("invoke: the same message, usage_metadata and response_metadata restored", () => {
      const [, b] = same("invoke")();
      expect(b.content).to.satisfy((c: unknown) => JSON.stringify(c).includes("Hello from the fake provider."));
      expect(b.usage_metadata.total_tokens).to.be.greaterThan(0);
      expect(Object.keys(b.response_metadata).length).to.be.greaterThan(0);
    });
    if (spec.thinkingFields) {
      it("extended thinking: the thinking block (and its signature) replays", () => {
        const [, b] = same("thinking")();
        expect(JSON.stringify(b.content)).to.include("Let me think about it.");
        const [s] = same("thinkingStream")();
        expect(s.chunks.length).to.be.greaterThan(3);
        const blocks: Record<string, string>[] = Array.isArray(s.aggregate.content) ? s.aggregate.content : [];
        expect(blocks.map((b) => b.thinking ?? b.reasoning ?? "").join("")).to.equal("Streaming my thoughts.");
        expect(blocks.some((b) => typeof b.signature === "string" && b.signature.length > 0)).to.equal(true);
      });
    }
    it(".stream(): the identical chunk list and aggregate, usage included", () => {
      const [a, b] = same("stream")();
      expect(a.chunks.length).to.be.greaterThan(3);
      expect(JSON.stringify(b.aggregate.content)).to.include("Once upon a time there was a fixture.");
      const usage = spec.streamedUsage === "response_metadata" ? b.aggregate.response_metadata.usage : b.aggregate.usage_metadata;
      expect(usage.total_tokens).to.be.greaterThan(0);
    });
    it('streamEvents({ version: "v2" }): the same events and chunks', () => {
      const [a] = same("events")();
      expect(a.filter((e: unknown[]) => e[0] === "on_chat_model_stream").length).to.be.greaterThan(3);
    });
    it("streamEvents() (the new default protocol): the same events", () => {
      const [a] = same("eventsNew")();
      expect(a.map((e: { event: string }) => e.event)).to.include.members(["message-start", "content-block-delta", "message-finish"]);
    });
    it("bindTools: the tool call, invoked and streamed (identical tool_call_chunks)", () => {
      const [, inv] = same("toolInvoke")();
      expect(inv.tool_calls.map((c: any) => [c.name, c.args])).to.deep.equal([["get_weather", { city: "Paris" }]]);
      const [, str] = same("toolStream")();
      expect(str.toolCalls.map((c: any) => [c.name, c.args])).to.deep.equal([["get_weather", { city: "Rome" }]]);
    });
    it("withStructuredOutput: the same parsed object", () => {
      const [, b] = same("structured")();
      expect(b).to.deep.equal({ city: "Paris" });
    });
    it("createAgent with vcr.tools: the same messages (the tool body ran once, then 0 times: above)", () => {
      expect(replayed?.agent.messages).to.deep.equal(recorded?.agent.messages);
      const b = replayed!.agent;
      expect(b.messages.map((m: any) => m.type)).to.deep.equal(["human", "ai", "tool", "ai"]);
      expect(b.messages[2].content).to.equal("order 42 shipped");
    });
    it('createAgent streamed with streamMode "messages" (its model calls token-streamed): the same chunks, in order', () => {
      expect(replayed?.agentMessages).to.deep.equal(recorded?.agentMessages);
      const empty = (c: unknown) => c === "" || c === undefined || (Array.isArray(c) && c.length === 0);
      const withContent = (replayed!.agentMessages as { type: string; content: unknown }[]).filter((m) => m.type === "ai" && !empty(m.content));
      expect(withContent.length, "the model's messages arrive in more than one chunk").to.be.greaterThan(2);
    });
    it("createAgent's streamEvents v2: the same on_chat_model_stream events, in order", () => {
      expect(replayed?.agentEvents).to.deep.equal(recorded?.agentEvents);
      expect((replayed!.agentEvents as unknown[]).length, "the model's stream events").to.be.greaterThan(2);
    });
    if (spec.images) {
      it("an image input: the same answer; the fixture holds the image's sha256, never its bytes", () => {
        same("image")();
        expect(allBytes(dir)).not.to.include(IMAGE.split(",")[1]);
      });
    }
    if (spec.embeddings) {
      it("embeddings: the same vectors", () => {
        const [, b] = same("embeddings")();
        expect(b.query.length).to.be.greaterThan(0);
        expect(b.documents).to.have.length(2);
      });
    }
    it("no credential the clients hold appears on disk", () => {
      const bytes = allBytes(dir);
      expect(bytes.length).to.be.greaterThan(1000);
      for (const c of spec.credentials) expect(bytes).not.to.include(c);
    });
  });
}

/** What the real client throws for `reply` when no cache is involved. */
async function bareError(spec: ProviderSpec, fake: Fake, reply: Reply, streamed: boolean): Promise<Error> {
  fake.enqueue(reply);
  return captured(() => spec.chat(fake.url, undefined), streamed);
}

async function captured(make: () => ReturnType<ProviderSpec["chat"]>, streamed: boolean): Promise<Error> {
  try {
    const model = make();
    if (streamed) for await (const _ of await model.stream("x")) void _;
    else await model.invoke("x");
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected the call to fail");
}

export function describeErrors(spec: ProviderSpec): void {
  describe("provider errors record nothing and surface unchanged", function () {
    this.timeout(20000);
    let fake: Fake;
    before(async () => void (fake = await spec.start()));
    after(async () => {
      await fake.close();
      removeTmpDirs();
    });
    const cases: [string, Reply, boolean][] = [
      ["401", { status: 401 }, false],
      ["429", { status: 429 }, false],
      ["500", { status: 500 }, false],
      ["500 on a stream", { status: 500 }, true],
      ["malformed JSON mid-stream", { malformed: true }, true],
    ];
    for (const [name, reply, streamed] of cases) {
      it(`${name}: the client's own error (its message, then the note that no fixture matched), 0 fixtures`, async () => {
        const expected = await bareError(spec, fake, reply, streamed);
        const dir = tmpDir();
        const vcr = new Vcr({ dir, mode: "record_or_replay" });
        fake.enqueue(reply);
        const got = await captured(() => spec.chat(fake.url, vcr.cache), streamed);
        expect(got.constructor).to.equal(expected.constructor);
        const [own, note, ...rest] = got.message.split("\nlangchain-vcr: ");
        expect(own).to.equal(expected.message);
        expect(note, got.message).to.match(/^no recorded fixture matched this chat(_stream)? request from /);
        expect(rest, "one note").to.deep.equal([]);
        expect((got as { status?: number }).status).to.equal((expected as { status?: number }).status);
        expect(fixtureFiles(dir)).to.have.length(0);
        expect(vcr.stats().recorded).to.equal(0);
      });
    }
    it("a prompt holding the client's own credential is refused before anything is written", async () => {
      const dir = tmpDir();
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      const secret = spec.credentials[0];
      const err = await spec
        .chat(fake.url, vcr.cache)
        .invoke(`my key is ${secret}`)
        .then(
          () => undefined,
          (e: Error) => e,
        );
      expect(err).to.be.instanceOf(VcrSecretError);
      expect(fixtureFiles(dir)).to.have.length(0);
    });
  });
}

/** One call for a key table: `chat(fields)` builds the provider's client for the fake at `url`. */
export type KeyCall = (chat: (fields?: Record<string, unknown>) => ReturnType<ProviderSpec["chat"]>, url: string) => Promise<unknown>;

/** Pairs that ask different things give two fixtures; pairs that differ only in transport or identity give one. */
export function describeKey(spec: ProviderSpec, busts: Record<string, [KeyCall, KeyCall]>, same: Record<string, [KeyCall, KeyCall]>): void {
  describe("what enters the key", function () {
    this.timeout(20000);
    let fake: Fake;
    let other: Fake;
    before(async () => {
      fake = await spec.start();
      other = await spec.start();
    });
    after(async () => {
      await fake.close();
      await other.close();
      removeTmpDirs();
    });
    for (const [name, [a, b]] of Object.entries(busts)) {
      it(`${name} → two fixtures`, async () => {
        const dir = tmpDir();
        const vcr = new Vcr({ dir, mode: "record_or_replay" });
        await a((f) => spec.chat(fake.url, vcr.cache, f), fake.url);
        await b((f) => spec.chat(fake.url, vcr.cache, f), fake.url);
        expect(fixtureFiles(dir)).to.have.length(2);
      });
    }
    for (const [name, [a, b]] of Object.entries(same)) {
      it(`${name} → one fixture, the second call replays`, async () => {
        const dir = tmpDir();
        const vcr = new Vcr({ dir, mode: "record_or_replay" });
        await a((f) => spec.chat(fake.url, vcr.cache, f), fake.url);
        const before = fake.count() + other.count();
        await b((f) => spec.chat(other.url, vcr.cache, f), other.url); // another server: another port
        expect(fake.count() + other.count()).to.equal(before);
        expect(fixtureFiles(dir)).to.have.length(1);
      });
    }
  });
}

/** A provider's whole file: record/replay, errors, and its key tables; `more` adds the provider's own checks. */
export function describeProvider(
  title: string,
  spec: ProviderSpec,
  key: { busts: Record<string, [KeyCall, KeyCall]>; same: Record<string, [KeyCall, KeyCall]> },
  more?: () => void,
): void {
  describe(title, () => {
    describeRecordReplay(spec);
    describeSameObjects(spec);
    describeErrors(spec);
    describeKey(spec, key.busts, key.same);
    more?.();
  });
}
