/**
 * A/B tool for the hit path, not part of `npm run bench`: InMemoryCache hit vs VcrCache hit,
 * interleaved, in one process, with langchain-vcr loaded from a copy of src/ — to measure a
 * change to src/ before making it. Prints one line with medians and the ratio.
 *
 *   cp -r src /tmp/try/src && (edit /tmp/try/src/...)
 *   NODE_PATH=$PWD/node_modules node -r ts-node/register/transpile-only test/bench/ab.ts /tmp/try/src [rounds] [label]
 *
 * Run it a few times per variant, alternating: other load on the machine moves single runs.
 */
import * as path from "node:path";
import { InMemoryCache } from "@langchain/core/caches";
import type * as Lib from "../../src/index";
import { startFakeProvider } from "../helpers/fakeProvider";
import { CHAT_PROMPT, chatModel, removeTmpDirs, runTool, tmpDir } from "./env";
import { compare } from "./harness";
import { median, p95 } from "./stats";

async function main(): Promise<void> {
  const root = path.resolve(process.argv[2] ?? path.join(__dirname, "../../src"));
  const rounds = Number(process.argv[3] ?? 200);
  const label = process.argv[4] ?? root;

  const { Vcr } = require(path.join(root, "index")) as typeof Lib;
  const fake = await startFakeProvider();
  try {
    const vcr = new Vcr({ dir: tmpDir("ab"), mode: "record_or_replay" });
    const memory = chatModel(fake, new InMemoryCache());
    const viaVcr = chatModel(fake, vcr.cache);
    const expected = (await memory.invoke(CHAT_PROMPT)).content;
    await viaVcr.invoke(CHAT_PROMPT);
    const replayed = await viaVcr.invoke(CHAT_PROMPT);
    if (replayed.content !== expected || vcr.stats().replayed !== 1 || fake.count() !== 2) {
      throw new Error(`ab: the copy at ${root} does not replay correctly (${JSON.stringify(vcr.stats())}, ${fake.count()} requests)`);
    }
    const [m, v] = await compare(
      [
        { name: "InMemoryCache", run: () => memory.invoke(CHAT_PROMPT), batch: 20 },
        { name: "VcrCache", run: () => viaVcr.invoke(CHAT_PROMPT), batch: 20 },
      ],
      { rounds, warmup: 500 },
    );
    if (fake.count() !== 2) throw new Error("ab: a replay reached the provider");
    const ratio = median(v.samples) / median(m.samples);
    process.stdout.write(
      `${label}: InMemoryCache ${median(m.samples).toFixed(1)} µs, VcrCache ${median(v.samples).toFixed(1)} µs, ` +
        `ratio ${ratio.toFixed(2)}× (p95 ratio ${(p95(v.samples) / p95(m.samples)).toFixed(2)}×)\n`,
    );
  } finally {
    await fake.close();
    removeTmpDirs();
  }
}

runTool(main);
