/**
 * The timing harness: contenders run interleaved (round-robin, the order shuffled every round)
 * after a warm-up, each call timed on its own, so background load and GC hit every contender
 * alike. Results are per-call samples in microseconds.
 */
export interface Contender {
  name: string;
  /** One call of the thing measured. */
  run: () => Promise<unknown>;
  /** Calls per round (default 1): cheap contenders take more samples in the same time. */
  batch?: number;
  /** Warm-up calls for this contender, instead of the comparison's (slow contenders need fewer). */
  warmup?: number;
  /** Work done once per round before this contender's batch, not timed (e.g. a mode switch). */
  before?: () => void | Promise<void>;
  after?: () => void | Promise<void>;
}

export interface Measured {
  name: string;
  samples: number[];
  /** For each sample, the index of the contender whose call ran just before it (-1: none), where recorded. */
  predecessors?: number[];
}

export interface CompareOptions {
  rounds: number;
  /** Warm-up calls per contender before any timing. */
  warmup: number;
}

export async function compare(contenders: readonly Contender[], options: CompareOptions): Promise<Measured[]> {
  for (const c of contenders) {
    await c.before?.();
    for (let i = 0; i < (c.warmup ?? options.warmup); i++) await c.run();
    await c.after?.();
  }
  const results = contenders.map((c) => ({ name: c.name, samples: [] as number[] }));
  const nextOrder = shuffledOrders(contenders.length);
  for (let r = 0; r < options.rounds; r++) {
    const order = nextOrder();
    for (let k = 0; k < contenders.length; k++) {
      const idx = order[k];
      const c = contenders[idx];
      const out = results[idx].samples;
      await c.before?.();
      const n = c.batch ?? 1;
      for (let i = 0; i < n; i++) {
        const t0 = process.hrtime.bigint();
        await c.run();
        out.push(Number(process.hrtime.bigint() - t0) / 1000);
      }
      await c.after?.();
    }
  }
  return results;
}

/**
 * Each round's order of `n` contenders: a fresh shuffle (seeded: a run repeats), so every
 * contender runs after every other one about equally often (after itself, across a round's
 * end, about a quarter as often with three). A rotation does not: with three
 * contenders, the one after X is the same one in two rounds of three, and a call right after
 * one that waited on I/O (LocalFileCache) runs on a cold CPU. Self-contained: the hot-path
 * child script embeds its source.
 */
export function shuffledOrders(n: number, seed = 0x5eed): () => number[] {
  let state = seed >>> 0;
  const random = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return () => {
    const order = Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    return order;
  };
}

/** Times `n` sequential calls of `fn`, each on its own (µs). */
export async function timeEach(n: number, fn: (i: number) => unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await fn(i);
    out.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  return out;
}
