/**
 * `vcr.install()` end to end, through the real clients against the loopback fake, in child
 * processes: nothing in the child passes a cache or wraps a tool or an embeddings. The
 * recording child runs createAgent with a string model ("openai:gpt-4o-mini", the Responses
 * API) and plain tools, initChatModel (invoke and stream) and an app module that built its
 * own ChatOpenAI and OpenAIEmbeddings before install(); a NEW child, with the fake stopped
 * and replay_only, gives the same answers with 0 requests and 0 tool-body runs.
 */
import { expect } from "chai";
import * as path from "node:path";
import { ROOT } from "../helpers/built";
import { runChild } from "../helpers/child";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";

const CHILD = path.join(__dirname, "scripts", "installChild.ts");
const KEY = "sk-test-install-not-a-secret-0001";

describe("vcr.install(): zero-touch record, then replay in a new process with the provider stopped", function () {
  this.timeout(180000);
  let fake: FakeProvider;
  afterEach(async () => {
    await fake?.close();
    removeTmpDirs();
  });

  function child(dir: string, baseURL: string, mode: string) {
    return runChild(process.execPath, ["-r", "ts-node/register/transpile-only", CHILD], {
      cwd: ROOT,
      env: { ...process.env, FIXTURE_DIR: dir, OPENAI_BASE_URL: baseURL, OPENAI_API_KEY: KEY, LANGCHAIN_VCR_MODE: mode, LANGCHAIN_VCR_QUIET: "1" },
      timeoutMs: 90000,
    });
  }

  it("createAgent('openai:…') + plain tools, initChatModel, an app's own ChatOpenAI/OpenAIEmbeddings: same answers, 0 requests, 0 tool bodies", async () => {
    fake = await startFakeProvider();
    const dir = tmpDir();
    fake.enqueue({ toolCalls: [{ name: "get_weather", args: { city: "Paris" } }] }, { content: "It is sunny and 21C in Paris." });
    const rec = await child(dir, fake.openaiBaseURL, "record_or_replay");
    expect(rec.status, rec.stderr).to.equal(0);
    const recorded = JSON.parse(rec.stdout.trim().split("\n").pop()!);
    expect(recorded.agent.runs).to.deep.equal({ get_weather: 1 });
    expect(recorded.agent.messages.map((m: { type: string }) => m.type)).to.deep.equal(["human", "ai", "tool", "ai"]);
    expect(recorded.agent.messages[3].text).to.equal("It is sunny and 21C in Paris.");
    expect(recorded.init.invoked).to.equal("echo: Say hello.");
    expect(recorded.init.streamed.join("")).to.equal("echo: Stream a greeting.");
    expect(recorded.app.doc).to.be.a("string");
    expect(fake.count("/v1/responses")).to.equal(2); // the agent's two model turns (string models use the Responses API)
    expect(fake.count("/v1/chat/completions")).to.equal(3); // initChatModel invoke + stream, the app's ChatOpenAI
    expect(fake.count("/v1/embeddings")).to.equal(2);
    const kinds = readFixtures(dir)
      .map((f) => f.kind)
      .sort();
    expect(kinds).to.deep.equal([...Array(4).fill("chat"), "chat_stream", ...Array(4).fill("embedding"), "tool"].sort());
    expect(JSON.stringify(readFixtures(dir))).not.to.contain(KEY);

    const url = fake.openaiBaseURL;
    await fake.close();
    const replay = await child(dir, url, "replay_only");
    expect(replay.status, replay.stderr).to.equal(0);
    const replayed = JSON.parse(replay.stdout.trim().split("\n").pop()!);
    expect(replayed.agent.runs).to.deep.equal({ get_weather: 0 });
    expect(replayed.agent.messages).to.deep.equal(recorded.agent.messages);
    expect(replayed.init).to.deep.equal(recorded.init);
    expect(replayed.app).to.deep.equal(recorded.app);
    expect(replayed.stats).to.deep.equal({ replayed: 10, recorded: 0, bypassed: 0, missed: 0 });
    expect(readFixtures(dir)).to.have.length(10);
  });
});
