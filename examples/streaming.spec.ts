/**
 * Example: streaming. A stream is recorded chunk by chunk (its own `chat_stream` fixture) and
 * replayed as the same chunks in the same order — text, and tool-call argument fragments.
 */
import { expect } from "chai";
import { AIMessageChunk } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { ChatOpenAI } from "@langchain/openai";
import { z } from "zod";
import { Vcr } from "../src/index"; // in your project: from "langchain-vcr"
import { provider } from "./provider/config";
import { CASSETTES } from "./support/cassettes";

const getWeather = tool(async ({ city }: { city: string }) => `Sunny in ${city}.`, {
  name: "get_weather",
  description: "Current weather for a city.",
  schema: z.object({ city: z.string() }),
});

describe("streaming: text and a streamed tool call", () => {
  // #region stream
  const vcr = new Vcr({ dir: CASSETTES });
  const model = new ChatOpenAI({ ...provider.openai, model: "gpt-4o-mini", temperature: 0, cache: vcr.cache });

  it("streams a haiku in several chunks", async () => {
    const pieces: string[] = [];
    for await (const chunk of await model.stream("Write a haiku about replayed tests.")) pieces.push(chunk.text);
    expect(pieces.length).to.be.greaterThan(3);
    expect(pieces.join("").split("\n")).to.have.length(3);
  });
  // #endregion stream

  // #region tool-call-stream
  it("streams a tool call whose arguments arrive in fragments", async () => {
    let message: AIMessageChunk | undefined;
    let fragments = 0;
    for await (const chunk of await model.bindTools([getWeather]).stream("What's the weather in Paris?")) {
      fragments += chunk.tool_call_chunks?.length ?? 0;
      message = message ? message.concat(chunk) : chunk;
    }
    expect(fragments).to.be.greaterThan(1);
    expect(message!.tool_calls).to.have.length(1);
    expect(message!.tool_calls![0]).to.include({ name: "get_weather" });
    expect(message!.tool_calls![0].args).to.deep.equal({ city: "Paris" });
  });
  // #endregion tool-call-stream
});
