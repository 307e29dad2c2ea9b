/**
 * The full request of one `generate()` call, captured by the patch in `patch.ts` so that
 * `VcrCache.lookup(prompt, llmKey)` can key on everything that was asked, not on core's lossy
 * prompt string (which loses images and tool-call links) or its llmKey (which holds the API key).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ModelLike } from "../../canonical/chat";
import type { Lookup } from "../../recorder";

export type ModelKind = "chat" | "llm";

export interface ModelInstance extends ModelLike {
  cache?: unknown;
  _separateRunnableConfigFromCallOptionsCompat?(options: unknown): [unknown, unknown];
  [key: string]: unknown;
}

interface Entry {
  input: unknown; // BaseMessage[] (chat) or string (llm)
  prompt?: string;
  claimed: boolean;
  lookup?: Lookup;
  updated: boolean;
}

export class ModelCall {
  private callOptions: unknown;
  private optionsReady = false;
  readonly entries: Entry[];
  private lookupCursor = 0;
  /** Entries that missed, in the order their lookups returned: the order core calls `update` in. */
  private readonly missOrder: Entry[] = [];

  constructor(
    readonly model: ModelInstance,
    readonly kind: ModelKind,
    inputs: readonly unknown[],
    private readonly rawOptions: unknown,
    private readonly promptOf: (input: unknown) => string,
  ) {
    this.entries = inputs.map((input) => ({ input, claimed: false, updated: false }));
  }

  /** The call options `generate()` separated from the runnable config (handed over by the patch). */
  setOptions(callOptions: unknown): void {
    this.callOptions = callOptions;
    this.optionsReady = true;
  }

  /** The call options as `generate()` separates them from the runnable config. */
  options(): unknown {
    if (!this.optionsReady) {
      const parsed = Array.isArray(this.rawOptions) ? { stop: this.rawOptions } : this.rawOptions;
      const split = this.model._separateRunnableConfigFromCallOptionsCompat?.(parsed);
      this.callOptions = split ? split[1] : (parsed ?? {});
      this.optionsReady = true;
    }
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
    if (!found) throw new Error(`langchain-vcr: internal error: no pending ${this.kind} input matches the prompt core looked up`);
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

  private take(e: Entry): Entry {
    e.claimed = true;
    return e;
  }

  private promptFor(e: Entry): string {
    return (e.prompt ??= this.promptOf(e.input));
  }
}

const calls = new AsyncLocalStorage<ModelCall>();

export function runModelCall<T>(call: ModelCall, fn: () => T): T {
  return calls.run(call, fn);
}

export function currentModelCall(): ModelCall | undefined {
  return calls.getStore();
}
