// Child for internals.test.ts: renames one LangChain internal (INTERNAL="BaseLLM._streamIterator")
// in this process's CommonJS copy of @langchain/core, THEN loads the built langchain-vcr and does
// what a test would: build a Vcr, a model wired to it, invoke and stream. Prints a JSON report.
const { BaseChatModel } = require("@langchain/core/language_models/chat_models");
const { BaseLLM } = require("@langchain/core/language_models/llms");
const { StructuredTool, DynamicStructuredTool } = require("@langchain/core/tools");
const { RunnableToolLike } = require("@langchain/core/runnables");
const classes = { BaseChatModel, BaseLLM, StructuredTool, DynamicStructuredTool, RunnableToolLike };
const [owner, name] = (process.env.INTERNAL || "").split(".");
if (owner) {
  let proto = classes[owner].prototype;
  while (proto && !Object.prototype.hasOwnProperty.call(proto, name)) proto = Object.getPrototypeOf(proto);
  const value = proto[name];
  delete proto[name];
  proto[`${name}Renamed`] = value;
}
const { Vcr } = require(process.env.VCR_ENTRY);
const { ChatOpenAI, OpenAI } = require("@langchain/openai");

async function main() {
  const report = { steps: [] };
  try {
    const vcr = new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" });
    report.steps.push("vcr");
    const configuration = { baseURL: process.env.FAKE_URL };
    const chat = new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "k", maxRetries: 0, cache: vcr.cache, configuration });
    const llm = new OpenAI({ model: "gpt-3.5-turbo-instruct", apiKey: "k", maxRetries: 0, cache: vcr.cache, configuration });
    for (const run of [
      () => chat.invoke("hi"),
      () => llm.invoke("hi"),
      async () => {
        for await (const _ of await chat.stream("hi"));
      },
      async () => {
        for await (const _ of await llm.stream("hi"));
      },
    ]) {
      await run().catch((e) => report.steps.push(e.code ?? e.message));
    }
  } catch (e) {
    report.error = { name: e.name, code: e.code, message: e.message };
  }
  console.log(JSON.stringify(report));
}
main();
