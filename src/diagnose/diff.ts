/** Field-by-field differences between a recorded request and a new one, as paths. */
import type { VcrDifference } from "../errors";

export function diffValues(recorded: unknown, requested: unknown, path = "", out: VcrDifference[] = []): VcrDifference[] {
  if (Object.is(recorded, requested)) return out;
  const bothArrays = Array.isArray(recorded) && Array.isArray(requested);
  const bothObjects = isPlainObject(recorded) && isPlainObject(requested);
  if (bothArrays) {
    const a = recorded as unknown[];
    const b = requested as unknown[];
    for (let i = 0; i < Math.max(a.length, b.length); i++) diffValues(a[i], b[i], `${path}[${i}]`, out);
    return out;
  }
  if (bothObjects) {
    const a = recorded as Record<string, unknown>;
    const b = requested as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      diffValues(a[k], b[k], path ? `${path}.${k}` : k, out);
    }
    return out;
  }
  out.push({ path: path || "(root)", recorded, requested });
  return out;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/** A hint for the obvious fixes: a date, a uuid or a timestamp that differs. */
export function hintFor(differences: readonly VcrDifference[]): string | undefined {
  for (const d of differences) {
    if (typeof d.recorded !== "string" || typeof d.requested !== "string") continue;
    const pair = [d.recorded, d.requested];
    if (pair.every((s) => /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s)))
      return "a timestamp changed between runs: add normalizers.isoDateTime to options.normalizers";
    if (pair.every((s) => /\d{4}-\d{2}-\d{2}/.test(s))) return "a date changed between runs: add normalizers.isoDate to options.normalizers";
    if (pair.every((s) => /[0-9a-f]{8}-[0-9a-f]{4}-/i.test(s))) return "a UUID changed between runs: add normalizers.uuid to options.normalizers";
    if (pair.every((s) => /1\d{12}/.test(s))) return "a millisecond timestamp changed between runs: add normalizers.epochMillis to options.normalizers";
  }
  return undefined;
}

export function formatValue(v: unknown, max = 120): string {
  const s = v === undefined ? "(absent)" : JSON.stringify(v);
  return s.length > max ? s.slice(0, max - 1) + "…" : s;
}

/**
 * Whether a changed text looks like an edit of the recorded one (a date, a word, a typo) rather
 * than another text: the unchanged start and end together cover at least half of the longer.
 * Non-text differences (a parameter, a tool) always count.
 */
export function looksEdited(d: { recorded?: unknown; requested?: unknown }): boolean {
  const a = d.recorded;
  const b = d.requested;
  if (typeof a !== "string" || typeof b !== "string") return true;
  const longest = Math.max(a.length, b.length);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return (start + end) * 2 >= longest;
}
