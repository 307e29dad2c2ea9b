// The compatibility subset as a CommonJS user runs it: `require` of langchain-vcr and of the scratch project's core.
const { tool } = require("@langchain/core/tools");
const { ChatOllama } = require("@langchain/ollama");
const { ChatOpenAI, OpenAIEmbeddings } = require("@langchain/openai");
const vcr = require("langchain-vcr");
const { z } = require("zod");
const { runSubset } = require("./subset.ts");

runSubset({ vcr, ChatOpenAI, ChatOllama, OpenAIEmbeddings, tool, z }, "cjs", __filename).then(
  (counts) => counts && console.log(JSON.stringify({ entry: "cjs", ...counts })),
  (e) => {
    console.error(e);
    process.exitCode = 1;
  },
);
