// An ESM user's tool body throws core's ToolInputParsingException — the ESM copy of the class,
// not the CommonJS one langchain-vcr's build loads — and it is recorded and replayed with its output.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tool, ToolInputParsingException } from "@langchain/core/tools";
import { Vcr } from "langchain-vcr";
import { z } from "zod";

const dir = process.env.FIXTURE_DIR;
const vcr = new Vcr({ dir });
let runs = 0;
const inner = tool(
  async () => {
    runs++;
    throw new ToolInputParsingException("inner tool got bad input", '{"x":1}');
  },
  { name: "outer", description: "Calls an inner tool.", schema: z.object({}) },
);
const wrapped = vcr.tool(inner);
const seen = (e) => ({ name: e.name, class: e.constructor.name, message: e.message, output: e.output });
// one call per process (the test runs this once to record and once to replay, as two runs of a suite)
const result = await wrapped.invoke({}).catch(seen);
const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
const recorded = files.map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")).response.error);
console.log(JSON.stringify({ runs, result, recorded }));
