/** What a CLI command gets from its caller (so tests and bin.ts share one code path), and small output helpers. */
import { pathFrom } from "../pathFrom";

export interface Io {
  out(text: string): void;
  err(text: string): void;
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** A path as the user would type it: relative to cwd when inside it. */
export function display(io: Io, file: string): string {
  return pathFrom(io.cwd, file);
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/** Aligned columns: numeric columns (counts, sizes) right-aligned, the others left-aligned. */
export function table(rows: readonly (readonly string[])[], indent = "  "): string {
  if (rows.length === 0) return "";
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const numeric = rows[0].map((_, c) => rows.every((r) => /^\d/.test(r[c])));
  return rows
    .map(
      (r) =>
        indent +
        r
          .map((cell, c) => (numeric[c] ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
          .join("  ")
          .trimEnd(),
    )
    .join("\n");
}
