import { expect } from "chai";
import { OpenAIEmbeddings } from "@langchain/openai";
import { tool } from "langchain";
import { z } from "zod";
import { Vcr, type Fixture } from "../../src/index";
import { inOwnTest } from "../helpers/ownTest";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai, TEST_KEY } from "../helpers/models";
import { allBytes, readFixtures } from "../helpers/tmp";

/** One redactor, every kind: the customer id never reaches disk, and every fixture still replays. */
describe("a redactor covers chat, stream, embedding and tool fixtures alike", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  const ID = "CUST-48213";
  const maskCustomer = (f: Fixture): Fixture => JSON.parse(JSON.stringify(f).replace(/CUST-\d+/g, "CUST-XXXX"));

  it("the id is absent from every byte of every file; each kind is marked redacted and replays", async () => {
    let bodyRuns = 0;
    const lookup = tool(
      async ({ customer }: { customer: string }) => {
        bodyRuns++;
        return `account of ${customer}: 3 open invoices`;
      },
      { name: "lookup_customer", description: "Look up a customer", schema: z.object({ customer: z.string() }) },
    );
    const run = async (vcr: Vcr) => {
      const chat = await openai(fake, vcr.cache).invoke(`Summarize ${ID}`);
      let streamed = "";
      for await (const chunk of await openai(fake, vcr.cache).stream(`Stream about ${ID}`)) streamed += chunk.text;
      const embeddings = vcr.embeddings(
        new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: TEST_KEY, configuration: { baseURL: fake.openaiBaseURL } }),
      );
      const vector = await embeddings.embedQuery(`notes on ${ID}`);
      const toolResult = await vcr.tool(lookup).invoke({ customer: ID });
      return { chat: chat.text, streamed, vector, toolResult };
    };

    const live = await inOwnTest({ mode: "record_or_replay" }, () => run(new Vcr({ dir, redactors: [maskCustomer] })));
    expect(live.chat).to.equal(`echo: Summarize ${ID}`); // the caller always gets the real answer
    expect(live.toolResult).to.equal(`account of ${ID}: 3 open invoices`);
    const fixtures = readFixtures(dir);
    expect(fixtures.map((f) => f.kind).sort()).to.deep.equal(["chat", "chat_stream", "embedding", "tool"]);
    expect(fixtures.every((f) => f.redacted === true)).to.equal(true);
    expect(allBytes(dir)).not.to.include(ID);
    expect(allBytes(dir)).to.include("CUST-XXXX");

    const requests = fake.count();
    const replay = await inOwnTest({ mode: "replay_only" }, () => run(new Vcr({ dir, redactors: [maskCustomer] })));
    expect(fake.count()).to.equal(requests);
    expect(bodyRuns).to.equal(1);
    expect(replay.vector).to.deep.equal(live.vector);
    expect(replay.chat).to.equal("echo: Summarize CUST-XXXX"); // replay returns what is on disk
  });
});
