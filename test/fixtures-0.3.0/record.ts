/**
 * Writes test/fixtures-0.3.0/ (cassettes/ and outputs.json) from `runCalls` against the loopback
 * fakes. Run once, with langchain-vcr 0.3.0's canonical form, before binary data one level down
 * in a content block was digested:
 *   node -r ts-node/register/transpile-only test/fixtures-0.3.0/record.ts
 * Kept to show how the set was made; re-running it with a newer langchain-vcr writes that
 * version's fixtures, which is not what the upgrade test needs.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { Vcr } from "../../src/index";
import { startFakeProvider } from "../helpers/fakeProvider";
import { spec as anthropic } from "../providers/specs/anthropic";
import { spec as google } from "../providers/specs/google";
import { runCalls } from "./calls";

async function main(): Promise<void> {
  const dir = path.join(__dirname, "cassettes");
  fs.rmSync(dir, { recursive: true, force: true });
  const [fake, a, g] = await Promise.all([startFakeProvider(), anthropic.start(), google.start()]);
  try {
    a.enqueue({ text: "A single red pixel." }, { text: "A single red pixel, streamed." }, { text: "A one-page PDF." }, { text: "Plain text." });
    g.enqueue({ text: "A tiny picture." });
    const out = await runCalls(new Vcr({ dir, mode: "record_or_replay" }), fake, { anthropic: a.url, google: g.url });
    fs.writeFileSync(path.join(__dirname, "outputs.json"), JSON.stringify(out, null, 2) + "\n");
  } finally {
    await Promise.all([fake.close(), a.close(), g.close()]);
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
