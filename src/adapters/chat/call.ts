/**
 * The full request of one `generate()` call, captured by the patch in `patch.ts` so that
 * `VcrCache.lookup(prompt, llmKey)` can key on everything that was asked, not on core's lossy
 * prompt string (which loses images and tool-call links) or its llmKey (which holds the API key).
 *
 * How a lookup finds its call without an async context: core's `generate()` computes its
 * `llmKey` synchronously, before its first `await`, and hands that string to every `lookup`
 * and `update` of the call. For a VcrCache call the patch replaces the llmKey with the call's
 * own key (`langchain-vcr#<n>`), registered here while the call runs. An `AsyncLocalStorage`
 * would do the same, but entering one turns on Node's promise hooks for every promise of the
 * call — a measurable share of a replay (BENCHMARKS.md).
 */
import type { ModelLike } from "../../canonical/chat";
import { PREFIX } from "../../errors";
import type { Lookup } from "../../recorder";
import { processWide } from "../../processWide";

export type ModelKind = "chat" | "llm";

export interface ModelInstance extends ModelLike {
  cache?: unknown;
  [key: string]: unknown;
}

interface Entry {
  input: unknown; // BaseMessage[] (chat) or string (llm)
  prompt?: string;
  claimed: boolean;
  lookup?: Lookup;
  updated: boolean;
  /** A hit: the generations handed to core, and the usage each message was recorded with. */
  replayed?: { generations: readonly ReplayedGeneration[]; usage: readonly unknown[] };
}

interface ReplayedGeneration {
  message?: { usage_metadata?: unknown };
}

/**
 * A copy of `g` and of its message (same class and fields) whose usage is the recorded one, none
 * when none was recorded (core set zeros on `g.message`); `g` itself when it has no message. The
 * copy is shallow: only the usage differs from the objects core handed to the run's callbacks.
 */
function withUsage(g: ReplayedGeneration, usage: unknown): ReplayedGeneration {
  if (!g.message) return g;
  const message = Object.assign(Object.create(Object.getPrototypeOf(g.message) as object) as { usage_metadata?: unknown }, g.message);
  message.usage_metadata = usage;
  return { ...g, message }; // a plain object, as loadGenerations makes them
}

export class ModelCall {
  /** What this call's lookups receive as `llmKey` (see the file comment). */
  readonly key = `langchain-vcr#${++calls.count}`;
  /** Set by the stream adapter when the chat cache stands aside and the call is recorded as a stream. */
  streamed = false;
  /** The call runs in a LangGraph node (set from its `generate()` options): its answers are numbered (./answerIds.ts). */
  inGraph = false;
  private callOptions: unknown = {};
  readonly entries: Entry[];
  private lookupCursor = 0;
  /** Entries that missed, in the order their lookups returned: the order core calls `update` in. */
  private readonly missOrder: Entry[] = [];

  constructor(
    readonly model: ModelInstance,
    readonly kind: ModelKind,
    inputs: readonly unknown[],
    private readonly promptOf: (input: unknown) => string,
  ) {
    this.entries = inputs.map((input) => ({ input, claimed: false, updated: false }));
  }

  /** The call options `generate()` separated from the runnable config (handed over when the call takes its key). */
  setOptions(callOptions: unknown): void {
    this.callOptions = callOptions;
  }

  /** The call options as `generate()` separated them: set before any lookup can find the call. */
  options(): unknown {
    return this.callOptions;
  }

  /** The entry core is looking up: they are looked up in input order; the prompt string confirms it. */
  claimForLookup(prompt: string): Entry {
    if (this.entries.length === 1 && !this.entries[0].claimed) return this.take(this.entries[0]);
    const next = this.entries[this.lookupCursor];
    if (next && !next.claimed && this.promptFor(next) === prompt) {
      this.lookupCursor++;
      return this.take(next);
    }
    const found = this.entries.find((e) => !e.claimed && this.promptFor(e) === prompt);
    if (!found) throw new Error(`${PREFIX}internal error: no pending ${this.kind} input matches the prompt core looked up`);
    return this.take(found);
  }

  /** Records that `entry` missed: core will call the real model for it and then `update`. */
  missed(entry: Entry): void {
    this.missOrder.push(entry);
  }

  /** The entry core is storing: core stores misses in the order their lookups returned. */
  claimForUpdate(prompt: string): Entry | undefined {
    if (this.entries.length === 1) return this.entries[0].updated ? undefined : this.entries[0];
    return this.missOrder.find((e) => !e.updated && this.promptFor(e) === prompt);
  }

  /** Hands replayed generations to core: their recorded usage comes back, on the caller's copies, when the call ends. */
  replayed(entry: Entry, generations: readonly ReplayedGeneration[]): void {
    entry.replayed = { generations, usage: generations.map((g) => g.message?.usage_metadata) };
  }

  /**
   * The call is over (`result`: what core's `generate()` returned, undefined when it failed):
   * its key is no longer answered, and the caller receives each replayed input's generations as
   * copies whose messages carry the usage core zeroed on the hit, so the message the caller
   * receives equals the recorded one. The objects core zeroed are left as they are: it handed
   * them to the run's callbacks (`cached: true`, zero usage, as for any LangChain cache hit),
   * and a tracer may read them later (LangSmith's runs in the background, after this).
   *
   * Each input's generations go to its own index: core's `generate()` with several inputs, some
   * replayed and some not, puts the replayed generations at their index among the hits only,
   * where the live answers then overwrite them (`generate([[new], [recorded]])` returned one
   * generation); live answers are already at theirs.
   */
  end(result: unknown): void {
    open.delete(this.key);
    const out = result as { generations?: unknown[] } | undefined;
    if (!Array.isArray(out?.generations)) return;
    for (let i = 0; i < this.entries.length; i++) {
      const r = this.entries[i].replayed;
      if (!r) continue;
      const copies: ReplayedGeneration[] = [];
      for (let k = 0; k < r.generations.length; k++) copies.push(withUsage(r.generations[k], r.usage[k]));
      out.generations[i] = copies;
    }
  }

  private take(e: Entry): Entry {
    e.claimed = true;
    return e;
  }

  private promptFor(e: Entry): string {
    return (e.prompt ??= this.promptOf(e.input));
  }
}

interface Calls {
  count: number;
  /** The call whose `generate()` is starting: set and cleared synchronously around core's code. */
  starting: ModelCall | undefined;
  /** Calls whose `generate()` has taken its key and not settled, by key. */
  open: Map<string, ModelCall>;
}
/**
 * One registry per process, not per copy of this module: with two installed copies of
 * langchain-vcr over one @langchain/core, core is patched by the copy that loaded first, and
 * the VcrCache of either copy must find the calls those patches capture.
 */
const calls = processWide<Calls>("modelCalls.v1", () => ({ count: 0, starting: undefined, open: new Map() }));
const open = calls.open;
/**
 * Marks the call options of a call that takes its key, so the stream adapter can tell a
 * provider's own streaming inside `generate()` (ChatOllama always streams) from a user's
 * stream. Enumerable, so the copies core and providers make with `{ ...options }` keep it;
 * a symbol, so JSON and key lists do not see it. Its value is the call's key, not the call:
 * callbacks receive these options, and must not reach (or print, or keep alive) the model.
 */
const CALL_OF_OPTIONS = Symbol.for("langchain-vcr.modelCall");

/**
 * Starts core's `generate()` with `call` as the call that starts (`fn` must reach core
 * synchronously); the caller ends the call with `call.end()` when the promise settles.
 */
export function runModelCall<T>(call: ModelCall, fn: () => Promise<T>): Promise<T> {
  const outer = calls.starting;
  calls.starting = call;
  try {
    return fn();
  } catch (e) {
    return Promise.reject(e);
  } finally {
    calls.starting = outer;
  }
}

/**
 * Called by core's llmKey step of `generate()`: the starting call of `model`, now registered
 * under its key, with the call options core separated — or undefined for any other call.
 */
export function takeStartingCall(model: object, callOptions: unknown): ModelCall | undefined {
  const call = calls.starting;
  if (!call || call.model !== model) return undefined;
  calls.starting = undefined;
  open.set(call.key, call);
  call.setOptions(callOptions);
  if (callOptions && typeof callOptions === "object" && Object.isExtensible(callOptions)) (callOptions as Record<symbol, unknown>)[CALL_OF_OPTIONS] = call.key;
  return call;
}

/** The running call a lookup or update belongs to, from the llmKey core passed. */
export function modelCallForKey(llmKey: unknown): ModelCall | undefined {
  return typeof llmKey === "string" ? open.get(llmKey) : undefined;
}

/** The running `generate()` call whose call options (or a copy of them) these are. */
export function modelCallOfOptions(options: unknown): ModelCall | undefined {
  if (!options || typeof options !== "object") return undefined;
  return modelCallForKey((options as Record<symbol, unknown>)[CALL_OF_OPTIONS]);
}
