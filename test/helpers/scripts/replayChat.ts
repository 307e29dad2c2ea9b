// Child-process replay: a ChatOpenAI pointed at a closed port, keyless, in replay_only mode.
import { ChatOpenAI } from "@langchain/openai";
import { Vcr } from "../../../src/index";

async function main(): Promise<void> {
  const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
  const model = new ChatOpenAI({
    model: "gpt-4o-mini",
    apiKey: "no-key",
    maxRetries: 0,
    cache: vcr.cache,
    configuration: { baseURL: "http://127.0.0.1:9/v1" },
  });
  const msg = await model.invoke(process.env.PROMPT ?? "");
  console.log(JSON.stringify({ content: msg.content, stats: vcr.stats() }));
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
