/**
 * The canonical serialization: the exact bytes that are hashed. JSON with object keys
 * sorted by UTF-16 code unit — except that array-index keys ("0", "10") come first in
 * numeric order, as JavaScript enumerates them (pinned by the golden hashes) — no
 * whitespace, `undefined` members dropped (array holes become null). Changing anything here
 * changes every user's hashes: it is pinned by the golden-hash tests and versioned with
 * `SCHEMA_VERSION`.
 */
import * as crypto from "node:crypto";
import { createHash } from "node:crypto";

export function canonicalJson(value: unknown): string {
  return serialize(value) as string;
}

/**
 * `JSON.stringify(sortDeep(value))` in one pass, without building the sorted copy: the same
 * text for every value (a property test compares them), including the key order of the
 * sorted copy, where array-index keys come first in numeric order. Undefined when the value
 * serializes to nothing (undefined, a function, a symbol).
 */
function serialize(value: unknown): string | undefined {
  switch (typeof value) {
    case "string":
      return JSON.stringify(value);
    case "number":
      return Number.isFinite(value) ? String(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      break;
    case "bigint":
      return JSON.stringify(value); // throws, as JSON.stringify does
    default:
      return undefined;
  }
  if (value === null) return "null";
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? "," : "") + (serialize(value[i]) ?? "null");
    return out + "]";
  }
  if (typeof (value as { toJSON?: unknown }).toJSON === "function") return serialize((value as { toJSON(): unknown }).toJSON());
  let keys = Object.keys(value).sort();
  if (keys.some(isArrayIndex)) {
    const indices = keys.filter(isArrayIndex).sort((a, b) => Number(a) - Number(b));
    keys = indices.concat(keys.filter((k) => !isArrayIndex(k)));
  }
  let out = "{";
  for (const k of keys) {
    const v = (value as Record<string, unknown>)[k];
    if (v === undefined || typeof v === "function") continue;
    const text = serialize(v);
    if (text === undefined) continue;
    out += (out.length > 1 ? "," : "") + JSON.stringify(k) + ":" + text;
  }
  return out + "}";
}

/** An array index ("0" … "4294967294"): JavaScript lists such keys of an object first. */
function isArrayIndex(key: string): boolean {
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57) return false;
  return (key === "0" || /^[1-9][0-9]{0,9}$/.test(key)) && Number(key) <= 4294967294;
}

/** A deep copy with object keys sorted and undefined members removed. */
export function sortDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortDeep(v)));
  if (value !== null && typeof value === "object") {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
      return sortDeep((value as { toJSON(): unknown }).toJSON());
    }
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined && typeof v !== "function") defineMember(out, k, sortDeep(v));
    }
    return out;
  }
  return value;
}

/** Sets a member even when it is named `__proto__`, without touching any prototype. */
export function defineMember(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  else obj[key] = value;
}

export function sha256Hex(data: string | Uint8Array): string {
  return oneShot ? oneShot("sha256", data, "hex") : createHash("sha256").update(data).digest("hex");
}

/** `crypto.hash` (Node ≥ 20.12): one call, no Hash object. */
const oneShot = (crypto as { hash?: (alg: string, data: string | Uint8Array, enc: "hex") => string }).hash;

/** The hash of a request: sha256 of the canonical serialization of `{ kind, request }`. */
export function requestHash(kind: string, request: unknown): string {
  return sha256Hex(canonicalJson({ kind, request }));
}
