/**
 * uninstall() leaves nothing in force on the very instances that went through the Vcr: a
 * model invoked and streamed under install(), an embeddings instance and a tool that were
 * recorded all go live afterwards, write nothing, and the model's `cache` is still unset.
 */
import { expect } from "chai";
import { tool } from "@langchain/core/tools";
import { OpenAIEmbeddings } from "@langchain/openai";
import { z } from "zod";
import { Vcr } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai, TEST_KEY } from "../helpers/models";
import { fixtureFiles } from "../helpers/tmp";

describe("vcr.install(): after uninstall() the instances it reached are as before", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("a model, embeddings and a tool recorded under install() go live afterwards: every call a request or a body run, 0 new fixtures, cache unset", async () => {
    const model = openai(fake, undefined);
    const embeddings = new OpenAIEmbeddings({
      model: "text-embedding-3-small",
      apiKey: TEST_KEY,
      maxRetries: 0,
      configuration: { baseURL: fake.openaiBaseURL },
    });
    let runs = 0;
    const weather = tool(async ({ city }: { city: string }) => (runs++, `sunny in ${city}`), {
      name: "get_weather",
      description: "Weather.",
      schema: z.object({ city: z.string() }),
    });
    const call = { type: "tool_call" as const, id: "call_1", name: "get_weather", args: { city: "Paris" } };
    const drain = async (s: AsyncIterable<unknown>) => {
      for await (const _ of s) void _;
    };

    const uninstall = new Vcr({ dir, mode: "record_or_replay" }).install();
    try {
      await model.invoke("hi");
      await drain(await model.stream("hi"));
      await embeddings.embedQuery("hi");
      await weather.invoke(call);
    } finally {
      uninstall();
    }
    const written = fixtureFiles(dir).length;
    expect(written).to.equal(4);
    expect([fake.count(), runs]).to.deep.equal([3, 1]);
    expect(model.cache).to.equal(undefined);

    await model.invoke("hi");
    await drain(await model.stream("hi"));
    await embeddings.embedQuery("hi");
    await weather.invoke(call);
    expect([fake.count(), runs]).to.deep.equal([6, 2]);
    expect(fixtureFiles(dir)).to.have.length(written);
    expect(model.cache).to.equal(undefined);
  });
});
