/** Chat calls that go wrong: a damaged fixture fails clearly and never goes live; an aborted call records nothing. */
import { expect } from "chai";
import { SCHEMA_VERSION } from "../../src/store/fixture";
import * as fs from "node:fs";
import * as path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { Vcr, VcrFixtureError } from "../../src/index";
import { chatRequest } from "../../src/canonical/chat";
import { requestHash } from "../../src/canonical/json";
import { identity } from "../../src/canonical/normalize";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import { ollama, openai } from "../helpers/models";
import { fixtureFiles, readFixtures } from "../helpers/tmp";

describe("chat: damaged fixtures and aborted calls", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("a chat fixture whose response is damaged is a VcrFixtureError naming the file, not a TypeError", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const request = chatRequest(openai(fake, vcr.cache), [new HumanMessage("damaged")], {}, identity);
    const hash = requestHash("chat", request);
    const file = path.join(dir, `${hash}.json`);
    fs.writeFileSync(file, JSON.stringify({ schemaVersion: SCHEMA_VERSION, kind: "chat", hash, recordedAt: "x", request, response: { generation: [] } }));
    const err = await openai(fake, vcr.cache)
      .invoke("damaged")
      .catch((e) => e);
    expect(err).to.be.instanceOf(VcrFixtureError);
    expect(err.message).to.include(file).and.include('"response.generations"');
    expect(fake.count()).to.equal(0);
  });

  it('an aborted ChatOllama call that still resolves (its stream ends early, answering "") records nothing', async function () {
    this.timeout(10000);
    const slow = await startFakeProvider({ latencyMs: 300 });
    try {
      const vcr = new Vcr({ dir, mode: "record_or_replay" });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      await ollama(slow, vcr.cache)
        .invoke("slow question", { signal: controller.signal })
        .catch(() => undefined); // it may resolve with "" or reject: either way nothing is recorded
      expect(fixtureFiles(dir)).to.deep.equal([]);
      const answer = await ollama(slow, vcr.cache).invoke("slow question");
      expect(answer.content).to.equal("echo: slow question");
      expect(readFixtures(dir).map((f) => f.response.generations[0].text)).to.deep.equal(["echo: slow question"]);
    } finally {
      await slow.close();
    }
  });
});
