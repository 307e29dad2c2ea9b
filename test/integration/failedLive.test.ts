/**
 * A `record_or_replay` miss whose live call fails (no key, a provider down): the provider's
 * error alone ("Missing credentials", "Connection error") never says that no fixture matched.
 * langchain-vcr joins a note to that error: the request had no fixture, the nearest recorded
 * one and what differs, and how to record it; the run's summary counts it.
 */
import { expect } from "chai";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { OpenAIEmbeddings } from "@langchain/openai";
import { HumanMessage } from "@langchain/core/messages";
import { Vcr, type VcrMode } from "../../src/index";
import { onScopeEvent, runAsTest, Scope } from "../../src/scope";
import { caughtNote } from "../../src/runner/caughtMisses";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { CLOSED_PORT_URL, offlineOpenAI, openai } from "../helpers/models";
import { startHangingServer } from "../runners/helpers/hangingServer";

const NOTE = "no recorded fixture matched this";

/** The error `fn` rejects with, and the failed-live events it emitted. */
async function failure(fn: () => Promise<unknown>): Promise<{ message: string; failedLive: number }> {
  let failedLive = 0;
  const stop = onScopeEvent((e) => void (e.type === "failedLive" && failedLive++));
  try {
    await fn();
  } catch (e) {
    return { message: String((e as Error).message), failedLive };
  } finally {
    stop();
  }
  throw new Error("expected a rejection");
}

function count(text: string, part: string): number {
  return text.split(part).length - 1;
}

describe("a record_or_replay miss whose live call fails says it had no fixture", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));
  const vcr = (mode: VcrMode = "record_or_replay") => new Vcr({ dir, mode });

  it("chat: the provider's error first, then one note with the nearest fixture's difference and the fix; counted once", async () => {
    await openai(fake, vcr().cache).invoke("Refund order 42, which arrived broken.");
    const { message, failedLive } = await failure(() => offlineOpenAI(vcr().cache).invoke("Refund order 42, which arrived broken!"));
    expect(message.startsWith("langchain-vcr:"), message).to.equal(false); // the provider's own error leads
    expect(count(message, NOTE), message).to.equal(1);
    expect(message).to.include(`langchain-vcr: ${NOTE} chat request from ChatOpenAI (model "gpt-4o-mini")`);
    expect(message).to.include("so mode record_or_replay sent it to the provider to record it, and that call failed (the error above); nothing was recorded.");
    expect(message).to.match(
      /nearest recorded chat fixture: .*\.json, which differs at:\n {4}messages\[0\]\.content: "Refund order 42, which arrived broken\." → "Refund order 42, which arrived broken!"/,
    );
    expect(message).to.include(
      "If the request changed on purpose, record it with the real provider configured (its URL and key; a client retries a provider it cannot reach for a minute or more, and maxRetries: 0 on the model makes that fail at once): LANGCHAIN_VCR_MODE=record_or_replay",
    );
    expect(message).to.include("Under CI=true or LANGCHAIN_VCR_MODE=replay_only such a request fails as a VcrMissError");
    expect(failedLive).to.equal(1);
    expect(fake.count()).to.equal(1);
  });

  it("a stream: the same note on the stream's error", async () => {
    const { message, failedLive } = await failure(async () => {
      for await (const _ of await offlineOpenAI(vcr().cache).stream("What is the capital of France?"));
    });
    expect(count(message, NOTE), message).to.equal(1);
    expect(message).to.include(`${NOTE} chat_stream request`);
    expect(message).to.include("To record it, run the test with the real provider configured");
    expect(failedLive).to.equal(1);
  });

  it("a provider that failed on its side (HTTP 503), refused the key (401) or rate-limited the call (429): the fix says so, not that the provider is not configured", async () => {
    await openai(fake, vcr().cache).invoke("Refund order 42, which arrived broken.");
    let status = 503;
    let requests = 0;
    const server = http.createServer((req, res) => {
      requests++;
      req.resume();
      res
        .writeHead(status, { "content-type": "application/json" })
        .end(JSON.stringify({ error: { message: "The server is overloaded.", type: "server_error" } }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const failing = () => openai({ openaiBaseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` }, vcr().cache);
    try {
      const down = await failure(() => failing().invoke("Refund order 42, which arrived broken!"));
      expect(down.message).to.include(
        "If the request changed on purpose, record it again once the provider answers (it failed with HTTP 503, on its side: the request may be fine): LANGCHAIN_VCR_MODE=record_or_replay",
      );
      expect(down.message).not.to.include("with the real provider configured");
      status = 401;
      const refused = await failure(() => failing().invoke("Where is order 43?"));
      // another question than the recorded one (a new test's): nothing to undo, only to record
      expect(refused.message).to.include("To record it, run the test with a key the provider accepts (it refused this one: HTTP 401)");
      expect(refused.message).to.not.include("undo the change");
      status = 429;
      const limited = await failure(() => failing().invoke("Where is order 44?"));
      expect(limited.message).to.include(
        "run the test again once the provider takes it (HTTP 429: rate-limited, or the account is out of quota: wait, or check its quota)",
      );
      expect([down.failedLive, refused.failedLive, limited.failedLive, requests]).to.deep.equal([1, 1, 1, 3]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("embeddings: one note for the call, every text counted", async () => {
    const embeddings = vcr().embeddings(
      new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "no-key", maxRetries: 0, configuration: { baseURL: CLOSED_PORT_URL } }),
    );
    const { message, failedLive } = await failure(() => embeddings.embedDocuments(["a", "b", "c"]));
    expect(count(message, NOTE), message).to.equal(1);
    expect(message).to.include(`${NOTE} embedding request`);
    expect(failedLive).to.equal(3);
  });

  it("a batch that fails as one call: one note, every request without a fixture counted", async () => {
    const { message, failedLive } = await failure(() => offlineOpenAI(vcr().cache).generate([[new HumanMessage("first")], [new HumanMessage("second")]]));
    expect(count(message, NOTE), message).to.equal(1);
    expect(failedLive).to.equal(2);
  });

  it("no note where nothing was missed: record_always, bypass, an aborted call; replay_only is a VcrMissError as before", async () => {
    for (const mode of ["record_always", "bypass"] as const) {
      const { message, failedLive } = await failure(() => offlineOpenAI(vcr(mode).cache).invoke("Where is order 42?"));
      expect(message, mode).to.not.include(NOTE);
      expect(failedLive, mode).to.equal(0);
    }
    const hanging = await startHangingServer();
    try {
      const controller = new AbortController();
      const model = openai(fake, vcr().cache, { configuration: { baseURL: hanging.url } });
      setTimeout(() => controller.abort(), 100);
      const { message, failedLive } = await failure(() => model.invoke("Where is order 43?", { signal: controller.signal }));
      expect(message).to.not.include(NOTE);
      expect(failedLive).to.equal(0);
    } finally {
      await hanging.close();
    }
    const miss = await failure(() => offlineOpenAI(vcr("replay_only").cache).invoke("Where is order 44?"));
    expect(miss.message).to.include("no recorded fixture for this chat request").and.not.include(NOTE);
    expect(miss.failedLive).to.equal(0);
  });

  it("the caught-miss note of a test (runner/caughtMisses.ts): a miss whose live call failed and that a retry then recorded leaves no note; one the code gave up on does, once", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const retried = new Scope("retried");
    fake.enqueue({ status: 500 });
    const answer = await runAsTest(retried, () => openai(fake, vcr.cache).withRetry({ stopAfterAttempt: 2 }).invoke("asked twice"));
    expect(answer.content).to.equal("echo: asked twice");
    expect(fake.count()).to.equal(2);
    expect(caughtNote(retried, "passed")).to.equal(undefined);
    const gaveUp = new Scope("gave up");
    fake.enqueue({ status: 500 });
    fake.enqueue({ status: 500 });
    const sorry = await runAsTest(gaveUp, () =>
      openai(fake, vcr.cache)
        .withRetry({ stopAfterAttempt: 2 })
        .invoke("never answered")
        .catch(() => "Sorry"),
    );
    expect(sorry).to.equal("Sorry");
    const note = caughtNote(gaveUp, "passed")!;
    expect(note).to.include('test "gave up" passed, but 1 request(s) in it had no fixture');
    expect(note).to.include("or the call was not awaited, and the test ended first)"); // a forgotten await looks the same (trial 36a)
    expect(count(note, "  - chat request from")).to.equal(1); // two failed attempts, one request
  });
});
