// Child-process replay: a ChatOpenAI pointed at a closed port, keyless, in replay_only mode.
import { Vcr } from "../../../src/index";
import { offlineOpenAI } from "../models";

async function main(): Promise<void> {
  const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
  const model = offlineOpenAI(vcr.cache);
  const msg = await model.invoke(process.env.PROMPT ?? "");
  console.log(JSON.stringify({ content: msg.content, stats: vcr.stats() }));
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
