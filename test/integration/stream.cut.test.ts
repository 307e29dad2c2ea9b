/**
 * A stream a provider or a proxy closes cleanly before its end (no `[DONE]`, no last event with a
 * finish reason): the OpenAI SDK and LangChain take it as whole, so its recording would replay the
 * cut answer in every run. A trial recorded "ANSWER(tell " this way, and validate passed it. The
 * recorder writes what the client got, and says so; a stream that ended says nothing.
 */
import { expect } from "chai";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import { Vcr } from "../../src/index";
import { withFakeProvider } from "../helpers/fakeProvider";
import { stderrOf } from "../helpers/notes";
import { ollama, openai } from "../helpers/models";
import { fixtureFiles, readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";

const WARNING = "whose chunks carry no finish reason";

async function drain(stream: Promise<AsyncIterable<{ content: unknown }>>): Promise<string> {
  let text = "";
  for await (const c of await stream) text += typeof c.content === "string" ? c.content : "";
  return text;
}

/** Chat completions streaming two deltas, then the response ends: no finish_reason, no [DONE]. */
async function startCuttingProvider(): Promise<{ openaiBaseURL: string; close: () => Promise<void> }> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const content of ["ANSWER(", "tell "]) {
        const chunk = { id: "chatcmpl-cut", object: "chat.completion.chunk", created: 1, model: "gpt-4o-mini", choices: [{ index: 0, delta: { content } }] };
        res.write(`data: ${JSON.stringify(chunk)}\n\n`);
      }
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { openaiBaseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, close: () => new Promise((r) => server.close(() => r())) };
}

describe("a recorded stream none of whose chunks says it ended is written as the client got it, with a warning", function () {
  this.timeout(20000);
  after(removeTmpDirs);

  it("a chat-completions stream cut cleanly after two deltas: the warning names the fixture, its chunk count and how it ends", async () => {
    const provider = await startCuttingProvider();
    try {
      const dir = tmpDir();
      const model = openai(provider, new Vcr({ dir, mode: "record_or_replay" }).cache);
      let text = "";
      const warned = await stderrOf(async () => (text = await drain(model.stream("tell me"))));
      expect(text).to.equal("ANSWER(tell ");
      const [file] = fixtureFiles(dir);
      expect(file).to.be.a("string");
      expect(warned).to.include(`recorded a chat stream from ChatOpenAI (model "gpt-4o-mini") ${WARNING}`);
      expect(warned).to.include(`${file} (`).and.include(`chunk(s), ending "ANSWER(tell "`);
      expect(warned).to.include("If the answer is cut short, delete the fixture and record it again");
    } finally {
      await provider.close();
    }
  });

  it("streams that end (ChatOpenAI over chat completions and the Responses API, ChatOllama): no warning", async () => {
    await withFakeProvider({}, async (fake) => {
      const dir = tmpDir();
      const cache = new Vcr({ dir, mode: "record_or_replay" }).cache;
      const warned = await stderrOf(async () => {
        await drain(openai(fake, cache).stream("completions stream"));
        await drain(openai(fake, cache, { useResponsesApi: true }).stream("responses stream"));
        await drain(ollama(fake, cache).stream("ollama stream"));
      });
      expect(readFixtures(dir).map((f) => f.kind)).to.deep.equal(["chat_stream", "chat_stream", "chat_stream"]);
      expect(warned).not.to.include(WARNING);
    });
  });
});
