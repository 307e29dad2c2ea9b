// An ESM user's tool body throws core's ToolInputParsingException — the ESM copy of the class,
// not the CommonJS one langchain-vcr's build loads. Run twice, as a suite runs: PHASE=record
// (record_or_replay) then PHASE=replay (replay_only); prints what the caller got and the fixtures.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { tool, ToolInputParsingException } from "@langchain/core/tools";
import { Vcr } from "langchain-vcr";
import { z } from "zod";

const dir = process.env.FIXTURE_DIR;
const vcr = new Vcr({ dir, mode: process.env.PHASE === "record" ? "record_or_replay" : "replay_only" });
let runs = 0;
const inner = tool(
  async () => {
    runs++;
    throw new ToolInputParsingException("inner tool got bad input", '{"x":1}');
  },
  { name: "outer", description: "Calls an inner tool.", schema: z.object({}) },
);
const seen = (e) => ({ name: e.name, class: e.constructor.name, message: e.message, output: e.output });
const caught = await vcr
  .tool(inner)
  .invoke({})
  .then(() => "no error", seen);
const recorded = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")).response.error);
console.log(JSON.stringify({ runs, caught, recorded }));
