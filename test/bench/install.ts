/**
 * Section 7 — `vcr.install()`: one recorded invoke replayed by a ChatOpenAI with no cache
 * under `install()`, against the same call by a ChatOpenAI built with `cache: vcr.cache`
 * (the same Vcr, the same fixture), interleaved in one process. Also a model with an
 * InMemoryCache hit with and without a Vcr installed (the install state cleared around each
 * call of that row, so the two interleave): install() must cost nothing there.
 */
import { InMemoryCache } from "@langchain/core/caches";
import { Vcr } from "../../src/index";
import { installedVcr, setInstalledVcr } from "../../src/internals/state";
import { startFakeProvider } from "../helpers/fakeProvider";
import { CHAT_PROMPT, chatModel, expectRequests, tmpDir } from "./env";
import { compare, type Measured } from "./harness";

/** Runs `fn` with no Vcr installed, then puts the installed one back. */
async function withoutInstall<T>(fn: () => Promise<T>): Promise<T> {
  const saved = installedVcr();
  setInstalledVcr(undefined);
  try {
    return await fn();
  } finally {
    setInstalledVcr(saved);
  }
}

export async function benchInstall(opts: { rounds: number; warmup: number }): Promise<Measured[]> {
  const fake = await startFakeProvider();
  const vcr = new Vcr({ dir: tmpDir("install"), mode: "record_or_replay" });
  let uninstall: (() => void) | undefined;
  try {
    const explicit = chatModel(fake, vcr.cache);
    const installed = chatModel(fake, undefined);
    const memory = chatModel(fake, new InMemoryCache());
    const expected = (await explicit.invoke(CHAT_PROMPT)).content;
    await memory.invoke(CHAT_PROMPT);
    const requests = fake.count();
    uninstall = vcr.install();
    if ((await installed.invoke(CHAT_PROMPT)).content !== expected) throw new Error("bench: the installed replay differs from the explicit recording");
    expectRequests(fake, requests, "installed replay");
    const withInstall = await compare(
      [
        { name: "explicit `cache: vcr.cache` hit", run: () => explicit.invoke(CHAT_PROMPT), batch: 20 },
        { name: "vcr.install() hit (model with no cache)", run: () => installed.invoke(CHAT_PROMPT), batch: 20 },
        { name: "InMemoryCache hit, a Vcr installed", run: () => memory.invoke(CHAT_PROMPT), batch: 20 },
        { name: "InMemoryCache hit, no Vcr installed", run: () => withoutInstall(() => memory.invoke(CHAT_PROMPT)), batch: 20 },
      ],
      opts,
    );
    expectRequests(fake, requests, "installed replays");
    return withInstall;
  } finally {
    uninstall?.();
    await fake.close();
  }
}
