/**
 * The timing harness: contenders run interleaved (round-robin, rotating the order every
 * round) after a warm-up, each call timed on its own, so background load and GC hit every
 * contender alike. Results are per-call samples in microseconds.
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
  for (let r = 0; r < options.rounds; r++) {
    for (let k = 0; k < contenders.length; k++) {
      const idx = (k + r) % contenders.length;
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
