/**
 * Applies the configured normalizers, in order, to one piece of text. Each must return a
 * string: anything else (a Promise from an async function, undefined, an object) would be
 * hashed as something else — a Promise as `{}` — and merge different requests into one key,
 * so it is a `VcrConfigError`, as is a normalizer that throws.
 */
import { VcrConfigError } from "../errors";

export type Normalizer = (text: string) => string;
export type Normalize = (text: string) => string;

export const identity: Normalize = (t) => t;

export function composeNormalizers(normalizers: readonly Normalizer[]): Normalize {
  if (normalizers.length === 0) return identity;
  return (text) => {
    let t = text;
    for (let i = 0; i < normalizers.length; i++) t = applyOne(normalizers[i], i, t);
    return t;
  };
}

function applyOne(n: Normalizer, i: number, text: string): string {
  let out: unknown;
  try {
    out = n(text);
  } catch (e) {
    throw new VcrConfigError(
      `${nameOf(n, i)} threw while normalizing a request's text: ${(e as Error)?.message ?? e}\n` +
        `  Normalizers run before the request is hashed: nothing was sent and nothing was written.\n` +
        `  Fix it: fix options.normalizers[${i}]; it takes the text and returns it, changed or not, as a string.`,
      { cause: e },
    );
  }
  if (typeof out === "string") return out;
  const promise = isThenable(out);
  throw new VcrConfigError(
    `${nameOf(n, i)} returned ${describe(out)}, not a string${promise ? ": normalizers run synchronously, before the request is hashed" : ""}.\n` +
      `  Anything but a string would be hashed as something else (a Promise as {}), so different requests would share one fixture; ` +
      `nothing was sent and nothing was written.\n` +
      `  Fix it: make options.normalizers[${i}] return the text it was given, changed or not, as a string` +
      `${promise ? " (a plain function, not an async one)" : ""}: (text) => text.replace(pattern, "<placeholder>"), or normalizers.regex(pattern, placeholder).`,
  );
}

function nameOf(n: Normalizer, i: number): string {
  return `normalizer #${i + 1} (${(typeof n === "function" && n.name) || "anonymous"})`;
}

function isThenable(v: unknown): boolean {
  return (typeof v === "object" || typeof v === "function") && v !== null && typeof (v as { then?: unknown }).then === "function";
}

/** What a normalizer returned, for the message: its type, and a short rendering of a plain value. */
function describe(v: unknown): string {
  if (v === undefined || v === null) return String(v);
  if (isThenable(v)) return "a Promise";
  if (Array.isArray(v)) return "an array";
  if (typeof v === "function" || typeof v === "symbol") return `a ${typeof v}`;
  let shown: string;
  try {
    shown = typeof v === "bigint" ? `${v}n` : (JSON.stringify(v) ?? String(v));
  } catch {
    shown = "";
  }
  const what = typeof v === "object" ? "an object" : `a ${typeof v}`;
  return shown ? `${what} (${shown.length > 60 ? shown.slice(0, 57) + "..." : shown})` : what;
}
