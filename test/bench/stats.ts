/** Order statistics and the markdown tables the bench prints. */
export function quantile(samples: readonly number[], q: number): number {
  if (samples.length === 0) return NaN;
  const s = [...samples].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return s[lo] + (s[hi] - s[lo]) * (pos - lo);
}

export const median = (s: readonly number[]): number => quantile(s, 0.5);
export const p95 = (s: readonly number[]): number => quantile(s, 0.95);

/**
 * The median over rounds of `xs[i] / ys[i]` (samples taken one per round, as whole processes
 * are timed): a drift of the machine's speed over the run moves both samples of a round alike,
 * and cancels. NaN when the rounds do not pair up.
 */
export function pairedRatio(xs: readonly number[], ys: readonly number[]): number {
  return xs.length === ys.length ? median(xs.map((x, i) => x / ys[i])) : NaN;
}

/** A time in µs, printed with a unit that keeps 3 significant digits. */
export function fmtTime(us: number): string {
  if (!Number.isFinite(us)) return "–";
  if (us >= 1e6) return `${(us / 1e6).toFixed(2)} s`;
  if (us >= 1e4) return `${(us / 1e3).toFixed(1)} ms`;
  if (us >= 1e3) return `${(us / 1e3).toFixed(2)} ms`;
  if (us >= 100) return `${us.toFixed(0)} µs`;
  return `${us.toFixed(1)} µs`;
}

export function fmtRatio(r: number): string {
  if (!Number.isFinite(r)) return "–";
  return r >= 10 ? `${r.toFixed(0)}×` : `${r.toFixed(2)}×`;
}

export function fmtBytes(b: number): string {
  if (b >= 1 << 20) return `${(b / (1 << 20)).toFixed(1)} MiB`;
  if (b >= 1 << 10) return `${(b / (1 << 10)).toFixed(1)} KiB`;
  return `${b} B`;
}

/** A markdown table; `rows` are already formatted cells. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) => "| " + cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(" | ") + " |";
  const rule = "|" + widths.map((w, i) => (i === 0 ? "-".repeat(w + 2) : "-".repeat(w + 1) + ":")).join("|") + "|";
  return [line(header), rule, ...rows.map(line)].join("\n");
}

/** The timing table: median and p95 per call, and both as ratios to the first row. */
export function timingTable(results: readonly { name: string; samples: readonly number[] }[], unit = "call"): string {
  const base = results[0];
  const bm = median(base.samples);
  const bp = p95(base.samples);
  return table(
    ["contender", `median / ${unit}`, `p95 / ${unit}`, "median vs row 1", "p95 vs row 1", "samples"],
    results.map((r) => [
      r.name,
      fmtTime(median(r.samples)),
      fmtTime(p95(r.samples)),
      fmtRatio(median(r.samples) / bm),
      fmtRatio(p95(r.samples) / bp),
      String(r.samples.length),
    ]),
  );
}

/**
 * Median per call of each contender, split by the contender whose call ran just before it
 * (`predecessors`): what an interleaved neighbour does to the next call (a cold CPU after one that
 * waited on I/O). Rows: the contender timed; columns: the one before it.
 */
export function byPredecessorTable(results: readonly { name: string; samples: readonly number[]; predecessors?: readonly number[] }[]): string {
  const short = (name: string) => name.replace(/ \(.*$/, "");
  return table(
    ["contender", ...results.map((r) => `after ${short(r.name)}`)],
    results.map((r) => [
      short(r.name),
      ...results.map((_, j) => {
        const picked = r.samples.filter((_, i) => r.predecessors?.[i] === j);
        return picked.length ? `${fmtTime(median(picked))} (${picked.length})` : "–";
      }),
    ]),
  );
}
