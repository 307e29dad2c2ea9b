/** Counting what the store does to one fixture file: how many times it stats or reads it. */
import nodeFs = require("node:fs"); // the module object itself: a namespace import is read-only, and the store calls fs by name

type Counted = "statSync" | "readFileSync";

/** Runs `fn` while counting the calls of `names` whose path is `file`; the real functions still run. */
export async function fsCallsOn<K extends Counted>(file: string, names: readonly K[], fn: () => unknown): Promise<Record<K, number>> {
  const fsm = nodeFs as unknown as Record<K, (...args: unknown[]) => unknown>;
  const original = new Map(names.map((n) => [n, fsm[n]] as const));
  const counts = Object.fromEntries(names.map((n) => [n, 0])) as Record<K, number>;
  for (const [n, real] of original) {
    fsm[n] = function (this: unknown, ...args: unknown[]) {
      if (args[0] === file) counts[n]++;
      return real.apply(this, args);
    };
  }
  try {
    await fn();
  } finally {
    for (const [n, real] of original) fsm[n] = real;
  }
  return counts;
}
