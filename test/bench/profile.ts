/**
 * A profiling driver, not part of `npm run bench`: N replayed invokes through one contender.
 * With a third argument it profiles only the timed loop (the same V8 CPU profiler that
 * `node --cpu-prof` uses, started through node:inspector so start-up and ts-node compilation
 * stay out of the profile) and writes a `.cpuprofile`; summarise it with `cpuprofile.ts`.
 *
 *   node -r ts-node/register/transpile-only test/bench/profile.ts vcr 20000 /tmp/vcr.cpuprofile
 *   node -r ts-node/register/transpile-only test/bench/cpuprofile.ts /tmp/vcr.cpuprofile 20000
 *
 * Contenders: `vcr` (VcrCache hit), `memory` (InMemoryCache hit). `VCR_SRC=/path/to/src` loads
 * langchain-vcr from another copy of src/ (to measure a change tried in a scratch copy; run
 * with NODE_PATH=<this repo>/node_modules when the copy lives outside the repository).
 */
import * as fs from "node:fs";
import { Session } from "node:inspector";
import { InMemoryCache } from "@langchain/core/caches";
import type * as Lib from "../../src/index";
import { startFakeProvider } from "../helpers/fakeProvider";
import { CHAT_PROMPT, chatModel, datedBack, removeTmpDirs, tmpDir } from "./env";

const { Vcr } = require(process.env.VCR_SRC ? `${process.env.VCR_SRC}/index` : "../../src/index") as typeof Lib;

async function main(): Promise<void> {
  const which = process.argv[2] ?? "vcr";
  const n = Number(process.argv[3] ?? 20000);
  const out = process.argv[4];
  const fake = await startFakeProvider();
  try {
    const dir = tmpDir("profile");
    const cache = which === "memory" ? new InMemoryCache() : new Vcr({ dir, mode: "record_or_replay" }).cache;
    const model = chatModel(fake, cache);
    await model.invoke(CHAT_PROMPT); // records (VcrCache) or fills the cache
    datedBack(dir);
    await new Promise((r) => setTimeout(r, 1100)); // as in hotPathEsm.ts: a descriptor is held only on a file last changed more than a second ago
    for (let i = 0; i < 2000; i++) await model.invoke(CHAT_PROMPT); // warm-up: JIT settles
    const session = out ? await startProfile() : undefined;
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i++) await model.invoke(CHAT_PROMPT);
    const us = Number(process.hrtime.bigint() - t0) / 1000 / n;
    if (session && out) fs.writeFileSync(out, JSON.stringify(await stopProfile(session)));
    if (fake.count() !== 1) throw new Error(`expected 1 provider request, saw ${fake.count()}`);
    process.stdout.write(`${which}: ${n} hits, mean ${us.toFixed(1)} µs per invoke\n`);
  } finally {
    await fake.close();
    removeTmpDirs();
  }
}

function post<T>(session: Session, method: string, params?: object): Promise<T> {
  return new Promise((resolve, reject) => session.post(method, params ?? {}, (err: Error | null, res?: unknown) => (err ? reject(err) : resolve(res as T))));
}

async function startProfile(): Promise<Session> {
  const session = new Session();
  session.connect();
  await post(session, "Profiler.enable");
  await post(session, "Profiler.setSamplingInterval", { interval: 100 });
  await post(session, "Profiler.start");
  return session;
}

async function stopProfile(session: Session): Promise<unknown> {
  const { profile } = await post<{ profile: unknown }>(session, "Profiler.stop");
  session.disconnect();
  return profile;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
