/**
 * How a fixture looks on disk: 2-space pretty JSON, the envelope fields first in a fixed
 * order, every other object's keys sorted, arrays of numbers (vectors) on one line, and a
 * trailing newline. Pinned by the golden-file test.
 *
 * One exception: in a model's response (`chat`, `llm`, `chat_stream`), what a member named
 * `tool_calls` or `invalid_tool_calls` holds keeps its own key order — the order the model and its
 * LangChain integration gave the calls and their arguments. Code that writes a conversation out
 * as text (core's `getBufferString`, which summarization and other prompts use; a
 * `JSON.stringify(args)` in a tool emulator or a human-in-the-loop description) shows them in that
 * order, so a replay must give the same. (Fixtures written by 0.2.0 and earlier have them sorted, and
 * replay them sorted.)
 */
const ENVELOPE_ORDER = ["schemaVersion", "kind", "hash", "recordedAt", "redacted", "request", "response"];
/** The members of a model's response whose contents keep their key order. */
export const TOOL_CALLS: ReadonlySet<string> = new Set(["tool_calls", "invalid_tool_calls"]);
/** The fixture kinds that hold a model's answer (the recorder asks it too). */
export const MODEL_KINDS: ReadonlySet<unknown> = new Set(["chat", "llm", "chat_stream"]);

/** Where `write` is: anywhere its keys are sorted, in a model's response (sorted, but its tool calls are not), or inside those tool calls. */
type Order = "sorted" | "model response" | "own";

export function formatFixture(fixture: object): string {
  const rec = fixture as Record<string, unknown>;
  const keys = [
    ...ENVELOPE_ORDER.filter((k) => rec[k] !== undefined),
    ...Object.keys(rec)
      .filter((k) => !ENVELOPE_ORDER.includes(k))
      .sort(),
  ];
  return writeObject(rec, keys, "", (k) => (k === "response" && MODEL_KINDS.has(rec.kind) ? "model response" : "sorted")) + "\n";
}

function write(value: unknown, indent: string, order: Order): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    if (value.every((v) => typeof v === "number")) {
      // String(n) is JSON's text for a finite number (and -0 → "0" in both); non-finite become null as in JSON
      return "[" + (value.every(Number.isFinite) ? value.join(", ") : value.map((v) => JSON.stringify(v)).join(", ")) + "]";
    }
    const inner = indent + "  ";
    return "[\n" + value.map((v) => inner + write(v === undefined ? null : v, inner, order)).join(",\n") + "\n" + indent + "]";
  }
  const rec = value as Record<string, unknown>;
  if (order === "own") return writeObject(rec, Object.keys(rec), indent, () => "own");
  return writeObject(rec, Object.keys(rec).sort(), indent, (k) => (order === "model response" && TOOL_CALLS.has(k) ? "own" : order));
}

function writeObject(rec: Record<string, unknown>, keys: string[], indent: string, orderOf: (key: string) => Order): string {
  const inner = indent + "  ";
  const members = keys
    .filter((k) => rec[k] !== undefined && typeof rec[k] !== "function")
    .map((k) => inner + JSON.stringify(k) + ": " + write(rec[k], inner, orderOf(k)));
  if (members.length === 0) return "{}";
  return "{\n" + members.join(",\n") + "\n" + indent + "}";
}
