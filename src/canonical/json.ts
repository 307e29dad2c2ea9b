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
import { SCHEMA_VERSION } from "./version";

export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortDeep(value));
}

/** A deep copy with object keys sorted and undefined members removed. */
export function sortDeep(value: unknown): unknown {
  return jsonDeep(value, true);
}

/** A deep copy as JSON holds it (undefined members removed, `toJSON` applied), each object's keys in their own order. */
export function plainDeep(value: unknown): unknown {
  return jsonDeep(value, false);
}

function jsonDeep(value: unknown, sorted: boolean): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : jsonDeep(v, sorted)));
  if (value !== null && typeof value === "object") {
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") {
      return jsonDeep((value as { toJSON(): unknown }).toJSON(), sorted);
    }
    const out: Record<string, unknown> = {};
    const keys = Object.keys(value);
    for (const k of sorted ? keys.sort() : keys) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined && typeof v !== "function") defineMember(out, k, jsonDeep(v, sorted));
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

/**
 * The hash of a request under a schema version: sha256 of the canonical serialization of
 * `{ kind, request, version }` (version 1, langchain-vcr 0.1.0, hashed `{ kind, request }`).
 */
export function requestHash(kind: string, request: unknown, version: number = SCHEMA_VERSION): string {
  return sha256Hex(canonicalJson(version === 1 ? { kind, request } : { kind, request, version }));
}
