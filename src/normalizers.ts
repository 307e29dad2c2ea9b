/**
 * Built-in normalizers: they rewrite volatile values in message text and embedding input
 * before hashing, so a prompt holding today's date still matches tomorrow. The fixture
 * stores the normalized text; the live model always receives the original.
 */
import { VcrConfigError } from "./errors";
import type { Normalizer } from "./canonical/normalize";

export type { Normalizer } from "./canonical/normalize";

function regex(pattern: RegExp | string, placeholder: string): Normalizer {
  if (typeof placeholder !== "string") throw new VcrConfigError("normalizers.regex needs a string placeholder.");
  let re: RegExp;
  try {
    re = typeof pattern === "string" ? new RegExp(pattern, "g") : new RegExp(pattern.source, pattern.flags.includes("g") ? pattern.flags : pattern.flags + "g");
  } catch (e) {
    throw new VcrConfigError(`normalizers.regex got an invalid pattern ${JSON.stringify(String(pattern))}: ${(e as Error).message}`);
  }
  const fn: Normalizer = (text) => text.replace(re, () => placeholder);
  Object.defineProperty(fn, "name", { value: `regex(${re})` });
  return fn;
}

/** Date and time with a T or space separator, optional seconds, fraction and zone. */
const ISO_DATE_TIME = /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?(?![\d:])/;
const ISO_DATE = /\b\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])\b/;
const UUID = /\b[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}\b/;
/** 13-digit millisecond timestamps from 2001 to 2286. */
const EPOCH_MILLIS = /(?<![\d.])1\d{12}(?![\d.])/;

/** `isoDateTime` first, then `isoDate`: a timestamp becomes one placeholder, not a date plus a time. */
const isoDateTime = regex(ISO_DATE_TIME, "<ISO_DATE_TIME>");
const isoDate = regex(ISO_DATE, "<ISO_DATE>");

export const normalizers = {
  /** `2026-11-30` → `<ISO_DATE>`. Put `isoDateTime` before it to turn whole timestamps into one placeholder. */
  isoDate,
  /** `2026-11-30T10:15:00Z` / `2026-11-30 10:15` → `<ISO_DATE_TIME>`. */
  isoDateTime,
  /** Any RFC 4122-shaped UUID → `<UUID>`. */
  uuid: regex(UUID, "<UUID>"),
  /** 13-digit epoch milliseconds → `<EPOCH_MILLIS>`. */
  epochMillis: regex(EPOCH_MILLIS, "<EPOCH_MILLIS>"),
  /** Every match of `pattern` → `placeholder`. */
  regex,
} as const;
