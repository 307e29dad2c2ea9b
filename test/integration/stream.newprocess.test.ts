import { expect } from "chai";
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import * as vm from "node:vm";
import * as path from "node:path";
import { withVcr } from "../../src/index";
import { startFakeProvider, type FakeProvider, type ScriptedReply } from "../helpers/fakeProvider";
import { readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";

const ROOT = path.join(__dirname, "../..");

/**
 * What both processes run: the recording one (this mocha process, record_or_replay) and the
 * replaying one (a new node process, replay_only, same fixture directory). Plain JavaScript,
 * a function body of `(require, env)` with `require` resolving from the project root, so both
 * run the very same code; it returns what it saw.
 */
const OPS = String.raw`
const { ChatOpenAI } = require("@langchain/openai");
const { ChatOllama } = require("@langchain/ollama");
const { createAgent, tool } = require("langchain");
const { z } = require("zod");
const { Vcr } = require("./src/index");

const vcr = new Vcr({ dir: env.FIXTURE_DIR });
const url = env.FAKE_URL;
const makers = {
  openai: () => new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key-not-a-secret-1", maxRetries: 0, cache: vcr.cache, configuration: { baseURL: url + "/v1" } }),
  ollama: () => new ChatOllama({ model: "llama3.2", baseUrl: url, maxRetries: 0, cache: vcr.cache }),
};
const weather = { type: "function", function: { name: "get_weather", description: "Weather for a city", parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] } } };
const getOrder = tool(async ({ orderId }) => "order " + orderId + " shipped", { name: "get_order", description: "Order status", schema: z.object({ orderId: z.string() }) });

const json = (v) => JSON.parse(JSON.stringify(v));
const runId = (id) => (typeof id === "string" ? id.replace(/run-[0-9a-f-]{36}/g, "run-*") : id);
const view = (m) => json({ type: m.getType(), content: m.content, id: runId(m.id), name: m.name, tool_call_chunks: m.tool_call_chunks,
  tool_calls: m.tool_call_chunks && m.tool_call_chunks.length ? undefined : m.tool_calls, tool_call_id: m.tool_call_id,
  usage_metadata: m.usage_metadata, response_metadata: m.response_metadata, additional_kwargs: m.additional_kwargs });
const counter = (log) => ({ handleLLMNewToken(token, idx, r, p, t, fields) { log.push([token, json(idx === undefined ? null : idx), !!(fields && fields.chunk)]); } });

async function ops(p) {
  const out = {};
  const t = Date.now();
  const tokens = [];
  const chunks = [];
  for await (const c of await makers[p]().stream("Tell me a story", { callbacks: [counter(tokens)] })) chunks.push(c);
  out.stream = { chunks: chunks.map(view), tokens, aggregate: view(chunks.reduce((a, b) => a.concat(b))) };

  const calls = [];
  for await (const c of await makers[p]().bindTools([weather]).stream("Weather in Paris?")) calls.push(c);
  const agg = calls.reduce((a, b) => a.concat(b));
  out.toolCall = { chunks: calls.map(view), fragments: json(calls.flatMap((c) => c.tool_call_chunks)), toolCalls: json(agg.tool_calls) };

  const v2 = [];
  for await (const e of makers[p]().streamEvents("events please", { version: "v2" })) {
    v2.push(e.event === "on_chat_model_stream" ? [e.event, view(e.data.chunk)] : [e.event]);
  }
  out.eventsV2 = v2;

  const v3 = [];
  for await (const e of makers[p]().streamEvents("new protocol please")) v3.push(json(e));
  out.eventsNew = v3;

  const agent = createAgent({ model: makers[p](), tools: [getOrder] });
  const messages = [];
  for await (const [m, meta] of await agent.stream({ messages: [{ role: "user", content: "Where is order 42?" }] }, { streamMode: "messages" })) {
    messages.push([meta.langgraph_node, view(m)]);
  }
  out.agentMessages = messages;
  out.ms = Date.now() - t;
  return out;
}

const results = { openai: await ops("openai"), ollama: await ops("ollama") };
return { results, stats: vcr.stats() };
`;

/** The new process: `node -e` from the project root; ts-node loads src/*.ts. */
const CHILD = `(async function (require, env) {${OPS}})(require, process.env)
  .then((r) => console.log(JSON.stringify(r)), (e) => { console.error(e); process.exit(1); });`;

function runOpsHere(env: Record<string, string>): Promise<any> {
  const fn = vm.runInThisContext(`(async function (require, env) {${OPS}})`) as (req: NodeRequire, env: Record<string, string>) => Promise<any>;
  return fn(createRequire(path.join(ROOT, "package.json")), env);
}

/** The replies the recording's requests get, in order: per provider one stream, one tool call, two event streams, two agent turns. */
const SCRIPT: ScriptedReply[] = [
  { content: "Once upon a time there was a fixture." },
  { toolCalls: [{ name: "get_weather", args: { city: "Paris" } }] },
  { content: "Events arrive in order." },
  { content: "New protocol events too." },
  { toolCalls: [{ name: "get_order", args: { orderId: "42" } }] },
  { content: "Order 42 has shipped." },
];
const PER_PROVIDER = SCRIPT.length;

function runChild(env: Record<string, string>): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    // async spawn: the fake provider answers from this process's event loop
    const child = spawn(process.execPath, ["-r", "ts-node/register/transpile-only", "-e", CHILD], {
      cwd: ROOT,
      env: { ...process.env, TS_NODE_TRANSPILE_ONLY: "true", LANGCHAIN_VCR_QUIET: "1", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), 45000);
    child.on("error", reject);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}

function lastJson(stdout: string): any {
  return JSON.parse(stdout.trim().split("\n").pop()!);
}

describe("stream: record in one process, replay in a new one", function () {
  this.timeout(60000);
  let fake: FakeProvider;
  let dir: string;
  before(async () => {
    fake = await startFakeProvider();
    dir = tmpDir();
  });
  after(async () => {
    await fake.close();
    removeTmpDirs();
  });

  let recorded: any;
  let replayed: any;

  it("records every stream once (record_or_replay, here), then replays them all in a new process with 0 requests (replay_only)", async () => {
    fake.enqueue(...SCRIPT, ...SCRIPT);
    recorded = await withVcr({ mode: "record_or_replay" }, () => runOpsHere({ FIXTURE_DIR: dir, FAKE_URL: fake.url }));
    expect(fake.count()).to.equal(2 * PER_PROVIDER);
    expect(recorded.stats).to.deep.equal({ replayed: 0, recorded: 2 * PER_PROVIDER, bypassed: 0, missed: 0 });
    const fixtures = readFixtures(dir);
    expect(fixtures).to.have.length(2 * PER_PROVIDER);
    expect(fixtures.every((f) => f.kind === "chat_stream")).to.equal(true);

    const rep = await runChild({ FIXTURE_DIR: dir, FAKE_URL: fake.url, LANGCHAIN_VCR_MODE: "replay_only" });
    expect(rep.status, rep.stderr).to.equal(0);
    expect(fake.count()).to.equal(2 * PER_PROVIDER);
    replayed = lastJson(rep.stdout);
    expect(replayed.stats).to.deep.equal({ replayed: 2 * PER_PROVIDER, recorded: 0, bypassed: 0, missed: 0 });
  });

  for (const p of ["openai", "ollama"] as const) {
    describe(p === "openai" ? "ChatOpenAI (SSE)" : "ChatOllama (NDJSON)", () => {
      before(function () {
        if (!recorded || !replayed) this.skip();
      });

      it(".stream(): identical chunk list, identical aggregate, identical handleLLMNewToken calls", () => {
        const [a, b] = [recorded.results[p].stream, replayed.results[p].stream];
        expect(a.chunks.length).to.be.greaterThan(3);
        expect(b.chunks).to.deep.equal(a.chunks);
        expect(b.aggregate).to.deep.equal(a.aggregate);
        expect(b.aggregate.content).to.equal("Once upon a time there was a fixture.");
        expect(b.aggregate.usage_metadata.total_tokens).to.be.greaterThan(0);
        expect(b.tokens.length).to.be.greaterThan(3);
        expect(b.tokens).to.deep.equal(a.tokens);
      });

      it("a streamed tool call: identical tool_call_chunks fragments and the same parsed call", () => {
        const [a, b] = [recorded.results[p].toolCall, replayed.results[p].toolCall];
        expect(a.fragments.length).to.be.greaterThan(0);
        expect(b.fragments).to.deep.equal(a.fragments);
        expect(b.chunks).to.deep.equal(a.chunks);
        expect(b.toolCalls.map((c: any) => [c.name, c.args])).to.deep.equal([["get_weather", { city: "Paris" }]]);
        expect(b.toolCalls).to.deep.equal(a.toolCalls);
      });

      it('streamEvents({ version: "v2" }): the same events, with the same on_chat_model_stream chunks', () => {
        const [a, b] = [recorded.results[p].eventsV2, replayed.results[p].eventsV2];
        expect(a.filter((e: any[]) => e[0] === "on_chat_model_stream").length).to.be.greaterThan(3);
        expect(b).to.deep.equal(a);
      });

      it("streamEvents() (the new default protocol): the same events", () => {
        const [a, b] = [recorded.results[p].eventsNew, replayed.results[p].eventsNew];
        expect(a.map((e: any) => e.event)).to.include.members(["message-start", "content-block-delta", "message-finish"]);
        expect(b).to.deep.equal(a);
      });

      it('createAgent streamed with streamMode: "messages": the same sequence of messages, offline', () => {
        const [a, b] = [recorded.results[p].agentMessages, replayed.results[p].agentMessages];
        expect(a.length).to.be.greaterThan(5);
        expect(a.map((m: any[]) => m[0])).to.include.members(["model_request", "tools"]);
        expect(b).to.deep.equal(a);
        const text = b
          .filter((m: any[]) => m[0] === "model_request")
          .map((m: any[]) => m[1].content)
          .join("");
        expect(text).to.equal("Order 42 has shipped.");
      });

      it("recording and replay never wait on the network (no tokenizer download)", () => {
        expect(recorded.results[p].ms).to.be.lessThan(15000); // hang guards, not speed tests: a tokenizer download takes minutes
        expect(replayed.results[p].ms).to.be.lessThan(15000);
      });
    });
  }
});
