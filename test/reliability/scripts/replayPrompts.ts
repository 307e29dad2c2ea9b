/**
 * Fresh-process replay: replays each prompt of PROMPTS_JSON (a JSON array, ASCII-escaped so
 * lone surrogates survive the environment) through ChatOpenAI under replay_only, with the
 * provider at a closed port. Prints one ASCII-escaped JSON line: the answers and the stats.
 */
import { HumanMessage } from "@langchain/core/messages";
import { Vcr } from "../../../src/index";
import { offlineOpenAI } from "../../helpers/models";

/** JSON with every non-ASCII code unit escaped, so no encoding step can alter a lone surrogate. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

async function main(): Promise<void> {
  const prompts = JSON.parse(process.env.PROMPTS_JSON ?? "[]") as string[];
  const vcr = new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" });
  const model = offlineOpenAI(vcr.cache);
  const answers: unknown[] = [];
  for (const p of prompts) answers.push((await model.invoke([new HumanMessage(p)])).content);
  process.stdout.write(asciiJson({ answers, stats: vcr.stats() }) + "\n");
}

if (require.main === module) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
