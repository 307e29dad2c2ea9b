// The compatibility subset as an ESM user runs it: `import` of langchain-vcr and of the scratch project's core.
import { tool } from "@langchain/core/tools";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import * as vcr from "langchain-vcr";
import { z } from "zod";
import { runSubset } from "./subset.ts";

console.log(JSON.stringify({ entry: "esm", ...(await runSubset({ vcr, ChatOpenAI, OpenAIEmbeddings, tool, z }, "esm")) }));
