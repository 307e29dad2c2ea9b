/**
 * A provider (or a proxy) that answers with status 200 and a body replay could not use: an OpenAI
 * error body, `choices: []`. ChatOpenAI then returns no generations. A trial found such an answer
 * written as `{"generations": []}`: every later lookup, in every mode, failed on it as damaged until
 * it was deleted, and a test that caught the client's TypeError passed with it counted "recorded".
 */
import { expect } from "chai";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Vcr } from "../../src/index";
import { fixtureFiles, removeTmpDirs, tmpDir } from "../helpers/tmp";
import { stderrOf } from "../helpers/notes";
import { openai } from "../helpers/models";

/** Chat completions on loopback: each request takes the next body of `bodies` (status 200), the last one from then on. */
async function startProvider(bodies: unknown[]): Promise<{ openaiBaseURL: string; count: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const body = JSON.stringify(bodies[Math.min(n++, bodies.length - 1)]);
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const openaiBaseURL = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  return { openaiBaseURL, count: () => n, close: () => new Promise((r) => server.close(() => r())) };
}

const ANSWER = {
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1,
  model: "gpt-4o-mini",
  choices: [{ index: 0, message: { role: "assistant", content: "Paris." }, finish_reason: "stop" }],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
};
const ERROR_BODY = { error: { message: "The server is overloaded.", type: "server_error", code: null } };

describe("a provider answer replay could not use is never written (status 200 with an error body, or no choices)", function () {
  this.timeout(20000);
  after(removeTmpDirs);

  for (const [name, bad] of [
    ["an OpenAI error body", ERROR_BODY],
    ["choices: []", { ...ANSWER, choices: [] }],
  ] as const) {
    it(`${name}: nothing written, a warning naming why and the file, the client's own outcome; once the provider answers, the same call records and replays`, async () => {
      const provider = await startProvider([bad, ANSWER]);
      try {
        const dir = tmpDir();
        const vcr = new Vcr({ dir, mode: "record_or_replay" });
        const model = openai(provider, vcr.cache);
        let error: unknown;
        const warned = await stderrOf(() => model.invoke("capital of France?").catch((e: unknown) => (error = e)));
        expect(error, "the client's own outcome of an answer with no generations").to.be.instanceOf(TypeError);
        expect(fixtureFiles(dir)).to.deep.equal([]);
        expect(warned).to.include("the provider's answer to the chat request from ChatOpenAI").and.include("was not recorded: replay could not use it");
        expect(warned).to.include("(not written)").and.include("Fix: nothing to mend among the fixtures");
        expect(vcr.stats()).to.include({ recorded: 0 });
        // the provider recovers: the same request records, then replays with no request
        expect((await model.invoke("capital of France?")).content).to.equal("Paris.");
        expect(fixtureFiles(dir)).to.have.length(1);
        const replay = openai(provider, new Vcr({ dir, mode: "replay_only" }).cache);
        expect((await replay.invoke("capital of France?")).content).to.equal("Paris.");
        expect(provider.count()).to.equal(2);
      } finally {
        await provider.close();
      }
    });
  }

  it("under record_always, a committed fixture is left as it was (not replaced by the unusable answer)", async () => {
    const provider = await startProvider([ANSWER, ERROR_BODY]);
    try {
      const dir = tmpDir();
      const make = (mode: "record_or_replay" | "record_always") => openai(provider, new Vcr({ dir, mode }).cache);
      await make("record_or_replay").invoke("capital of France?");
      const [file] = fixtureFiles(dir);
      const before = require("node:fs").readFileSync(`${dir}/${file}`, "utf8") as string;
      const warned = await stderrOf(() =>
        make("record_always")
          .invoke("capital of France?")
          .catch(() => undefined),
      );
      expect(warned).to.include("(not written; the one there was left as it was)");
      expect(require("node:fs").readFileSync(`${dir}/${file}`, "utf8")).to.equal(before);
      expect(provider.count()).to.equal(2);
    } finally {
      await provider.close();
    }
  });
});
