/**
 * Child for install.newprocess.test.ts: under `vcr.install()` only (no cache, no wrapper
 * anywhere), runs createAgent with a string model and plain tools, initChatModel (invoke and
 * stream), and an app module that built its own ChatOpenAI and OpenAIEmbeddings before
 * install(). Prints one JSON report: answers, tool-body runs, stats.
 */
import { tool } from "@langchain/core/tools";
import { createAgent, initChatModel } from "langchain";
import { z } from "zod";
import * as app from "./installApp"; // builds its models now, before install()
import { Vcr } from "../../../src/index";

async function main(): Promise<void> {
  const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
  const uninstall = vcr.install();
  const runs = { get_weather: 0 };
  const getWeather = tool(
    async ({ city }: { city: string }) => {
      runs.get_weather++;
      return `Sunny and 21C in ${city}.`;
    },
    { name: "get_weather", description: "Current weather in a city.", schema: z.object({ city: z.string() }) },
  );
  const agent = createAgent({ model: "openai:gpt-4o-mini", tools: [getWeather] });
  const result = await agent.invoke({ messages: [{ role: "user", content: "What is the weather in Paris?" }] });
  const messages = result.messages.map((m) => ({
    type: m.getType(),
    text: m.text,
    toolCalls: (m as { tool_calls?: { name: string; args: unknown }[] }).tool_calls?.map((c) => [c.name, c.args]),
  }));

  const model = await initChatModel("openai:gpt-4o-mini", { maxRetries: 0 });
  const invoked = (await model.invoke("Say hello.")).text;
  const streamed: string[] = [];
  for await (const chunk of await model.stream("Stream a greeting.")) streamed.push(chunk.text);

  const fromApp = await app.answer("How long do refunds take?");
  uninstall();
  console.log(JSON.stringify({ agent: { messages, runs }, init: { invoked, streamed }, app: fromApp, stats: vcr.stats() }));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
