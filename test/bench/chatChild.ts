/**
 * Child process of the chat section: one fresh process runs section 1 (`benchChat`) and
 * prints its samples as one JSON line. The parent runs several and pools them, so one
 * process's JIT luck (or a noisy neighbour) does not decide the ratio.
 *
 *   node -r ts-node/register/transpile-only test/bench/chatChild.ts <rounds> <warmup>
 */
import "./env"; // first: captures the platform fetch before nock patches it
import { benchChat } from "./chat";
import { removeTmpDirs } from "./env";

async function main(): Promise<void> {
  const [rounds, warmup] = process.argv.slice(2).map(Number);
  try {
    const result = await benchChat({ rounds, warmup });
    process.stdout.write(JSON.stringify(result) + "\n");
  } finally {
    removeTmpDirs();
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
