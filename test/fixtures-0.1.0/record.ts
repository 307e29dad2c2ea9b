/**
 * Writes test/fixtures-0.1.0/ (cassettes/ and outputs.json) from `runCalls` against the
 * loopback fake. Run once, with the 0.1.0 canonical form, before the canonical form changed:
 *   node -r ts-node/register/transpile-only test/fixtures-0.1.0/record.ts
 * It is kept to show how the set was made; re-running it with a newer langchain-vcr writes
 * that version's fixtures, which is not what the upgrade test needs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Vcr } from "../../src/index";
import { startFakeProvider } from "../helpers/fakeProvider";
import { runCalls } from "./calls";

async function main(): Promise<void> {
  const dir = path.join(__dirname, "cassettes");
  fs.rmSync(dir, { recursive: true, force: true });
  const fake = await startFakeProvider();
  try {
    const out = await runCalls(new Vcr({ dir, mode: "record_or_replay" }), fake);
    fs.writeFileSync(path.join(__dirname, "outputs.json"), JSON.stringify(out, null, 2) + "\n");
  } finally {
    await fake.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
