/**
 * vcr.tool(): the wrapper is the same LangChain tool (OpenAI JSON, validation, callbacks),
 * keys fixtures on name + parsed args (+ ordinal), follows the modes, and replays every kind
 * of result and throw without running the body. Tools are invoked directly here; the agent
 * tests are in test/integration/tools.agent.test.ts.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import { ToolMessage } from "@langchain/core/messages";
import { RunnableLambda } from "@langchain/core/runnables";
import { DynamicStructuredTool, DynamicTool, StructuredTool, ToolInputParsingException, tool } from "@langchain/core/tools";
import { convertToOpenAITool } from "@langchain/core/utils/function_calling";
import { Command, Send } from "@langchain/langgraph";
import { z } from "zod";
import { Vcr, VcrMissError, VcrRecordError, VcrFixtureError, isVcrError } from "../../src/index";
import { inOwnTest } from "../helpers/ownTest";
import { fixtureFiles, fromAnEarlierRun, readFixtures, removeTmpDirs, tmpDir } from "../helpers/tmp";

const call = (name: string, args: unknown, id = "call_now") => ({ type: "tool_call" as const, id, name, args: args as Record<string, unknown> });

function withEnv<T>(name: string, value: string, fn: () => Promise<T>): Promise<T> {
  const saved = process.env[name];
  process.env[name] = value;
  return fn().finally(() => {
    if (saved === undefined) delete process.env[name];
    else process.env[name] = saved;
  });
}

/** A tool whose body counts its runs and returns what `make` gives. */
function counted<R>(make: (args: { orderId: string }, n: number) => R, fields: Record<string, unknown> = {}) {
  const runs = { n: 0 };
  const t = tool(
    async (args: { orderId: string }) => {
      runs.n++;
      return make(args, runs.n);
    },
    { name: "get_status", description: "Status of an order.", schema: z.object({ orderId: z.string() }), ...fields },
  );
  return { t, runs };
}

class LookupTool extends StructuredTool {
  name = "lookup_customer";
  description = "Finds a customer by email.";
  schema = z.object({ email: z.string().email(), full: z.boolean().default(false) });
  returnDirect = true;
  calls = 0;
  async _call(input: { email: string; full: boolean }): Promise<string> {
    this.calls++;
    return `customer ${input.email} full=${input.full}`;
  }
}

describe("tools: vcr.tool() wrapper", () => {
  let dir: string;
  let vcr: Vcr;
  beforeEach(() => {
    dir = tmpDir();
    vcr = new Vcr({ dir, mode: "record_or_replay" });
  });
  afterEach(() => removeTmpDirs());

  describe("is the same LangChain tool", () => {
    const refund = tool(async ({ orderId, amount }: { orderId: string; amount: number }) => `refunded ${amount} on ${orderId}`, {
      name: "issue_refund",
      description: "Refund an order.",
      schema: z.object({ orderId: z.string().describe("the order"), amount: z.number().positive() }),
      responseFormat: "content",
      returnDirect: false,
      metadata: { team: "billing" },
      tags: ["money"],
      extras: { cache_control: { type: "ephemeral" } },
    });
    const dynStructured = new DynamicStructuredTool({
      name: "get_weather",
      description: "Weather for a city.",
      schema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
      func: async ({ city }: { city: string }) => `sunny in ${city}`,
      responseFormat: "content_and_artifact",
    });
    const dyn = new DynamicTool({ name: "echo", description: "Echo the input.", func: async (s: string) => `echo ${s}`, returnDirect: true });
    const asTool = (t: unknown) => t as StructuredTool;
    const cases: [string, StructuredTool][] = [
      ["tool(...) with a zod schema", asTool(refund)],
      ["DynamicStructuredTool with a JSON schema", asTool(dynStructured)],
      ["DynamicTool (string input)", asTool(dyn)],
      ["a StructuredTool subclass", new LookupTool()],
    ];
    for (const [title, original] of cases) {
      it(`${title}: identical OpenAI tool JSON, fields and class`, () => {
        const wrapped = vcr.tool(original);
        expect(wrapped).to.not.equal(original);
        expect(convertToOpenAITool(wrapped)).to.deep.equal(convertToOpenAITool(original));
        for (const k of ["name", "description", "schema", "responseFormat", "returnDirect", "metadata", "tags", "extras", "verboseParsingErrors"] as const) {
          expect((wrapped as unknown as Record<string, unknown>)[k], k).to.equal((original as unknown as Record<string, unknown>)[k]);
        }
        expect(wrapped).to.be.instanceOf(original.constructor);
        expect(JSON.stringify(wrapped)).to.equal(JSON.stringify(original));
      });
    }

    it("vcr.tools() keeps order; one Vcr wraps a tool once: the same tool, or its wrapper, gives the same wrapper", () => {
      const ts = vcr.tools([refund, dyn]);
      expect(ts.map((t) => t.name)).to.deep.equal(["issue_refund", "echo"]);
      expect(vcr.tool(ts[0])).to.equal(ts[0]);
      expect(vcr.tool(refund)).to.equal(ts[0]);
      expect(vcr.tools([dyn, refund])).to.deep.equal([ts[1], ts[0]]);
      const other = new Vcr({ dir: tmpDir(), mode: "record_or_replay" });
      expect(other.tool(refund)).to.not.equal(ts[0]); // each Vcr records into its own directory
    });

    it("refuses a non-tool with a VcrConfigError that says what to do", () => {
      const err = (() => {
        try {
          vcr.tool({ name: "x" } as unknown as StructuredTool);
        } catch (e) {
          return e as Error;
        }
      })();
      expect(isVcrError(err)).to.equal(true);
      expect(err!.message).to.include("needs a LangChain tool").and.include('named "x"').and.include("tool(fn, { name, description, schema })");
    });

    it("validates input exactly like the original: same error class and message, body never runs, nothing written", async () => {
      const { t, runs } = counted(() => "ok");
      const wrapped = vcr.tool(t);
      const a = await t.invoke(call("get_status", { orderId: 42 })).catch((e) => e);
      const b = await wrapped.invoke(call("get_status", { orderId: 42 })).catch((e) => e);
      expect(b).to.be.instanceOf(ToolInputParsingException);
      expect(b.constructor).to.equal(a.constructor);
      expect(b.message).to.equal(a.message).and.include("did not match expected schema");
      expect(b.output).to.equal(a.output);
      expect(runs.n).to.equal(0);
      expect(fixtureFiles(dir)).to.have.length(0);
    });

    it("fires handleToolStart / handleToolEnd once per call, live and replayed", async () => {
      const events: string[] = [];
      class Spy extends BaseCallbackHandler {
        name = "spy";
        handleToolStart() {
          events.push("start");
        }
        handleToolEnd() {
          events.push("end");
        }
      }
      const { t, runs } = counted(() => "shipped");
      const wrapped = vcr.tool(t);
      await wrapped.invoke(call("get_status", { orderId: "1" }), { callbacks: [new Spy()] });
      await inOwnTest({ mode: "replay_only" }, () => wrapped.invoke(call("get_status", { orderId: "1" }), { callbacks: [new Spy()] }));
      expect(events).to.deep.equal(["start", "end", "start", "end"]);
      expect(runs.n).to.equal(1);
    });

    it("the body gets the same config and run manager as unwrapped (tool-call id, configurable, child runs)", async () => {
      const seen: { id?: string; user?: string }[] = [];
      const parents: (string | undefined)[] = [];
      let toolRunId: string | undefined;
      class Runs extends BaseCallbackHandler {
        name = "runs";
        handleToolStart(_t: unknown, _i: string, runId: string) {
          toolRunId = runId;
        }
        handleChainStart(_c: unknown, _i: unknown, _runId: string, parentRunId?: string) {
          parents.push(parentRunId);
        }
      }
      const inner = RunnableLambda.from(async (x: string) => x.toUpperCase());
      const t = tool(
        async ({ q }: { q: string }, config) => {
          seen.push({ id: config.toolCall?.id, user: config.configurable?.user });
          return inner.invoke(q, config);
        },
        { name: "nested", description: "d", schema: z.object({ q: z.string() }) },
      );
      const msg = (await vcr.tool(t).invoke(call("nested", { q: "hi" }, "call_cfg"), { configurable: { user: "u1" }, callbacks: [new Runs()] })) as ToolMessage;
      expect(msg.content).to.equal("HI");
      expect(seen).to.deep.equal([{ id: "call_cfg", user: "u1" }]);
      expect(parents).to.deep.equal([toolRunId]); // the nested runnable is a child of the tool run
    });

    it("a subclass keeps its own state on the original instance (this = original)", async () => {
      const original = new LookupTool();
      const wrapped = vcr.tool(original);
      const out = await wrapped.invoke({ email: "a@b.co" });
      expect(out).to.equal("customer a@b.co full=false");
      expect(original.calls).to.equal(1);
      expect(Object.prototype.hasOwnProperty.call(wrapped, "calls")).to.equal(false);
      // A new test starts counting repeats again: this is call 1 again, replayed.
      expect(await inOwnTest({}, () => wrapped.invoke({ email: "a@b.co" }))).to.equal(out);
      expect(original.calls).to.equal(1);
    });

    it("a DynamicTool takes a plain string and keys on it", async () => {
      let runs = 0;
      const wrapped = vcr.tool(new DynamicTool({ name: "echo", description: "Echo.", func: async (s: string) => `echo ${s} #${++runs}` }));
      expect(await wrapped.invoke("hi")).to.equal("echo hi #1");
      expect(await wrapped.invoke("hi")).to.equal("echo hi #2"); // a repeat in this test is call 2
      expect(readFixtures(dir).map((f) => f.request)).to.have.deep.members([
        { tool: "echo", args: "hi" },
        { tool: "echo", args: "hi", call: 2 },
      ]);
    });
  });

  describe("fixtures", () => {
    it("key on tool name + canonical parsed args (defaults applied, keys sorted) — never the call id", async () => {
      const original = new LookupTool();
      const wrapped = vcr.tool(original);
      await wrapped.invoke(call("lookup_customer", { email: "a@b.co" }, "call_A"));
      const [fx] = readFixtures(dir);
      expect(fx.kind).to.equal("tool");
      expect(fx.request).to.deep.equal({ tool: "lookup_customer", args: { email: "a@b.co", full: false } });
      expect(JSON.stringify(fx)).to.not.include("call_A");
      // Another id, explicit default, other key order: the same fixture, replayed.
      const msg = (await inOwnTest({}, () => wrapped.invoke(call("lookup_customer", { full: false, email: "a@b.co" }, "call_B")))) as ToolMessage;
      expect(original.calls).to.equal(1);
      expect(msg.tool_call_id).to.equal("call_B");
      expect(fixtureFiles(dir)).to.have.length(1);
    });

    it("a repeated identical call records call: 2, 3 … and replays the results in recorded order", async () => {
      const { t, runs } = counted((_a, n) => (n < 3 ? "pending" : "shipped"));
      const wrapped = vcr.tool(t);
      const live: string[] = [];
      for (let i = 0; i < 3; i++) live.push(await wrapped.invoke({ orderId: "7" }));
      expect(live).to.deep.equal(["pending", "pending", "shipped"]);
      expect(readFixtures(dir).map((f) => f.request.call)).to.have.members([undefined, 2, 3]);
      const replayed = await inOwnTest({ mode: "replay_only" }, async () => {
        const out: string[] = [];
        for (let i = 0; i < 3; i++) out.push(await wrapped.invoke({ orderId: "7" }));
        return out;
      });
      expect(replayed).to.deep.equal(live);
      expect(runs.n).to.equal(3);
      // A fourth call in that scope was never recorded.
      const err = await inOwnTest({ mode: "replay_only" }, async () => {
        for (let i = 0; i < 3; i++) await wrapped.invoke({ orderId: "7" });
        return wrapped.invoke({ orderId: "7" }).catch((e) => e);
      });
      expect(err).to.be.instanceOf(VcrMissError);
      expect(err.request).to.deep.equal({ tool: "get_status", args: { orderId: "7" }, call: 4 });
    });

    it("different Vcr directories count their repeats separately", async () => {
      const other = new Vcr({ dir: tmpDir(), mode: "record_or_replay" });
      const { t } = counted(() => "x");
      await vcr.tool(t).invoke({ orderId: "1" });
      await other.tool(t).invoke({ orderId: "1" });
      expect(readFixtures(dir).map((f) => f.request.call)).to.deep.equal([undefined]);
      expect(readFixtures(other.dir).map((f) => f.request.call)).to.deep.equal([undefined]);
    });
  });

  describe("the per-test position resets between mocha tests", () => {
    const shared = tmpDirOnce();
    let runs = 0;
    const make = () =>
      new Vcr({ dir: shared(), mode: "record_or_replay" }).tool(
        tool(async () => `result ${++runs}`, { name: "poll", description: "Poll.", schema: z.object({ q: z.string() }) }),
      );
    it("test 1 records two results for the same call", async () => {
      const t = make();
      expect([await t.invoke({ q: "a" }), await t.invoke({ q: "a" })]).to.deep.equal(["result 1", "result 2"]);
    });
    it("test 2 starts again at the first result (replayed, body not run)", async () => {
      const t = make();
      expect([await t.invoke({ q: "a" }), await t.invoke({ q: "a" })]).to.deep.equal(["result 1", "result 2"]);
      expect(runs).to.equal(2);
      fs.rmSync(shared(), { recursive: true, force: true });
    });
  });

  describe("modes", () => {
    it("replay_only: an unrecorded call is a VcrMissError; the body never runs; nothing is written", async () => {
      const { t, runs } = counted(() => "x");
      const err = await inOwnTest({ mode: "replay_only" }, () => vcr.tool(t).invoke(call("get_status", { orderId: "9" }))).catch((e) => e);
      expect(err).to.be.instanceOf(VcrMissError);
      expect(err.kind).to.equal("tool");
      expect(err.request).to.deep.equal({ tool: "get_status", args: { orderId: "9" } });
      expect(err.message).to.include('tool "get_status"').and.include("LANGCHAIN_VCR_MODE=record_or_replay");
      expect(runs.n).to.equal(0);
      expect(fixtureFiles(dir)).to.have.length(0);
      expect(vcr.stats().missed).to.equal(1);
    });

    it("replay_only: an argument the app makes anew every run (a UUID) misses with how to keep it out of the arguments, not a normalizer nor a plain re-record", async () => {
      const { t, runs } = counted(() => "x");
      const w = vcr.tool(t);
      await w.invoke(call("get_status", { orderId: "0b7f1c2e-1111-4a2b-9c3d-000000000001" }));
      const err = await inOwnTest({ mode: "replay_only" }, () => w.invoke(call("get_status", { orderId: "6f1d2e3c-2222-4b3c-8d4e-000000000002" }))).catch(
        (e) => e,
      );
      expect(err).to.be.instanceOf(VcrMissError);
      expect(err.message).to.include("hint: a UUID changed between runs at args.orderId, which normalizers do not rewrite");
      expect(err.message).to.include("Recording it again will not help while that value changes on every run").and.not.include("To record it, run");
      expect(runs.n).to.equal(1);
    });

    it("bypass: the body runs every time and nothing is written", async () => {
      const { t, runs } = counted(() => "x");
      const w = vcr.tool(t);
      await inOwnTest({ mode: "bypass" }, async () => {
        await w.invoke({ orderId: "1" });
        await w.invoke({ orderId: "1" });
      });
      expect(runs.n).to.equal(2);
      expect(fixtureFiles(dir)).to.have.length(0);
      expect(vcr.stats()).to.deep.equal({ replayed: 0, recorded: 0, bypassed: 2, missed: 0 });
    });

    it("record_always: the body runs and the fixture is overwritten", async () => {
      const { t, runs } = counted((_a, n) => `v${n}`);
      const w = vcr.tool(t);
      await w.invoke({ orderId: "1" });
      fromAnEarlierRun(dir); // recorded by an earlier run (one this run's other test recorded is replayed: below)
      expect(await inOwnTest({ mode: "record_always" }, () => w.invoke({ orderId: "1" }))).to.equal("v2");
      expect(runs.n).to.equal(2);
      expect(readFixtures(dir).map((f) => f.response)).to.deep.equal([{ result: "v2" }]);
      expect(await inOwnTest({}, () => w.invoke({ orderId: "1" }))).to.equal("v2");
      expect(runs.n).to.equal(2);
    });

    it("toolMode execute: the body runs on every call; a result is written only where the main mode writes", async () => {
      const { t, runs } = counted((_a, n) => `v${n}`);
      const w = vcr.tool(t);
      await w.invoke({ orderId: "1" }); // recorded v1
      const out = await inOwnTest({ toolMode: "execute" }, () => w.invoke({ orderId: "1" }));
      expect(out).to.equal("v2");
      expect(readFixtures(dir).map((f) => f.response)).to.deep.equal([{ result: "v1" }]); // record_or_replay writes new only
      const offline = await inOwnTest({ mode: "replay_only", toolMode: "execute" }, () => w.invoke({ orderId: "2" }));
      expect(offline).to.equal("v3"); // no fixture, no miss: execute never reads
      expect(fixtureFiles(dir)).to.have.length(1);
      await inOwnTest({ mode: "record_always", toolMode: "execute" }, () => w.invoke({ orderId: "1" }));
      // (each withVcr scope counts repeats from 1, so these are all "call 1" of orderId 1)
      expect(readFixtures(dir).map((f) => f.response)).to.deep.equal([{ result: "v4" }]);
      expect(runs.n).to.equal(4);
    });

    it("tool mode resolves at call time: withVcr > LANGCHAIN_VCR_TOOL_MODE > options.toolMode", async () => {
      const { t, runs } = counted((_a, n) => `v${n}`);
      const execVcr = new Vcr({ dir, mode: "record_or_replay", toolMode: "execute" });
      const w = execVcr.tool(t);
      const once = () => inOwnTest({}, () => w.invoke({ orderId: "1" })); // a fresh scope: always "call 1"
      await once();
      await once();
      expect(runs.n).to.equal(2); // options.toolMode execute
      await withEnv("LANGCHAIN_VCR_TOOL_MODE", "replay", async () => {
        expect(await once()).to.equal("v1"); // env beats options: replayed
        expect(await inOwnTest({ toolMode: "execute" }, () => w.invoke({ orderId: "1" }))).to.equal("v3"); // withVcr beats env
      });
      expect(runs.n).to.equal(3);
    });
  });

  describe("replays every kind of result faithfully", () => {
    async function recordThenReplay<T>(make: () => T, fields: Record<string, unknown> = {}, args: unknown = { orderId: "1" }) {
      const { t, runs } = counted(make, fields);
      const w = vcr.tool(t);
      const live = await w.invoke(call("get_status", args, "call_rec"));
      const replayed = await inOwnTest({ mode: "replay_only" }, () => w.invoke(call("get_status", args, "call_new")));
      expect(runs.n, "body runs").to.equal(1);
      return { live: live as ToolMessage, replayed: replayed as ToolMessage, fixture: readFixtures(dir)[0] };
    }
    function sameMessage(live: ToolMessage, replayed: ToolMessage) {
      expect(replayed).to.be.instanceOf(ToolMessage);
      expect(replayed.tool_call_id).to.equal("call_new");
      expect(live.tool_call_id).to.equal("call_rec");
      expect({ ...replayed, tool_call_id: "x", lc_kwargs: {} }).to.deep.equal({ ...live, tool_call_id: "x", lc_kwargs: {} });
    }

    it("a string", async () => {
      const { live, replayed, fixture } = await recordThenReplay(() => "shipped");
      sameMessage(live, replayed);
      expect(fixture.response).to.deep.equal({ result: "shipped" });
    });

    it("content blocks", async () => {
      const blocks = [
        { type: "text", text: "see image" },
        { type: "image_url", image_url: { url: "data:image/png;base64,AAAA" } },
      ];
      const { live, replayed } = await recordThenReplay(() => blocks);
      sameMessage(live, replayed);
      expect(replayed.content).to.deep.equal(blocks);
    });

    it("a [content, artifact] tuple (responseFormat content_and_artifact), artifact with a Date and a Map", async () => {
      const artifact = { rows: new Map([["a", 1n]]), at: new Date("2024-01-02T03:04:05.000Z") };
      const { live, replayed } = await recordThenReplay(() => ["2 rows", artifact], { responseFormat: "content_and_artifact" });
      sameMessage(live, replayed);
      expect(replayed.artifact).to.deep.equal(artifact);
      expect(replayed.artifact.at).to.be.instanceOf(Date);
    });

    it("a plain object with unsorted keys: the ToolMessage content (JSON) is byte-identical", async () => {
      const { live, replayed, fixture } = await recordThenReplay(() => ({ status: "shipped", eta: "2024-05-01", items: [3, 1] }));
      sameMessage(live, replayed);
      expect(replayed.content).to.equal('{"status":"shipped","eta":"2024-05-01","items":[3,1]}');
      expect(fixture.response.result.keys).to.deep.equal(["status", "eta", "items"]);
    });

    it("values JSON cannot hold, nested, when invoked with plain args (raw value returned)", async () => {
      const value = { total: 12345678901234567890n, when: new Date(0), tags: new Set(["a"]), none: undefined, ratio: NaN, big: -Infinity };
      const { t, runs } = counted(() => value);
      const w = vcr.tool(t);
      const live = await w.invoke({ orderId: "1" });
      const replayed = await inOwnTest({ mode: "replay_only" }, () => w.invoke({ orderId: "1" }));
      expect(live).to.equal(value);
      expect(replayed).to.deep.equal(value);
      expect(Object.keys(replayed)).to.deep.equal(Object.keys(value));
      expect(runs.n).to.equal(1);
    });

    it("a ToolMessage returned by the tool is rebuilt with the CURRENT call id", async () => {
      const { live, replayed, fixture } = await recordThenReplay(() => {
        return new ToolMessage({ content: "done", artifact: { receipt: 7 }, status: "success", tool_call_id: "call_rec", name: "get_status" });
      });
      sameMessage(live, replayed);
      expect(replayed.artifact).to.deep.equal({ receipt: 7 });
      expect(fixture.response).to.deep.equal({ toolMessage: { content: "done", artifact: { receipt: 7 }, status: "success", name: "get_status" } });
    });

    it("an async-generator tool: the same events are emitted, then the same result", async () => {
      const seen: unknown[] = [];
      class Events extends BaseCallbackHandler {
        name = "events";
        handleToolEvent(chunk: unknown) {
          seen.push(chunk);
        }
      }
      let runs = 0;
      const t = tool(
        async function* ({ q }: { q: string }) {
          runs++;
          yield { progress: 50 };
          yield { progress: 100, at: new Date(5) };
          return `done ${q}`;
        },
        { name: "job", description: "A job.", schema: z.object({ q: z.string() }) },
      );
      const w = vcr.tool(t);
      const live = await w.invoke({ q: "x" }, { callbacks: [new Events()] });
      const replayed = await inOwnTest({ mode: "replay_only" }, () => w.invoke({ q: "x" }, { callbacks: [new Events()] }));
      expect([live, replayed]).to.deep.equal(["done x", "done x"]);
      expect(seen).to.deep.equal([{ progress: 50 }, { progress: 100, at: new Date(5) }, { progress: 50 }, { progress: 100, at: new Date(5) }]);
      expect(runs).to.equal(1);
    });
  });

  describe("throws", () => {
    it("records the error (class name and message), rethrows the original, replays the same throw without running", async () => {
      class PaymentDeclined extends Error {
        code = "E_DECLINED";
        constructor(msg: string) {
          super(msg);
          this.name = "PaymentDeclined";
        }
      }
      let original: Error | undefined;
      const { t, runs } = counted(() => {
        original = new PaymentDeclined("card declined for order");
        throw original;
      });
      const w = vcr.tool(t);
      const live = await w.invoke(call("get_status", { orderId: "1" })).catch((e) => e);
      expect(live).to.equal(original);
      expect(readFixtures(dir)[0].response).to.deep.equal({ error: { name: "PaymentDeclined", message: "card declined for order", code: "E_DECLINED" } });
      const replayed = await inOwnTest({ mode: "replay_only" }, () => w.invoke(call("get_status", { orderId: "1" }))).catch((e) => e);
      expect(runs.n).to.equal(1);
      expect(replayed).to.be.instanceOf(Error);
      expect(replayed.name).to.equal("PaymentDeclined");
      expect(replayed.constructor.name).to.equal("PaymentDeclined");
      expect(replayed.message).to.equal("card declined for order");
      expect(replayed.code).to.equal("E_DECLINED");
      expect(String(replayed)).to.equal(String(live));
    });

    it("the error's own fields of plain values come back (an app's error handling branches on them); objects and credential-named ones are left out; not an instance of the body's class", async () => {
      class CardError extends Error {
        retryable = true;
        declineCode = "insufficient_funds";
        status = 402;
        detail = null;
        apiKey = "sk-live-not-kept-0000000000";
        config = { headers: { Authorization: "Bearer x" } };
        constructor(msg: string) {
          super(msg);
          this.name = "CardError";
        }
      }
      const { t, runs } = counted(() => {
        throw new CardError("card declined");
      });
      const w = vcr.tool(t);
      const live = await w.invoke(call("get_status", { orderId: "2" })).catch((e) => e);
      expect(live).to.be.instanceOf(CardError);
      expect(readFixtures(dir)[0].response.error.fields).to.deep.equal({ retryable: true, declineCode: "insufficient_funds", status: 402, detail: null });
      const replayed = await inOwnTest({ mode: "replay_only" }, () => w.invoke(call("get_status", { orderId: "2" }))).catch((e) => e);
      expect(runs.n).to.equal(1);
      expect({ retryable: replayed.retryable, declineCode: replayed.declineCode, status: replayed.status, detail: replayed.detail }).to.deep.equal({
        retryable: true,
        declineCode: "insufficient_funds",
        status: 402,
        detail: null,
      });
      expect(replayed.apiKey).to.equal(undefined);
      expect(replayed.config).to.equal(undefined);
      expect(replayed.constructor.name).to.equal("CardError");
      expect(replayed).not.to.be.instanceOf(CardError); // replay never loads the body's module: branch on name, code or a field
    });

    it("built-in classes come back as themselves; a class that keeps name 'Error' keeps its class name", async () => {
      class Quiet extends Error {}
      const thrown = [new RangeError("too big"), new Quiet("hush")];
      for (const [i, e] of thrown.entries()) {
        const t = tool(
          async () => {
            throw e;
          },
          { name: `t${i}`, description: "d", schema: z.object({}) },
        );
        const w = vcr.tool(t);
        await w.invoke({}).catch(() => undefined);
        const r = await inOwnTest({ mode: "replay_only" }, () => w.invoke({})).catch((x) => x);
        expect(r.name).to.equal(e.name);
        expect(r.constructor.name).to.equal(e.constructor.name);
        expect(r.message).to.equal(e.message);
        if (e instanceof RangeError) expect(r).to.be.instanceOf(RangeError);
      }
    });

    it("a ToolInputParsingException thrown inside the body replays as one (agents treat it specially)", async () => {
      const t = tool(
        async () => {
          throw new ToolInputParsingException("inner tool got bad input", '{"x":1}');
        },
        { name: "outer", description: "d", schema: z.object({}) },
      );
      const w = vcr.tool(t);
      await w.invoke({}).catch(() => undefined);
      const r = await inOwnTest({ mode: "replay_only" }, () => w.invoke({})).catch((x) => x);
      expect(r).to.be.instanceOf(ToolInputParsingException);
      expect(r.message).to.equal("inner tool got bad input");
      expect(r.output).to.equal('{"x":1}');
    });

    it("a thrown non-Error value replays as the same value", async () => {
      const t = tool(
        async () => {
          throw { code: 42 };
        },
        { name: "weird", description: "d", schema: z.object({}) },
      );
      const w = vcr.tool(t);
      await w.invoke({}).catch(() => undefined);
      const r = await inOwnTest({ mode: "replay_only" }, () => w.invoke({})).catch((x) => x);
      expect(r).to.deep.equal({ code: 42 });
    });

    it("an abort is not the tool's outcome: rethrown, nothing recorded", async () => {
      const controller = new AbortController();
      let runs = 0;
      const t = tool(
        async () => {
          runs++;
          controller.abort();
          throw new Error("aborted by the caller");
        },
        { name: "slow", description: "d", schema: z.object({}) },
      );
      const err = await vcr
        .tool(t)
        .invoke({}, { signal: controller.signal })
        .catch((e) => e);
      expect(err).to.be.instanceOf(Error);
      expect(runs).to.equal(1);
      expect(fixtureFiles(dir)).to.have.length(0);
    });
  });

  describe("a tool returning a LangGraph Command (todoListMiddleware's write_todos, deepagents' file tools)", () => {
    const call = (id: string) => ({ id, name: "get_status", args: { orderId: "1" }, type: "tool_call" as const });
    const todos = [{ content: "Refund order 1", status: "in_progress" }];

    it("is recorded (its update with a ToolMessage, its goto) and replayed as a Command of LangGraph's own, the ToolMessage answering the call being replayed; the body ran once", async () => {
      const { t, runs } = counted(
        () =>
          new Command({
            update: { todos, messages: [new ToolMessage({ content: "Updated todo list", tool_call_id: "call_A", name: "get_status" })] },
            goto: "agent",
          }),
      );
      const w = vcr.tool(t);
      const live = (await inOwnTest({}, () => w.invoke(call("call_A")))) as unknown as Command;
      const [fx] = readFixtures(dir);
      expect(fx.response).to.have.property("command");
      expect(JSON.stringify(fx.response)).to.not.include("call_A"); // the call's own id is not written: another test's model may give another
      const replayed = (await inOwnTest({ mode: "replay_only" }, () => w.invoke(call("call_B")))) as unknown as Command;
      expect(runs.n).to.equal(1);
      expect(replayed).to.be.instanceOf(Command);
      expect(replayed.goto).to.deep.equal(live.goto);
      const update = replayed.update as { todos: unknown; messages: ToolMessage[] };
      expect(update.todos).to.deep.equal(todos);
      expect(ToolMessage.isInstance(update.messages[0])).to.equal(true);
      expect([update.messages[0].content, update.messages[0].tool_call_id, update.messages[0].name]).to.deep.equal([
        "Updated todo list",
        "call_B",
        "get_status",
      ]);
    });
  });

  describe("refuses to record what would replay differently", () => {
    class Money {
      constructor(readonly cents: number) {}
    }
    const cases: [string, () => unknown, string, string][] = [
      ["a class instance nested in the result", () => ({ refund: { amount: new Money(5) } }), "result.refund.amount", "an instance of Money"],
      ["a function", () => ({ cb: () => 1 }), "result.cb", "a function"],
      [
        "a cyclic structure",
        () => {
          const o: Record<string, unknown> = {};
          o.self = o;
          return o;
        },
        "result.self",
        "a cyclic reference (back to result)",
      ],
      [
        "a class instance in a LangGraph Command's update",
        () => new Command({ update: { refund: new Money(5) } }),
        "result.update.refund",
        "an instance of Money",
      ],
      [
        "a Send in a LangGraph Command's goto",
        () => new Command({ goto: new Send("refunds", { orderId: "1" }) }),
        "result.goto[0]",
        "a LangGraph Send in a Command's goto",
      ],
    ];
    for (const [title, make, where, what] of cases) {
      it(`${title}: VcrRecordError naming tool and path; nothing written; replay_only still misses`, async () => {
        const { t, runs } = counted(make);
        const w = vcr.tool(t);
        const err = (await w.invoke({ orderId: "1" }).catch((e) => e)) as VcrRecordError;
        expect(err).to.be.instanceOf(VcrRecordError);
        expect(err.code).to.equal("VCR_RECORD");
        expect(err.message).to.include(`tool "get_status" returned a value that cannot be recorded faithfully: ${what}`);
        expect(err.message).to.include(` at ${where}`);
        expect(err.message).to.include(path.join(dir, "")).and.include("(not written)").and.include("Fix it:");
        // the way out under install(), which wraps every tool: a scope that does not record
        expect(err.message).to.include(`under vcr.install(), which reaches every tool, call it inside withVcr({ mode: "bypass" }, …)`);
        expect(err.message).to.include(
          `in createAgent, a middleware: createMiddleware({ name: "RunTool", wrapToolCall: (req, next) => req.toolCall.name === "get_status" ? withVcr({ mode: "bypass" }, () => next(req)) : next(req) })`,
        );
        expect(runs.n).to.equal(1);
        expect(fixtureFiles(dir)).to.have.length(0);
        const miss = await inOwnTest({ mode: "replay_only" }, () => w.invoke({ orderId: "1" })).catch((e) => e);
        expect(miss).to.be.instanceOf(VcrMissError);
      });
    }

    it("…but under bypass nothing is written, so nothing is refused", async () => {
      const { t } = counted(() => ({ cb: () => 1 }));
      const out = await inOwnTest({ mode: "bypass" }, () => vcr.tool(t).invoke({ orderId: "1" }));
      expect(typeof (out as { cb: unknown }).cb).to.equal("function");
    });

    it("a hand-damaged tool fixture is a VcrFixtureError, never a silent miss", async () => {
      const { t, runs } = counted(() => "ok");
      const w = vcr.tool(t);
      await w.invoke({ orderId: "1" });
      const [file] = fixtureFiles(dir);
      const fx = JSON.parse(fs.readFileSync(path.join(dir, file), "utf8"));
      fx.response = { result: { $vcr: "Temporal" } };
      fs.writeFileSync(path.join(dir, file), JSON.stringify(fx));
      const err = await inOwnTest({}, () => w.invoke({ orderId: "1" })).catch((e) => e);
      expect(err).to.be.instanceOf(VcrFixtureError);
      expect(err.message).to.include(file).and.include('unknown tag "Temporal"').and.include("git checkout --");
      expect(runs.n).to.equal(1);
    });
  });
});

/** A directory shared by the tests of one describe block, created on first use. */
function tmpDirOnce(): () => string {
  let d: string | undefined;
  return () => (d ??= fs.mkdtempSync(path.join(require("node:os").tmpdir(), "vcr-tools-shared-")));
}
