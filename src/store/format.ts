/**
 * How a fixture looks on disk: 2-space pretty JSON, the envelope fields first in a fixed
 * order, every other object's keys sorted, arrays of numbers (vectors) on one line, and a
 * trailing newline. Pinned by the golden-file test.
 */
const ENVELOPE_ORDER = ["schemaVersion", "kind", "hash", "recordedAt", "redacted", "request", "response"];

export function formatFixture(fixture: object): string {
  const rec = fixture as Record<string, unknown>;
  const keys = [
    ...ENVELOPE_ORDER.filter((k) => rec[k] !== undefined),
    ...Object.keys(rec)
      .filter((k) => !ENVELOPE_ORDER.includes(k))
      .sort(),
  ];
  return writeObject(rec, keys, "") + "\n";
}

function write(value: unknown, indent: string): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every((v) => typeof v === "number")) {
      // String(n) is JSON's text for a finite number (and -0 → "0" in both); non-finite become null as in JSON
      return "[" + (value.every(Number.isFinite) ? value.join(", ") : value.map((v) => JSON.stringify(v)).join(", ")) + "]";
    }
    const inner = indent + "  ";
    return "[\n" + value.map((v) => inner + write(v === undefined ? null : v, inner)).join(",\n") + "\n" + indent + "]";
  }
  const rec = value as Record<string, unknown>;
  return writeObject(rec, Object.keys(rec).sort(), indent);
}

function writeObject(rec: Record<string, unknown>, keys: string[], indent: string): string {
  const inner = indent + "  ";
  const members = keys.filter((k) => rec[k] !== undefined && typeof rec[k] !== "function").map((k) => inner + JSON.stringify(k) + ": " + write(rec[k], inner));
  if (members.length === 0) return "{}";
  return "{\n" + members.join(",\n") + "\n" + indent + "}";
}
