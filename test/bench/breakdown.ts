/**
 * Section 1b — where a VcrCache hit spends its time. Each step of the hit path is run on its
 * own with the real objects of a real replayed invoke (captured once), interleaved with the
 * whole invoke through InMemoryCache and VcrCache, so the steps can be read against the
 * floor. The steps are the code in src/adapters/chat, src/canonical, src/recorder.ts and
 * src/store/store.ts, called the way VcrCache.lookup calls them.
 */
import * as fs from "node:fs";
import { InMemoryCache } from "@langchain/core/caches";
import { Vcr } from "../../src/index";
import { modelCallForKey, runModelCall, type ModelCall } from "../../src/adapters/chat/call";
import { loadGenerations } from "../../src/adapters/chat/generations";
import { chatParts, chatRequest, requestOf } from "../../src/canonical/chat";
import { canonicalMessages } from "../../src/canonical/messages";
import { canonicalParams } from "../../src/canonical/params";
import { canonicalJson, requestHash, sha256Hex, sortDeep } from "../../src/canonical/json";
import { identity } from "../../src/canonical/normalize";
import { envelopeProblem } from "../../src/store/fixture";
import { isSharedFixture } from "../../src/store/store";
import { emit } from "../../src/scope";
import { startFakeProvider } from "../helpers/fakeProvider";
import { CHAT_PROMPT, chatModel, datedBack, tmpDir } from "./env";
import { compare, type Contender, type Measured } from "./harness";

export async function benchBreakdown(opts: { rounds: number; warmup: number }): Promise<Measured[]> {
  const fake = await startFakeProvider();
  try {
    const vcr = new Vcr({ dir: tmpDir("breakdown"), mode: "record_or_replay" });
    const memory = chatModel(fake, new InMemoryCache());
    const viaVcr = chatModel(fake, vcr.cache);
    await memory.invoke(CHAT_PROMPT);
    await viaVcr.invoke(CHAT_PROMPT);
    datedBack(vcr.recorder.store.dir);
    // Capture the ModelCall of one replayed invoke.
    let call: ModelCall | undefined;
    const cache = vcr.cache as unknown as { lookup: (p: string, k: string) => Promise<unknown> };
    const proto = Object.getPrototypeOf(cache) as typeof cache;
    cache.lookup = function (p, k) {
      call ??= modelCallForKey(k);
      return proto.lookup.call(this, p, k);
    };
    await viaVcr.invoke(CHAT_PROMPT);
    delete (cache as Partial<typeof cache>).lookup;
    if (!call) throw new Error("bench: could not capture the model call");
    const c = call;
    const messages = c.entries[0].input as unknown[];
    const options = c.options();
    const request = chatRequest(c.model, messages, options, identity);
    const hash = requestHash("chat", request);
    const file = vcr.recorder.store.fileFor(hash);
    const text = fs.readFileSync(file, "utf8");
    const fixture = vcr.recorder.store.read(hash)!;
    const kept = vcr.recorder.store.read(hash, undefined, { borrow: true })!;
    if (!isSharedFixture(kept)) throw new Error("bench: the fixture is not kept (dated back, read twice)");
    const held = fs.openSync(file, "r");
    const sorted = JSON.stringify(sortDeep({ kind: "chat", request }));
    const resolved = Promise.resolve();
    const inv = c.model.invocationParams!(options) as Record<string, unknown>;

    const step = (name: string, fn: () => unknown): Contender => ({ name, run: async () => fn(), batch: 50 });
    try {
      return await compare(
        [
          { name: "invoke, InMemoryCache hit (floor)", run: () => memory.invoke(CHAT_PROMPT), batch: 20 },
          { name: "invoke, VcrCache hit", run: () => viaVcr.invoke(CHAT_PROMPT), batch: 20 },
          step("· patch: runModelCall (start the call, settle it)", () => runModelCall(c, () => resolved)),
          step("· chatRequest (invocationParams + canonical params + messages)", () => chatRequest(c.model, messages, options, identity)),
          step("  · model.invocationParams(options)", () => c.model.invocationParams!(options)),
          step("  · canonicalParams", () => canonicalParams(inv)),
          step("  · canonicalMessages", () => canonicalMessages(messages, identity)),
          step("· requestHash (total)", () => requestHash("chat", request)),
          step("  · sortDeep", () => sortDeep({ kind: "chat", request })),
          step("  · canonicalJson (JSON.stringify of the sorted copy)", () => canonicalJson({ kind: "chat", request })),
          step("  · sha256 of the canonical JSON", () => sha256Hex(sorted)),
          step("· chatParts (invocationParams + canonical messages: what the memo compares)", () => chatParts(c.model, messages, options, identity)),
          {
            name: "· Recorder.findParts (total, as VcrCache.lookup calls it: parts compared, mode, read, bookkeeping)",
            run: async () => {
              vcr.recorder.findParts(
                "chat",
                { key: CHAT_PROMPT, parts: chatParts(c.model, messages, options, identity), build: (p) => requestOf(c.model, p) },
                { describe: "bench", borrow: true },
              );
            },
            batch: 50,
          },
          {
            name: "· Recorder.lookup (a request already built: hash, mode, read, bookkeeping)",
            run: () => vcr.recorder.lookup("chat", request, { describe: "bench" }),
            batch: 50,
          },
          step("  · Recorder.mode() (resolveMode: withVcr scope, env, options)", () => vcr.recorder.mode()),
          step("· FixtureStore.read, borrowed as VcrCache reads it (total: a kept file, one fstat of the descriptor held on it, no copy)", () =>
            vcr.recorder.store.read(hash, undefined, { borrow: true }),
          ),
          step("· FixtureStore.read, not borrowed (a kept file: one fstat and a copy of the response)", () => vcr.recorder.store.read(hash)),
          step("  · fileFor (the name, made once per store)", () => vcr.recorder.store.fileFor(hash)),
          step('  · fs.readFileSync(file, { encoding: "utf8" })', () => fs.readFileSync(file, { encoding: "utf8", flag: "r" })),
          step("  · JSON.parse", () => JSON.parse(text)),
          step("  · envelopeProblem", () => envelopeProblem(fixture, hash)),
          step("  · (a read of the file, when the asked request is not at hand) re-hash of the fixture's request (name check)", () =>
            requestHash(fixture.kind, fixture.request),
          ),
          step("· recorder hit bookkeeping (emit)", () => emit({ type: "used", hash, file })),
          step("· loadGenerations of the kept response (new AIMessage per generation, every object copied)", () =>
            loadGenerations(kept.response, { shared: true }),
          ),
          step("· loadGenerations of a response parsed for one replay (new AIMessage, its objects taken)", () => loadGenerations(fixture.response)),
          step("· fs.fstatSync of a descriptor open on the fixture (a kept fixture's check, src/store/heldFiles.ts)", () => fs.fstatSync(held)),
          step("· (alternative) fs.statSync of the fixture (a kept fixture's check where no descriptor is held)", () => fs.statSync(file)),
        ],
        opts,
      );
    } finally {
      fs.closeSync(held);
    }
  } finally {
    await fake.close();
  }
}
