// Child for install.esm.test.ts: an ES-module process (the built ESM entry, LangChain loaded as
// ESM) under vcr.install() only: a ChatOpenAI with no cache, an OpenAIEmbeddings, a ToolCall.
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { tool } from "@langchain/core/tools";
import { z } from "zod";
const { Vcr } = await import(process.env.VCR_ENTRY);

const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
const uninstall = vcr.install();
const configuration = { baseURL: process.env.FAKE_URL };
const chat = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "k", maxRetries: 0, configuration });
const embeddings = new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: "k", maxRetries: 0, configuration });
let runs = 0;
const weather = tool(async ({ city }) => (runs++, `sunny in ${city}`), {
  name: "get_weather",
  description: "Weather.",
  schema: z.object({ city: z.string() }),
});
const report = {
  chat: (await chat.invoke("hello from ESM")).text,
  vector: await embeddings.embedQuery("ESM text"),
  tool: (await weather.invoke({ type: "tool_call", id: "call_1", name: "get_weather", args: { city: "Oslo" } })).content,
};
uninstall();
console.log(JSON.stringify({ ...report, runs, stats: vcr.stats() }));
