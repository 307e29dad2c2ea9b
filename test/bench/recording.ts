/**
 * Section 6 — recording: the atomic fixture write on its own (format + temp file + link),
 * a recording invoke against a live one, and 32 concurrent recordings (32 different
 * prompts, and 32 identical ones that share one live call) against 32 concurrent live calls.
 * Every recorded file is removed again, untimed, so each round records into the same
 * small directory.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { InMemoryCache } from "@langchain/core/caches";
import { Vcr } from "../../src/index";
import { sha256Hex } from "../../src/canonical/json";
import type { Fixture } from "../../src/store/fixture";
import { formatFixture } from "../../src/store/format";
import { FixtureStore } from "../../src/store/store";
import { startFakeProvider } from "../helpers/fakeProvider";
import { CHAT_PROMPT, chatModel, expectRequests, tmpDir } from "./env";
import { compare, type Measured } from "./harness";

export const CONCURRENT = 32;

export interface RecordingResult {
  writes: Measured[];
  invokes: Measured[];
  concurrent: Measured[];
  fixtureBytes: number;
}

export async function benchRecording(opts: { rounds: number; warmup: number; slowRounds: number }): Promise<RecordingResult> {
  const fake = await startFakeProvider();
  try {
    // The fixture a real recording writes, as the template for the write-only rows.
    const dir = tmpDir("recording");
    await chatModel(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke(CHAT_PROMPT);
    const [first] = fs.readdirSync(dir);
    const template = JSON.parse(fs.readFileSync(path.join(dir, first), "utf8")) as Fixture;
    const fixtureBytes = fs.statSync(path.join(dir, first)).size;
    const writeDir = tmpDir("writes");
    const store = new FixtureStore(writeDir);
    let n = 0;
    const next = (): Fixture => ({ ...template, hash: sha256Hex(`write ${++n}`) });
    const writes = await compare(
      [
        { name: "FixtureStore.write (format + temp file + link + unlink)", run: async () => store.write(next(), false), batch: 20 },
        { name: "formatFixture only", run: async () => formatFixture(next()), batch: 20 },
        {
          name: "fs.writeFileSync of the same text (not atomic)",
          run: async () => {
            const f = next();
            fs.writeFileSync(path.join(writeDir, `plain-${f.hash}.json`), formatFixture(f));
          },
          batch: 20,
        },
      ],
      opts,
    );

    // One recording invoke vs one live invoke (each round's recording removed again).
    const recDir = tmpDir("record-invoke");
    const vcr = new Vcr({ dir: recDir, mode: "record_or_replay" });
    const recorder = chatModel(fake, vcr.cache);
    const live = chatModel(fake, undefined);
    const memory = chatModel(fake, new InMemoryCache());
    let seq = 0;
    const clear = (d: string) => () => {
      for (const f of fs.readdirSync(d)) fs.rmSync(path.join(d, f));
    };
    const before = fake.count();
    let calls = 0;
    const invokes = await compare(
      [
        { name: "live invoke (no cache)", run: () => (calls++, live.invoke(`${CHAT_PROMPT} #${++seq}`)), batch: 5 },
        { name: "InMemoryCache miss (live + update)", run: () => (calls++, memory.invoke(`${CHAT_PROMPT} #${++seq}`)), batch: 5 },
        {
          name: "VcrCache miss, recorded (live + fixture write)",
          run: () => (calls++, recorder.invoke(`${CHAT_PROMPT} #${++seq}`)),
          batch: 5,
          after: clear(recDir),
        },
      ],
      { rounds: opts.slowRounds, warmup: 2 },
    );
    expectRequests(fake, before + calls, "recording invokes");

    // 32 concurrent calls: different prompts recorded, identical prompts recorded, live.
    const conDir = tmpDir("concurrent");
    const conVcr = new Vcr({ dir: conDir, mode: "record_or_replay" });
    const conModel = chatModel(fake, conVcr.cache);
    let round = 0;
    let expected = fake.count();
    const prompts = () => {
      round++;
      return Array.from({ length: CONCURRENT }, (_, i) => `${CHAT_PROMPT} round ${round} call ${i}`);
    };
    const concurrent = await compare(
      [
        {
          name: `${CONCURRENT} concurrent live invokes (no cache)`,
          run: () => ((expected += CONCURRENT), Promise.all(prompts().map((p) => live.invoke(p)))),
        },
        {
          name: `${CONCURRENT} concurrent recordings, different prompts`,
          run: () => ((expected += CONCURRENT), Promise.all(prompts().map((p) => conModel.invoke(p)))),
          after: () => {
            const files = fs.readdirSync(conDir);
            if (files.length !== CONCURRENT) throw new Error(`bench: ${files.length} fixtures after ${CONCURRENT} recordings`);
            clear(conDir)();
          },
        },
        {
          name: `${CONCURRENT} concurrent recordings, one prompt (shared live call)`,
          run: () => {
            expected += 1;
            const p = prompts()[0];
            return Promise.all(Array.from({ length: CONCURRENT }, () => conModel.invoke(p)));
          },
          after: () => {
            const files = fs.readdirSync(conDir);
            if (files.length !== 1) throw new Error(`bench: ${files.length} fixtures after ${CONCURRENT} identical recordings`);
            clear(conDir)();
          },
        },
      ],
      { rounds: opts.slowRounds, warmup: 1 },
    );
    expectRequests(fake, expected, "concurrent recordings");
    return { writes, invokes, concurrent, fixtureBytes };
  } finally {
    await fake.close();
  }
}
