/**
 * The fake's OpenAI Responses API (examples/provider/responses.ts) on the wire: the SSE event
 * sequence a streamed text + function_call reply sends, the JSON body, and a scripted error.
 */
import { expect } from "chai";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import { z } from "zod";
import { startFakeProvider, type FakeProvider } from "./fakeProvider";

describe("fakeProvider: POST /v1/responses", function () {
  this.timeout(10000);
  let fake: FakeProvider;
  beforeEach(async () => (fake = await startFakeProvider()));
  afterEach(() => fake.close());

  const post = (body: unknown) =>
    fetch(`${fake.openaiBaseURL}/responses`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

  it("streams response.created, the message and function_call items with their deltas, then response.completed", async () => {
    fake.enqueue({ content: "On it.", toolCalls: [{ name: "get_weather", args: { city: "Paris" } }] });
    const res = await post({ model: "gpt-4o-mini", stream: true, input: [{ role: "user", content: [{ type: "input_text", text: "hi" }] }] });
    expect(res.headers.get("content-type")).to.equal("text/event-stream");
    const events = (await res.text())
      .split("\n\n")
      .filter(Boolean)
      .map((block) =>
        JSON.parse(
          block
            .split("\n")
            .find((l) => l.startsWith("data: "))!
            .slice(6),
        ),
      );
    expect(events.map((e) => e.type)).to.deep.equal([
      "response.created",
      "response.output_item.added",
      "response.content_part.added",
      "response.output_text.delta",
      "response.output_text.delta",
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.output_item.added",
      ...Array(4).fill("response.function_call_arguments.delta"), // 16 characters of arguments, 4 at a time
      "response.function_call_arguments.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(events.map((e) => e.sequence_number)).to.deep.equal(events.map((_, i) => i));
    const done = events.at(-1).response;
    expect(done).to.deep.include({ id: "resp_fake_1", status: "completed", model: "gpt-4o-mini" });
    expect(done.output.map((o: { type: string }) => o.type)).to.deep.equal(["message", "function_call"]);
    expect(done.output[1]).to.deep.include({ name: "get_weather", arguments: '{"city":"Paris"}', call_id: "call_fake_r1" });
    expect(done.usage).to.deep.include({ input_tokens: 1, output_tokens: 3, total_tokens: 4 });
  });

  it("answers JSON without stream (echo of the last user text, string input), and a scripted status as an OpenAI error", async () => {
    const body = (await (await post({ model: "gpt-4o-mini", input: "say hi" })).json()) as { object: string; output: { content: { text: string }[] }[] };
    expect(body.object).to.equal("response");
    expect(body.output[0].content[0].text).to.equal("echo: say hi");
    fake.enqueue({ status: 429 });
    const res = await post({ model: "gpt-4o-mini", input: "again" });
    expect(res.status).to.equal(429);
    expect(await res.json()).to.deep.equal({ error: { message: "fake error", type: "server_error", code: null } });
    expect(fake.count("/v1/responses")).to.equal(2);
  });

  it("a canned agent loop over the Responses API (createAgent, one tool): the tool call, then, with its output in the input, the answer; 2 requests, the tool ran once", async () => {
    const answers = [{ question: "weather in Paris", toolTurns: [[{ name: "get_weather", args: { city: "Paris" } }]], answer: "It is sunny in Paris." }];
    const scripted = await startFakeProvider({ answers });
    try {
      let runs = 0;
      const getWeather = tool(
        ({ city }: { city: string }) => {
          runs++;
          return `sunny in ${city}`;
        },
        { name: "get_weather", description: "The weather in a city.", schema: z.object({ city: z.string() }) },
      );
      const model = new ChatOpenAI({
        model: "gpt-4o-mini",
        apiKey: "test-key",
        useResponsesApi: true,
        maxRetries: 0,
        configuration: { baseURL: scripted.openaiBaseURL },
      });
      const out = await createAgent({ model, tools: [getWeather] }).invoke({ messages: [{ role: "user", content: "What's the weather in Paris?" }] });
      expect(out.messages.at(-1)?.content).to.satisfy((c: unknown) => JSON.stringify(c).includes("It is sunny in Paris."));
      expect([scripted.count("/v1/responses"), runs]).to.deep.equal([2, 1]);
    } finally {
      await scripted.close();
    }
  });
});
