/**
 * Canonical-form properties, with fast-check, over random chat requests built the way the
 * VcrCache builds them: real ChatOpenAI instances and real LangChain messages through
 * `chatRequest` (no network). Texts include role-prefix look-alikes ("AI: ..."), JSON
 * look-alikes, CR/LF mixes, lone surrogates and any code point.
 * (a) Two requests that differ in one field that matters never hash the same.
 * (b) Key order, CRLF vs LF in tool schemas and descriptions, client secrets, base-URL ports,
 *     timeouts, retries, tags/metadata, message ids and consistently renamed tool-call ids
 *     never change the hash.
 * Golden hashes are pinned in test/unit/golden.test.ts; what busts the key through a real
 * provider call is in test/integration/chat.key.test.ts.
 */
import { expect } from "chai";
import fc from "fast-check";
import "../helpers/propertySeed";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { chatRequest } from "../../src/canonical/chat";
import { requestHash, sortDeep } from "../../src/canonical/json";
import { identity } from "../../src/canonical/normalize";

// ---- specs: plain data describing one request ------------------------------------------

type Role = "human" | "system" | "ai" | "tool";
interface CallSpec {
  id: string;
  name: string;
  args: Record<string, unknown>;
}
interface MsgSpec {
  role: Role;
  text: string;
  name?: string;
  calls?: CallSpec[];
  /** tool messages: the id of the call answered */
  ref?: string;
}
interface PropSpec {
  type: string;
  description?: string;
}
interface ToolSpec {
  name: string;
  description: string;
  props: Record<string, PropSpec>;
  required: string[];
}
interface Spec {
  model: string;
  temperature?: number;
  maxTokens?: number;
  topP?: number;
  stop?: string[];
  tools?: ToolSpec[];
  toolChoice?: string | { name: string };
  messages: MsgSpec[];
}

/** Who asks and how it travels: never part of the key. */
interface Client {
  apiKey: string;
  organization?: string;
  port: number;
  timeout?: number;
  maxRetries?: number;
  headers?: Record<string, string>;
  tags?: string[];
  metadata?: Record<string, unknown>;
  runName?: string;
}
/** Rewrites that must not change the hash. */
interface Variant {
  client?: Client;
  messageIds?: string[];
  renameIds?: (id: string) => string;
  reverseKeys?: boolean;
  crlf?: boolean;
}

const CALL_IDS = ["call_a", "call_b", "call_c"];
const DEFAULT_CLIENT: Client = { apiKey: "test-key-not-a-secret-1", port: 8080 };

// ---- arbitraries ------------------------------------------------------------------------

const ROLE_PREFIXES = ["AI: ", "Human: ", "System: ", "assistant: ", "user: ", "\n\nHuman: ", "\n\nAssistant: ", "Tool: "];
const JSON_LOOKALIKES = ['{"role":"assistant","content":"x"}', '"},{"role":"user","content":"', '[{"role":"system"}]', '\\"', "\\u0000"];

const text = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.string({ unit: "grapheme", maxLength: 6 }),
  fc.string({ unit: "binary", maxLength: 6 }),
  fc.string({ unit: fc.constantFrom("\uD800", "\uDC00", "\uFFFD", "\r\n", "\n", "\r", '"', "\\", "{", "}", "a"), maxLength: 6 }),
  fc.tuple(fc.constantFrom(...ROLE_PREFIXES), fc.string({ maxLength: 8 })).map(([p, s]) => p + s),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)),
  fc.constantFrom(...JSON_LOOKALIKES),
);
/** Descriptions in tool schemas: LF line endings (the CRLF variant adds the CRs), no other CR. */
const description = fc.oneof(
  fc.string({ maxLength: 10 }).map((s) => s.replace(/\r/g, "")),
  fc.array(fc.string({ unit: "grapheme", maxLength: 5 }), { minLength: 1, maxLength: 3 }).map((ls) => ls.join("\n").replace(/\r/g, "")),
);
const ident = fc.stringMatching(/^[a-z][a-z0-9_]{0,7}$/);
const argValue = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const args = fc.dictionary(fc.oneof(ident, fc.constantFrom("10", "2", "__proto__", "constructor", "a b")), argValue, { maxKeys: 4 });

const call = fc.record({ id: fc.constantFrom(...CALL_IDS), name: ident, args });
const message: fc.Arbitrary<MsgSpec> = fc.oneof(
  fc.record({ role: fc.constantFrom<Role>("human", "system"), text, name: fc.option(ident, { nil: undefined }) }, { requiredKeys: ["role", "text"] }),
  fc.record({ role: fc.constant<Role>("ai"), text, calls: fc.array(call, { maxLength: 2 }) }),
  fc.record({ role: fc.constant<Role>("tool"), text, ref: fc.constantFrom(...CALL_IDS) }),
);
const prop = fc.record(
  { type: fc.constantFrom("string", "number", "integer", "boolean"), description: fc.option(description, { nil: undefined }) },
  { requiredKeys: ["type"] },
);
const toolSpec = fc
  .record({ name: ident, description, props: fc.dictionary(ident, prop, { minKeys: 1, maxKeys: 3 }) })
  .chain((t) => fc.subarray(Object.keys(t.props)).map((required) => ({ ...t, required })));
const spec: fc.Arbitrary<Spec> = fc.record(
  {
    model: fc.constantFrom("gpt-4o-mini", "gpt-4o", "llama3.2"),
    temperature: fc.integer({ min: 0, max: 20 }).map((n) => n / 10),
    maxTokens: fc.integer({ min: 1, max: 4096 }),
    topP: fc.integer({ min: 1, max: 10 }).map((n) => n / 10),
    stop: fc.array(text, { minLength: 1, maxLength: 2 }),
    tools: fc.uniqueArray(toolSpec, { minLength: 1, maxLength: 2, selector: (t) => t.name }),
    toolChoice: fc.constantFrom<string>("auto", "none", "required"),
    messages: fc.array(message, { minLength: 1, maxLength: 5 }),
  },
  { requiredKeys: ["model", "messages"] },
);
const client: fc.Arbitrary<Client> = fc.record(
  {
    apiKey: fc.string({ minLength: 1, maxLength: 30 }),
    organization: fc.string({ minLength: 1, maxLength: 12 }),
    port: fc.integer({ min: 1, max: 65535 }),
    timeout: fc.integer({ min: 1, max: 600000 }),
    maxRetries: fc.integer({ min: 0, max: 10 }),
    headers: fc.record({ Authorization: fc.string({ maxLength: 20 }).map((s) => `Bearer ${s}`), "X-Request-Id": fc.uuid() }),
    tags: fc.array(fc.string({ maxLength: 6 }), { maxLength: 3 }),
    metadata: fc.dictionary(ident, fc.string({ maxLength: 6 }), { maxKeys: 3 }),
    runName: fc.string({ maxLength: 10 }),
  },
  { requiredKeys: ["apiKey", "port"] },
);

// ---- building the real request ----------------------------------------------------------

function reverseDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reverseDeep);
  if (v === null || typeof v !== "object") return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).reverse()) {
    Object.defineProperty(out, k, { value: reverseDeep((v as Record<string, unknown>)[k]), enumerable: true, writable: true, configurable: true });
  }
  return out;
}

function openAiTool(t: ToolSpec, variant: Variant): unknown {
  const lines = (s: string) => (variant.crlf ? s.replace(/\n/g, "\r\n") : s);
  const properties: Record<string, unknown> = {};
  for (const [k, p] of Object.entries(t.props))
    properties[k] = p.description === undefined ? { type: p.type } : { type: p.type, description: lines(p.description) };
  const fn = { name: t.name, description: lines(t.description), parameters: { type: "object", properties, required: t.required } };
  const tool = { type: "function", function: fn };
  return variant.reverseKeys ? reverseDeep(tool) : tool;
}

function build(s: Spec, variant: Variant = {}): Record<string, unknown> {
  const c = variant.client ?? DEFAULT_CLIENT;
  const model = new ChatOpenAI({
    model: s.model,
    temperature: s.temperature,
    maxTokens: s.maxTokens,
    topP: s.topP,
    stop: s.stop,
    apiKey: c.apiKey,
    timeout: c.timeout,
    maxRetries: c.maxRetries,
    configuration: { baseURL: `http://127.0.0.1:${c.port}/v1`, organization: c.organization, defaultHeaders: c.headers },
  });
  const id = variant.renameIds ?? ((x: string) => x);
  const argsOf = (a: Record<string, unknown>) => (variant.reverseKeys ? reverseDeep(a) : a) as Record<string, unknown>;
  const messages: BaseMessage[] = s.messages.map((m, i) => {
    const base = { content: m.text, id: variant.messageIds?.[i] };
    switch (m.role) {
      case "human":
        return new HumanMessage({ ...base, name: m.name });
      case "system":
        return new SystemMessage({ ...base, name: m.name });
      case "ai":
        return new AIMessage({
          ...base,
          tool_calls: (m.calls ?? []).map((tc) => ({ id: id(tc.id), name: tc.name, args: argsOf(tc.args), type: "tool_call" as const })),
        });
      case "tool":
        return new ToolMessage({ ...base, tool_call_id: id(m.ref!) });
    }
  });
  const options: Record<string, unknown> = {};
  if (s.tools) {
    options.tools = s.tools.map((t) => openAiTool(t, variant));
    if (s.toolChoice !== undefined)
      options.tool_choice = typeof s.toolChoice === "string" ? s.toolChoice : { type: "function", function: { name: s.toolChoice.name } };
  }
  if (c.tags) options.tags = c.tags;
  if (c.metadata) options.metadata = c.metadata;
  if (c.runName) options.runName = c.runName;
  return chatRequest(model, messages, variant.reverseKeys ? reverseDeep(options) : options, identity);
}

const hashOf = (s: Spec, variant?: Variant) => requestHash("chat", build(s, variant));

/**
 * The oracle: two specs ask the same thing iff these are equal. Tool-call ids count only by
 * which occurrences share an id (their pattern), as a consistent renaming keeps the link.
 */
function meaning(s: Spec): string {
  const seen = new Map<string, number>();
  const ord = (x: string) => (seen.has(x) ? seen.get(x)! : (seen.set(x, seen.size + 1), seen.size));
  const messages = s.messages.map((m) => ({
    ...m,
    calls: m.calls?.length ? m.calls.map((c) => ({ ...c, id: ord(c.id) })) : undefined, // no calls = an empty list
    ref: m.ref === undefined ? undefined : ord(m.ref),
  }));
  return JSON.stringify(sortDeep({ ...s, messages }));
}

// ---- mutations: change one field that matters -------------------------------------------

const pick = <T>(xs: readonly T[]) => fc.nat({ max: Math.max(0, xs.length - 1) }).map((i) => i);
const without = <T>(xs: readonly T[], i: number) => xs.filter((_, k) => k !== i);
const setMsg = (s: Spec, i: number, m: MsgSpec): Spec => ({ ...s, messages: s.messages.map((x, k) => (k === i ? m : x)) });
const setTool = (s: Spec, i: number, t: ToolSpec): Spec => ({ ...s, tools: s.tools!.map((x, k) => (k === i ? t : x)) });
const SEPARATORS = ["\n\nAI: ", "\nassistant: ", "\nHuman: ", '","role":"assistant","content":"', '"}, {"role": "user", "content": "', "\n"];

function mutations(s: Spec): fc.Arbitrary<[string, Spec]>[] {
  const ms = s.messages;
  const out: fc.Arbitrary<[string, Spec]>[] = [
    fc.tuple(pick(ms), text).map(([i, t]) => ["message text", setMsg(s, i, { ...ms[i], text: t })]),
    fc
      .tuple(pick(ms), fc.constantFrom("\r", " ", "\u0000", "\uD800", "x"))
      .map(([i, c]) => ["one character more", setMsg(s, i, { ...ms[i], text: ms[i].text + c })]),
    fc.constantFrom(...ms.map((_, i) => i)).map((i) => ["a message dropped", { ...s, messages: without(ms, i) }]),
    fc.tuple(pick(ms), message).map(([i, m]) => ["a message inserted", { ...s, messages: [...ms.slice(0, i), m, ...ms.slice(i)] }]),
    fc.constantFrom("gpt-4o-mini", "gpt-4o", "llama3.2", "gpt-4o-mini ").map((model) => ["model", { ...s, model }]),
    fc
      .option(
        fc.integer({ min: 0, max: 20 }).map((n) => n / 10),
        { nil: undefined },
      )
      .map((temperature) => ["temperature", { ...s, temperature }]),
    fc.option(fc.integer({ min: 1, max: 4096 }), { nil: undefined }).map((maxTokens) => ["max tokens", { ...s, maxTokens }]),
    fc
      .option(
        fc.integer({ min: 1, max: 10 }).map((n) => n / 10),
        { nil: undefined },
      )
      .map((topP) => ["top_p", { ...s, topP }]),
    fc.option(fc.array(text, { minLength: 1, maxLength: 2 }), { nil: undefined }).map((stop) => ["stop", { ...s, stop }]),
  ];
  if (ms.length > 1) {
    out.push(pick(ms.slice(1)).map((i) => ["two messages swapped", { ...s, messages: [...ms.slice(0, i), ms[i + 1], ms[i], ...ms.slice(i + 2)] }]));
  }
  const mergeable = ms.flatMap((m, i) =>
    i + 1 < ms.length && !m.calls?.length && m.role !== "tool" && !ms[i + 1].calls?.length && ms[i + 1].role !== "tool" ? [i] : [],
  );
  if (mergeable.length) {
    // two messages vs one whose text imitates the second's role prefix or JSON
    out.push(
      fc
        .tuple(fc.constantFrom(...mergeable), fc.constantFrom(...SEPARATORS))
        .map(([i, sep]) => [
          "two messages merged into one look-alike",
          { ...s, messages: [...ms.slice(0, i), { ...ms[i], text: ms[i].text + sep + ms[i + 1].text }, ...ms.slice(i + 2)] },
        ]),
    );
  }
  const plain = ms.flatMap((m, i) => (m.role === "human" || m.role === "system" || (m.role === "ai" && !m.calls?.length) ? [i] : []));
  if (plain.length) {
    out.push(
      fc
        .tuple(fc.constantFrom(...plain), fc.constantFrom<Role>("human", "system", "ai"))
        .map(([i, role]) => ["role", setMsg(s, i, { role, text: ms[i].text, name: role === "ai" ? undefined : ms[i].name })]),
    );
    const named = plain.filter((i) => ms[i].role !== "ai");
    if (named.length)
      out.push(fc.tuple(fc.constantFrom(...named), fc.option(ident, { nil: undefined })).map(([i, name]) => ["name", setMsg(s, i, { ...ms[i], name })]));
  }
  const withCalls = ms.flatMap((m, i) => (m.calls?.length ? [i] : []));
  if (withCalls.length) {
    out.push(
      fc.tuple(fc.constantFrom(...withCalls), fc.nat(), ident, argValue, fc.boolean()).map(([i, k, key, value, rename]) => {
        const calls = ms[i].calls!.map((c) => ({ ...c }));
        const c = calls[k % calls.length];
        if (rename) c.name = key;
        else c.args = { ...c.args, [key]: value };
        return [rename ? "tool-call name" : "tool-call argument", setMsg(s, i, { ...ms[i], calls })];
      }),
    );
  }
  const toolMsgs = ms.flatMap((m, i) => (m.role === "tool" ? [i] : []));
  if (toolMsgs.length) {
    out.push(
      fc
        .tuple(fc.constantFrom(...toolMsgs), fc.constantFrom(...CALL_IDS))
        .map(([i, ref]) => ["which call a tool result answers", setMsg(s, i, { ...ms[i], ref })]),
    );
  }
  if (s.tools?.length) {
    const ts = s.tools;
    out.push(
      fc.tuple(pick(ts), description).map(([i, d]) => ["tool description", setTool(s, i, { ...ts[i], description: d })]),
      fc.tuple(pick(ts), ident).map(([i, name]) => ["tool name", setTool(s, i, { ...ts[i], name })]),
      fc.tuple(pick(ts), ident, prop).map(([i, k, p]) => ["tool schema property", setTool(s, i, { ...ts[i], props: { ...ts[i].props, [k]: p } })]),
      fc.tuple(pick(ts), fc.nat()).map(([i, k]) => {
        const keys = Object.keys(ts[i].props);
        const key = keys[k % keys.length];
        const required = ts[i].required.includes(key) ? ts[i].required.filter((r) => r !== key) : [...ts[i].required, key];
        return ["tool schema required", setTool(s, i, { ...ts[i], required })] as [string, Spec];
      }),
      pick(ts).map((i) => ["a tool removed", { ...s, tools: ts.length > 1 ? without(ts, i) : undefined }]),
      fc
        .oneof(fc.constantFrom<Spec["toolChoice"]>("auto", "none", "required", undefined), fc.constantFrom(...ts.map((t) => ({ name: t.name }))))
        .map((toolChoice) => ["tool choice", { ...s, toolChoice }]),
    );
  }
  return out;
}

const mutated = spec.chain((s) => fc.oneof(...mutations(s)).map(([what, t]) => ({ s, what, t })));

// ---- the properties ---------------------------------------------------------------------

describe("reliability: canonical-form properties (fast-check)", function () {
  this.timeout(30000);

  it("(a) two requests that differ in one field that matters never hash the same", () => {
    const hit = new Map<string, number>();
    fc.assert(
      fc.property(mutated, ({ s, what, t }) => {
        fc.pre(meaning(s) !== meaning(t));
        hit.set(what, (hit.get(what) ?? 0) + 1);
        expect(hashOf(t), `${what} changed, yet the hash did not`).not.to.equal(hashOf(s));
      }),
      { numRuns: Number(process.env.VCR_PROPERTY_RUNS ?? 400) },
    );
    // every kind of change was exercised, including the role-prefix and JSON look-alikes
    for (const what of [
      "message text",
      "two messages merged into one look-alike",
      "role",
      "which call a tool result answers",
      "tool schema required",
      "tool choice",
      "model",
    ]) {
      expect(hit.get(what) ?? 0, what).to.be.greaterThan(0);
    }
  });

  it("(b) key order, CRLF in tool schemas, client secrets and ports, message ids and renamed tool-call ids never change the hash", () => {
    const renaming = fc.uniqueArray(fc.string({ minLength: 1, maxLength: 24 }), { minLength: CALL_IDS.length, maxLength: CALL_IDS.length });
    fc.assert(
      fc.property(spec, client, fc.array(fc.uuid(), { minLength: 5, maxLength: 5 }), renaming, (s, c, ids, fresh) => {
        const base = hashOf(s);
        const rename = (id: string) => fresh[CALL_IDS.indexOf(id)];
        expect(hashOf(s, { reverseKeys: true }), "key order").to.equal(base);
        expect(hashOf(s, { crlf: true }), "CRLF in tool descriptions and schemas").to.equal(base);
        expect(hashOf(s, { client: c }), "client fields, port, timeout, retries, tags, metadata").to.equal(base);
        expect(hashOf(s, { messageIds: ids }), "message ids").to.equal(base);
        expect(hashOf(s, { renameIds: rename }), "tool-call ids renamed consistently").to.equal(base);
        expect(hashOf(s, { client: c, messageIds: ids, renameIds: rename, reverseKeys: true, crlf: true }), "all at once").to.equal(base);
      }),
      { numRuns: Math.ceil(Number(process.env.VCR_PROPERTY_RUNS ?? 400) / 3) },
    );
  });

  it("(a) a parameter that serializes through toJSON (a Date in modelKwargs) is keyed by the value the provider receives", () => {
    const at = (d: Date) =>
      requestHash(
        "chat",
        chatRequest(new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "k", modelKwargs: { cutoff: d } }), [new HumanMessage("hi")], {}, identity),
      );
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 4e12 }), fc.integer({ min: 0, max: 4e12 }), (a, b) => {
        expect(at(new Date(a)) === at(new Date(b))).to.equal(new Date(a).toJSON() === new Date(b).toJSON());
      }),
      { numRuns: 50 },
    );
  });

  it("(b) the canonical request holds no client key, organization or header", () => {
    fc.assert(
      fc.property(spec, client, (s, c) => {
        const marker = `SECRET${c.port}x`;
        const text = JSON.stringify(build(s, { client: { ...c, apiKey: marker, organization: marker, headers: { Authorization: marker } } }));
        expect(text).not.to.include(marker);
      }),
      { numRuns: Math.ceil(Number(process.env.VCR_PROPERTY_RUNS ?? 400) / 4) },
    );
  });
});
