/**
 * Section 1 — chat replay of one recorded `invoke` through the real ChatOpenAI: LangChain's
 * InMemoryCache (the floor), VcrCache, @langchain/classic LocalFileCache, nock.back replaying
 * the same call at the HTTP layer, and a live call to the loopback fake.
 */
import { InMemoryCache } from "@langchain/core/caches";
import { LocalFileCache } from "@langchain/classic/cache/file_system";
import type { BaseMessage } from "@langchain/core/messages";
import * as fs from "node:fs";
import * as path from "node:path";
import nock from "nock";
import { Vcr } from "../../src/index";
import { startFakeProvider } from "../helpers/fakeProvider";
import { runChild } from "../helpers/child";
import { CHAT_PROMPT, chatModel, expectRequests, log, tmpDir } from "./env";
import { compare, type Measured } from "./harness";

export interface ChatResult {
  results: Measured[];
  fixtureBytes: number;
}

/** Section 1 in `processes` fresh child processes, one after another; samples pooled per contender. */
export async function benchChatProcesses(processes: number, opts: { rounds: number; warmup: number }): Promise<{ pooled: ChatResult; runs: ChatResult[] }> {
  const runs: ChatResult[] = [];
  for (let i = 0; i < processes; i++) {
    log(`bench: chat replay, process ${i + 1} of ${processes} ...`);
    const res = await runChild(
      process.execPath,
      ["-r", "ts-node/register/transpile-only", path.join(__dirname, "chatChild.ts"), String(opts.rounds), String(opts.warmup)],
      {
        cwd: path.resolve(__dirname, "../.."),
        env: { ...process.env, LANGCHAIN_VCR_MODE: "" },
        timeoutMs: 600_000,
      },
    );
    if (res.status !== 0) throw new Error(`bench: chat child failed (${res.status}): ${res.stderr}`);
    runs.push(JSON.parse(res.stdout.trim().split("\n").pop()!) as ChatResult);
  }
  const pooled = runs[0].results.map((r, k) => ({ name: r.name, samples: runs.flatMap((run) => run.results[k].samples) }));
  return { pooled: { results: pooled, fixtureBytes: runs[0].fixtureBytes }, runs };
}

export async function benchChat(opts: { rounds: number; warmup: number }): Promise<ChatResult> {
  const fake = await startFakeProvider();
  try {
    const vcrDir = tmpDir("chat");
    const vcr = new Vcr({ dir: vcrDir, mode: "record_or_replay" });
    const memory = chatModel(fake, new InMemoryCache());
    const viaVcr = chatModel(fake, vcr.cache);
    const viaFile = chatModel(fake, await LocalFileCache.create(tmpDir("localfilecache")));
    const live = chatModel(fake, undefined);
    // nock patches globalThis.fetch; this client uses the patched one, the others the platform's.
    const viaNock = chatModel(fake, undefined, {}, (...a: Parameters<typeof fetch>) => globalThis.fetch(...a));

    // Record once per contender.
    const expected = (await live.invoke(CHAT_PROMPT)).content;
    for (const m of [memory, viaVcr, viaFile]) same(await m.invoke(CHAT_PROMPT), expected, "recording");
    nock.back.fixtures = tmpDir("nock");
    nock.back.setMode("record");
    {
      const { nockDone } = await nock.back("chat.json");
      same(await viaNock.invoke(CHAT_PROMPT), expected, "nock recording");
      nockDone();
    }
    nock.back.setMode("dryrun"); // replay recorded calls, let unrecorded ones through
    const nockReplay = async () => {
      const { nockDone } = await nock.back("chat.json");
      const r = await viaNock.invoke(CHAT_PROMPT);
      nockDone();
      return r;
    };
    same(await nockReplay(), expected, "nock replay");
    same(await viaVcr.invoke(CHAT_PROMPT), expected, "vcr replay");
    if (vcr.stats().replayed !== 1) throw new Error("bench: VcrCache did not replay");
    const recorded = fake.count();

    // Every provider request during timing must come from the live contender.
    let liveCalls = 0;
    const results = await compare(
      [
        { name: "InMemoryCache hit (LangChain floor)", run: () => memory.invoke(CHAT_PROMPT), batch: 20 },
        { name: "VcrCache hit (langchain-vcr)", run: () => viaVcr.invoke(CHAT_PROMPT), batch: 20 },
        { name: "LocalFileCache hit (@langchain/classic)", run: () => viaFile.invoke(CHAT_PROMPT), batch: 20 },
        { name: "nock.back replay (HTTP layer, nock 14)", run: nockReplay, batch: 4, warmup: Math.min(opts.warmup, 100) },
        { name: "live call to the loopback fake", run: () => (liveCalls++, live.invoke(CHAT_PROMPT)), batch: 4, warmup: Math.min(opts.warmup, 100) },
      ],
      opts,
    );
    expectRequests(fake, recorded + liveCalls, "chat replays");
    return { results, fixtureBytes: vcrFixtureBytes(vcrDir) };
  } finally {
    nock.back.setMode("wild");
    nock.restore();
    await fake.close();
  }
}

function same(m: BaseMessage, expected: unknown, what: string): void {
  if (m.content !== expected) throw new Error(`bench: ${what} returned ${JSON.stringify(m.content)}, expected ${JSON.stringify(expected)}`);
}

function vcrFixtureBytes(dir: string): number {
  const files = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));
  return files.reduce((n, f) => n + fs.statSync(`${dir}/${f}`).size, 0);
}
