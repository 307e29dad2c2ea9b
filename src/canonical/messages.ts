/**
 * Canonical messages: what was asked, in order, without who asked or how it travelled.
 * Message ids, response metadata, usage and additional_kwargs are left out; tool-call ids
 * become ordinal placeholders (`call_1`, `call_2`, ...) that keep the call↔result link.
 */
import { canonicalContent, type IdMapper } from "./content";
import { sortDeep } from "./json";
import type { Normalize } from "./normalize";

interface MessageLike {
  content?: unknown;
  name?: string;
  role?: string;
  type?: string;
  tool_calls?: { id?: string; name: string; args: unknown }[];
  invalid_tool_calls?: { id?: string; name?: string; args?: string; error?: string }[];
  tool_call_id?: string;
  status?: string;
  getType?: () => string;
  _getType?: () => string;
}

const ROLE: Record<string, string> = {
  human: "user",
  ai: "assistant",
  system: "system",
  developer: "developer",
  tool: "tool",
  function: "function",
};

export function messageType(m: MessageLike): string {
  if (typeof m.getType === "function") return m.getType();
  if (typeof m._getType === "function") return m._getType();
  return String(m.type ?? m.role ?? "unknown");
}

/** Returns a mapper from real tool-call ids to ordinal placeholders, stable within one request. */
export function idPlaceholders(): IdMapper {
  let seen: Map<string, string> | undefined; // made on the first id: most requests have none
  return (id) => {
    seen ??= new Map();
    let p = seen.get(id);
    if (p === undefined) {
      p = `call_${seen.size + 1}`;
      seen.set(id, p);
    }
    return p;
  };
}

/**
 * A value passed through as the message holds it, as the canonical form writes it: a plain
 * JSON tree (a Date in an invalid tool call's `args` becomes its ISO string, as JSON sends it).
 * Canonical messages are plain JSON throughout, so a copy of them (the hash memo's) is exact.
 */
function plain(value: unknown): unknown {
  return value !== null && typeof value === "object" ? sortDeep(value) : value;
}

export function canonicalMessages(messages: readonly unknown[], normalize: Normalize): unknown[] {
  const ids = idPlaceholders();
  return messages.map((raw) => canonicalMessage(raw as MessageLike, normalize, ids));
}

function canonicalMessage(m: MessageLike, normalize: Normalize, ids: IdMapper): Record<string, unknown> {
  const type = messageType(m);
  const out: Record<string, unknown> = {
    role: type === "generic" ? plain(m.role ?? "generic") : Object.hasOwn(ROLE, type) ? ROLE[type] : type,
    content: canonicalContent(m.content, normalize, ids),
  };
  if (m.name) out.name = plain(m.name);
  if (type === "ai") {
    if (m.tool_calls?.length) {
      out.tool_calls = m.tool_calls.map((c) => ({
        id: c.id ? ids(c.id) : undefined,
        name: plain(c.name),
        args: sortDeep(c.args ?? {}),
      }));
    }
    if (m.invalid_tool_calls?.length) {
      out.invalid_tool_calls = m.invalid_tool_calls.map((c) => ({
        id: c.id ? ids(c.id) : undefined,
        name: plain(c.name),
        args: plain(c.args),
      }));
    }
  }
  if (type === "tool") {
    if (m.tool_call_id) out.tool_call_id = ids(m.tool_call_id);
    if (m.status === "error") out.status = "error";
  }
  return out;
}
