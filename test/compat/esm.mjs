// The compatibility subset as an ESM user runs it: `import` of langchain-vcr and of the scratch project's core.
import { fileURLToPath } from "node:url";
import { tool } from "@langchain/core/tools";
import { ChatOllama } from "@langchain/ollama";
import { ChatOpenAI, OpenAIEmbeddings } from "@langchain/openai";
import * as vcr from "langchain-vcr";
import { z } from "zod";
import { runSubset } from "./subset.ts";

const counts = await runSubset({ vcr, ChatOpenAI, ChatOllama, OpenAIEmbeddings, tool, z }, "esm", fileURLToPath(import.meta.url));
if (counts) console.log(JSON.stringify({ entry: "esm", ...counts }));
