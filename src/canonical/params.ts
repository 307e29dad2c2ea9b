/**
 * Provider-neutral model parameters, from a model's own `invocationParams()`: the same
 * request through ChatOpenAI and ChatOllama gives the same parameters. Transport and
 * identity (keys, hosts, timeouts, retries, streaming flags) never enter the key.
 */
import { withoutAbsent } from "./absent";
import { dropInertMembers } from "./inert";
import { defineMember, sortDeep } from "./json";

/** Never part of the key: who asked, how it travelled, or how the answer was delivered. */
export const EXCLUDED_PARAMS: ReadonlySet<string> = new Set([
  "apiKey",
  "api_key",
  "openAIApiKey",
  "azureOpenAIApiKey",
  "organization",
  "project",
  "baseURL",
  "baseUrl",
  "base_url",
  "configuration",
  "headers",
  "defaultHeaders",
  "defaultQuery",
  "timeout",
  "signal",
  "maxRetries",
  "max_retries",
  "maxConcurrency",
  "fetch",
  "callbacks",
  "tags",
  "metadata",
  "runId",
  "run_id",
  "runName",
  "configurable",
  "recursionLimit",
  "executionInfo",
  "control",
  "stream",
  "stream_options",
  "streaming",
  "streamUsage",
  "keep_alive",
  "user",
  "prompt_cache_key",
  "ls_structured_output_format",
]);

/** Different providers' names for the same parameter. */
const ALIASES: Readonly<Record<string, string>> = {
  max_completion_tokens: "max_tokens",
  max_output_tokens: "max_tokens",
  num_predict: "max_tokens",
  maxTokens: "max_tokens",
  topP: "top_p",
  topK: "top_k",
  stopSequences: "stop",
};

export function canonicalParams(invocation: Record<string, unknown>): Record<string, unknown> {
  invocation = withoutAbsent(invocation); // values a provider treats as absent (./absent.ts)
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(invocation)) {
    const v = invocation[k];
    if (v === undefined || v === null) continue; // most of a client's parameters are unset
    if (k === "options" && typeof v === "object" && !Array.isArray(v)) {
      for (const [ok, ov] of Object.entries(v)) put(out, ok, ov); // Ollama nests sampling options
    } else if (k === "tools") {
      if (Array.isArray(v) && v.length) out.tools = v.map(canonicalTool);
    } else if (k === "tool_choice") {
      put(out, k, canonicalToolChoice(v));
    } else if (k === "format") {
      put(out, "response_format", v === "json" ? { type: "json_object" } : v ? { type: "json_schema", schema: v } : undefined);
    } else if (k === "response_format") {
      put(out, k, canonicalResponseFormat(v));
    } else if (k === "text" && typeof v === "object" && "format" in v) {
      put(out, "response_format", canonicalResponseFormat((v as { format: unknown }).format));
    } else {
      put(out, k, v);
    }
  }
  if (Array.isArray(out.stop) && out.stop.length === 0) delete out.stop;
  // same result as lfDeep(out, false), without copying the (usually all-primitive) top level
  for (const k of Object.keys(out)) {
    const v = out[k];
    if (v !== null && (typeof v === "object" || (typeof v === "string" && SCHEMA_KEYS.has(k)))) defineMember(out, k, lfDeep(v, SCHEMA_KEYS.has(k)));
  }
  return dropInertMembers(out);
}

/** Whether a parameter can reach the canonical parameters: set, and not excluded (the parts keep only these: chat.ts). */
export function isKeyedParam(key: string, value: unknown): boolean {
  return value !== undefined && value !== null && !EXCLUDED_PARAMS.has(key);
}

function put(out: Record<string, unknown>, key: string, value: unknown): void {
  if (!isKeyedParam(key, value)) return;
  defineMember(out, Object.hasOwn(ALIASES, key) ? ALIASES[key] : key, value);
}

const SCHEMA_KEYS: ReadonlySet<string> = new Set(["tools", "response_format", "description", "parameters"]);

function canonicalTool(tool: unknown): unknown {
  const t = tool as { type?: string; function?: Record<string, unknown>; name?: string };
  if (t && t.type === "function" && t.function) {
    const { name, description, parameters, strict } = t.function;
    return { name, description, parameters: sortDeep(parameters), strict };
  }
  return sortDeep(tool);
}

function canonicalToolChoice(choice: unknown): unknown {
  const c = choice as { type?: string; function?: { name?: string }; name?: string };
  if (c && typeof c === "object" && c.type === "function") return { type: "tool", name: c.function?.name ?? c.name };
  return choice;
}

function canonicalResponseFormat(rf: unknown): unknown {
  const r = rf as { type?: string; json_schema?: Record<string, unknown> } | undefined;
  if (r && r.type === "json_schema" && r.json_schema) return { type: "json_schema", ...r.json_schema };
  return rf;
}

/**
 * CRLF → LF inside schemas and descriptions, so a Windows checkout hashes like a Unix one.
 * Also a plain-JSON copy: a value with `toJSON` (a Date in modelKwargs) becomes what the
 * provider receives, never `{}`.
 */
function lfDeep(value: unknown, inSchema: boolean): unknown {
  if (typeof value === "string") return inSchema ? value.replace(/\r\n/g, "\n") : value;
  if (Array.isArray(value)) return value.map((v) => lfDeep(v, inSchema));
  if (value && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
    return lfDeep((value as { toJSON(): unknown }).toJSON(), inSchema);
  }
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const schemaish = inSchema || SCHEMA_KEYS.has(k);
      defineMember(out, k, lfDeep(v, schemaish));
    }
    return out;
  }
  return value;
}
