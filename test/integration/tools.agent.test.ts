/**
 * Tool isolation under the REAL `createAgent` (langchain) with a REAL ChatOpenAI talking to the
 * loopback fake: the recording run runs each tool body once; a replay — in a new process —
 * makes 0 HTTP requests and runs 0 tool bodies; `execute` runs bodies every time.
 *
 * This file doubles as the child-process script: with VCR_TOOLS_CHILD=1 it runs one scenario
 * as a plain script (no mocha) and prints a JSON report, so parent and child build the very
 * same tools and agent.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { spawnSync } from "node:child_process";
import { ChatOpenAI } from "@langchain/openai";
import { AIMessage, ToolMessage, type BaseMessage } from "@langchain/core/messages";
import { tool } from "@langchain/core/tools";
import { createAgent } from "langchain";
import { z } from "zod";
import { Vcr, VcrMissError, VcrSecretError, withVcr } from "../../src/index";
import { inOwnTest } from "../helpers/ownTest";

/** Runs `fn` as a test of its own, as a runner plugin would: tool-call numbering starts at 1 (withVcr keeps the enclosing test's). */
function asOwnTest<T>(title: string, fn: () => T): T {
  return inOwnTest({}, fn, title);
}
import { diffValues } from "../../src/diagnose/diff";

// ---------------------------------------------------------------------------------------------
// Shared by parent and child: the tools, the agent, the scenarios.

class PaymentError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PaymentError";
  }
}

interface Runs {
  issue_refund: number;
  get_order_status: number;
  charge_card: number;
}

/** Tools with side effects: each run is counted, and a refund appends a line to `sideFile`. */
function buildTools(sideFile: string) {
  const runs: Runs = { issue_refund: 0, get_order_status: 0, charge_card: 0 };
  const issueRefund = tool(
    async ({ orderId, amount }: { orderId: string; amount: number }) => {
      runs.issue_refund++;
      fs.appendFileSync(sideFile, `refund ${orderId} ${amount}\n`);
      return `Refund of $${amount} issued for order ${orderId}.`;
    },
    { name: "issue_refund", description: "Refund part of an order.", schema: z.object({ orderId: z.string(), amount: z.number() }) },
  );
  const getOrderStatus = tool(
    async ({ orderId }: { orderId: string }) => {
      runs.get_order_status++;
      return { orderId, status: runs.get_order_status < 3 ? "processing" : "shipped", checks: runs.get_order_status };
    },
    { name: "get_order_status", description: "Current status of an order.", schema: z.object({ orderId: z.string() }) },
  );
  const chargeCard = tool(
    async ({ orderId }: { orderId: string }) => {
      runs.charge_card++;
      throw new PaymentError(`card declined for order ${orderId}`);
    },
    { name: "charge_card", description: "Charge the customer's card.", schema: z.object({ orderId: z.string() }) },
  );
  return { tools: [issueRefund, getOrderStatus, chargeCard], runs };
}

/** The agent's chat model: a ChatOpenAI on the fake, answering through `cache`. */
function agentModel(cache: unknown, baseURL: string): ChatOpenAI {
  return new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, cache: cache as ChatOpenAI["cache"], configuration: { baseURL } });
}

function buildAgent(vcr: Vcr, baseURL: string, sideFile: string, toolVcr: Vcr = vcr) {
  const { tools, runs } = buildTools(sideFile);
  const model = agentModel(vcr.cache, baseURL);
  return { agent: createAgent({ model, tools: toolVcr.tools(tools) }), runs };
}

const PROMPTS = {
  refund: "Please refund $10 on order 42.",
  poll: "Tell me when order 7 has shipped.",
  error: "Charge the card for order 42.",
} as const;
type Scenario = keyof typeof PROMPTS;

interface Report {
  answer: string;
  toolMessages: { name?: string; content: unknown; status?: string; tool_call_id: string }[];
  /** For each ToolMessage: the id of the AI tool call it answers (the current id). */
  callIds: string[];
  runs: Runs;
}

async function runScenario(scenario: Scenario, vcr: Vcr, baseURL: string, sideFile: string, toolVcr?: Vcr): Promise<Report> {
  const { agent, runs } = buildAgent(vcr, baseURL, sideFile, toolVcr);
  const out = await agent.invoke({ messages: [{ role: "user", content: PROMPTS[scenario] }] });
  const messages = out.messages as BaseMessage[];
  const calls = messages.flatMap((m) => (AIMessage.isInstance(m) ? (m.tool_calls ?? []).map((c) => c.id!) : []));
  const tms = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
  return {
    answer: String(messages[messages.length - 1].content),
    toolMessages: tms.map((m) => ({ name: m.name, content: m.content, status: m.status, tool_call_id: m.tool_call_id })),
    callIds: calls,
    runs: { ...runs },
  };
}

/** One child step: a scenario, replayed from FIXTURE_DIR, optionally under a tool mode. */
interface Step {
  scenario: Scenario;
  toolMode?: "replay" | "execute";
}
type StepResult = (Report & { stats: { [k: string]: number }; sideLines: number }) | { error: { name: string; message: string } };

/** Child mode: run each step in its own scope (modes from env, as users set them) and print the reports. */
async function childMain(): Promise<void> {
  const steps = JSON.parse(process.env.STEPS!) as Step[];
  const results: StepResult[] = [];
  for (const step of steps) {
    const vcr = new Vcr({ dir: process.env.FIXTURE_DIR });
    try {
      const report = await asOwnTest(`step ${step.scenario}`, () =>
        withVcr(step.toolMode ? { toolMode: step.toolMode } : {}, () => runScenario(step.scenario, vcr, process.env.BASE_URL!, process.env.SIDE_FILE!)),
      );
      results.push({ ...report, stats: { ...vcr.stats() }, sideLines: countLines(process.env.SIDE_FILE!) });
    } catch (e) {
      results.push({ error: { name: (e as Error).name, message: (e as Error).message } });
    }
  }
  console.log(JSON.stringify(results));
}

function countLines(file: string): number {
  return fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0;
}

if (process.env.VCR_TOOLS_CHILD === "1") {
  childMain().catch((e) => {
    console.error(e);
    process.exitCode = 1;
  });
} else {
  describeAgentTests();
}

// ---------------------------------------------------------------------------------------------
// The tests.

function describeAgentTests(): void {
  // Required here so the child (no mocha) never loads test-only modules.

  const { expect } = require("chai") as typeof import("chai");
  const { startFakeProvider } = require("../helpers/fakeProvider") as typeof import("../helpers/fakeProvider");
  const { fixtureFiles, readFixtures, removeTmpDirs, tmpDir } = require("../helpers/tmp") as typeof import("../helpers/tmp");
  type FakeProvider = import("../helpers/fakeProvider").FakeProvider;

  function script(fake: FakeProvider, scenario: Scenario): void {
    if (scenario === "refund") {
      fake.enqueue({ toolCalls: [{ name: "issue_refund", args: { orderId: "42", amount: 10 } }] }, { content: "Refunded." });
    } else if (scenario === "poll") {
      const poll = { toolCalls: [{ name: "get_order_status", args: { orderId: "7" } }] };
      fake.enqueue(poll, poll, poll, { content: "Order 7 has shipped." });
    } else {
      fake.enqueue({ toolCalls: [{ name: "charge_card", args: { orderId: "42" } }] }, { content: "The card was declined." });
    }
  }

  /** Records one scenario in this process (record_or_replay), as a test of its own. */
  function record(fake: FakeProvider, dir: string, sideFile: string, scenario: Scenario): Promise<Report> {
    script(fake, scenario);
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    return asOwnTest(`record ${scenario}`, () => runScenario(scenario, vcr, fake.openaiBaseURL, sideFile));
  }

  /** Replays steps in ONE new process (replay_only from env), against the still-running fake so any request is counted. */
  function replayInChild(fake: FakeProvider, dir: string, sideFile: string, steps: Step[]): StepResult[] {
    const child = spawnSync(process.execPath, ["-r", "ts-node/register/transpile-only", __filename], {
      cwd: path.join(__dirname, "../.."),
      env: {
        ...process.env,
        TS_NODE_TRANSPILE_ONLY: "true",
        VCR_TOOLS_CHILD: "1",
        LANGCHAIN_VCR_MODE: "replay_only",
        LANGCHAIN_VCR_TOOL_MODE: "",
        FIXTURE_DIR: dir,
        STEPS: JSON.stringify(steps),
        BASE_URL: fake.openaiBaseURL,
        SIDE_FILE: sideFile,
      },
      encoding: "utf8",
      timeout: 45000,
    });
    expect(child.status, `child stderr: ${child.stderr}`).to.equal(0);
    return JSON.parse(child.stdout.trim().split("\n").pop()!);
  }

  function ok(r: StepResult): Report & { stats: Record<string, number>; sideLines: number } {
    if ("error" in r) throw new Error(`child step failed: ${r.error.name}: ${r.error.message}`);
    return r;
  }

  describe("tools under createAgent (real ChatOpenAI, loopback fake)", function () {
    this.timeout(60000);

    describe("recorded once here, replayed in a new process (replay_only)", () => {
      let fake: FakeProvider;
      let dir: string;
      let sideFile: string;
      const rec = {} as Record<Scenario, Report>;
      let recordRequests: number;
      let childRequests: number;
      let sideAfterRecording: number;
      let child: StepResult[];
      before(async () => {
        fake = await startFakeProvider();
        dir = tmpDir("vcr-tools-agent-");
        sideFile = path.join(tmpDir("vcr-tools-side-"), "side-effects.log");
        for (const s of ["refund", "poll", "error"] as const) rec[s] = await record(fake, dir, sideFile, s);
        recordRequests = fake.count();
        sideAfterRecording = countLines(sideFile);
        child = replayInChild(fake, dir, sideFile, [
          { scenario: "refund" },
          { scenario: "poll" },
          { scenario: "error" },
          { scenario: "refund", toolMode: "execute" },
        ]);
        childRequests = fake.count() - recordRequests;
      });
      after(async () => {
        await fake.close();
        removeTmpDirs();
      });

      it("the recording run runs each tool body once and writes chat + tool fixtures", () => {
        expect(rec.refund.answer).to.equal("Refunded.");
        expect(rec.refund.runs).to.deep.equal({ issue_refund: 1, get_order_status: 0, charge_card: 0 });
        expect(recordRequests).to.equal(2 + 4 + 2);
        expect(sideAfterRecording).to.equal(1);
        const fx = readFixtures(dir);
        expect(fx.filter((f) => f.kind === "chat")).to.have.length(8);
        const refund = fx.find((f) => f.kind === "tool" && f.request.tool === "issue_refund");
        expect(refund.request).to.deep.equal({ tool: "issue_refund", args: { amount: 10, orderId: "42" } });
        expect(refund.response).to.deep.equal({ result: "Refund of $10 issued for order 42." });
      });

      it("the new process makes 0 HTTP requests and runs 0 tool bodies, with the identical final answer", () => {
        const r = ok(child[0]);
        expect(childRequests, "HTTP requests from the child (all four runs)").to.equal(0);
        expect(r.runs).to.deep.equal({ issue_refund: 0, get_order_status: 0, charge_card: 0 });
        expect(r.answer).to.equal(rec.refund.answer);
        expect(r.toolMessages).to.deep.equal(rec.refund.toolMessages);
        expect(r.toolMessages.map((m) => m.tool_call_id)).to.deep.equal(r.callIds);
        expect(r.stats).to.deep.equal({ replayed: 3, recorded: 0, bypassed: 0, missed: 0 });
      });

      it("the side-effect file proves replay never fired the refund (line count unchanged)", () => {
        expect(ok(child[0]).sideLines).to.equal(sideAfterRecording).and.to.equal(1);
      });

      it("a polling tool (same args, different results) replays its results in recorded order", () => {
        expect(rec.poll.runs.get_order_status).to.equal(3);
        const statuses = (r: Report) => r.toolMessages.map((m) => JSON.parse(m.content as string).status);
        expect(statuses(rec.poll)).to.deep.equal(["processing", "processing", "shipped"]);
        const calls = readFixtures(dir)
          .filter((f) => f.request.tool === "get_order_status")
          .map((f) => f.request.call ?? 1);
        expect(calls.sort()).to.deep.equal([1, 2, 3]);
        const r = ok(child[1]);
        expect(r.runs.get_order_status).to.equal(0);
        expect(r.toolMessages).to.deep.equal(rec.poll.toolMessages);
        expect(r.answer).to.equal("Order 7 has shipped.");
      });

      it("a tool that throws: the agent sees the same error ToolMessage on replay; the body never runs", () => {
        expect(rec.error.runs.charge_card).to.equal(1);
        expect(rec.error.toolMessages).to.have.length(1);
        expect(rec.error.toolMessages[0]).to.include({ status: "error", content: "PaymentError: card declined for order 42\n Please fix your mistakes." });
        const fx = readFixtures(dir).find((f) => f.request.tool === "charge_card");
        expect(fx.response).to.deep.equal({ error: { name: "PaymentError", message: "card declined for order 42" } });
        const r = ok(child[2]);
        expect(r.runs.charge_card).to.equal(0);
        expect(r.toolMessages).to.deep.equal(rec.error.toolMessages);
        expect(r.answer).to.equal("The card was declined.");
      });

      it("toolMode execute in the new process runs the body (one more side-effect line) while the model replays", () => {
        const r = ok(child[3]);
        expect(r.runs.issue_refund).to.equal(1);
        expect(r.sideLines).to.equal(2);
        expect(r.answer).to.equal(rec.refund.answer);
        expect(r.stats).to.deep.equal({ replayed: 2, recorded: 0, bypassed: 1, missed: 0 }); // replay_only never writes
      });
    });

    describe("in-process", () => {
      let fake: FakeProvider;
      let dir: string;
      let sideFile: string;
      beforeEach(async () => {
        fake = await startFakeProvider();
        dir = tmpDir("vcr-tools-agent-");
        sideFile = path.join(tmpDir("vcr-tools-side-"), "side-effects.log");
      });
      afterEach(async () => {
        await fake.close();
        removeTmpDirs();
      });

      it("a second recording run hits every chat and tool fixture (0 requests, 0 bodies, nothing new)", async () => {
        const first = await record(fake, dir, sideFile, "refund");
        const files = fixtureFiles(dir);
        const before = fake.count();
        const second = await record(fake, dir, sideFile, "refund"); // record_or_replay again, as another test
        expect(fake.count() - before).to.equal(0);
        expect(second.runs.issue_refund).to.equal(0);
        expect(second.answer).to.equal(first.answer);
        expect(second.toolMessages).to.deep.equal(first.toolMessages);
        expect(fixtureFiles(dir)).to.deep.equal(files);
        expect(countLines(sideFile)).to.equal(1);
      });

      it("toolMode execute (withVcr): the body runs on every run while the model replays", async () => {
        const rec = await record(fake, dir, sideFile, "refund");
        const before = fake.count();
        const vcr = new Vcr({ dir, mode: "replay_only" });
        for (let i = 0; i < 2; i++) {
          const r = await asOwnTest(`execute ${i}`, () => withVcr({ toolMode: "execute" }, () => runScenario("refund", vcr, fake.openaiBaseURL, sideFile)));
          expect(r.runs.issue_refund).to.equal(1);
          expect(r.answer).to.equal(rec.answer);
        }
        expect(fake.count() - before).to.equal(0);
        expect(countLines(sideFile), "1 recording + 2 executes").to.equal(3);
      });

      it("the replayed ToolMessage carries the CURRENT call id, not the recorded one", async () => {
        const rec = await record(fake, dir, sideFile, "refund");
        expect(rec.callIds).to.deep.equal(["call_fake_1"]);
        // Chat recorded afresh (new dir) through a fake whose ids have moved on; tools replayed from `dir`.
        fake.enqueue({ toolCalls: [{ name: "warm_up", args: {} }] });
        await new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key", maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } }).invoke(
          "mint call_fake_2",
        );
        script(fake, "refund");
        const chatVcr = new Vcr({ dir: tmpDir("vcr-tools-chat-"), mode: "record_or_replay" });
        const toolVcr = new Vcr({ dir, mode: "replay_only" });
        const r = await asOwnTest("replay with current ids", () => runScenario("refund", chatVcr, fake.openaiBaseURL, sideFile, toolVcr));
        expect(r.runs.issue_refund).to.equal(0);
        expect(r.callIds).to.deep.equal(["call_fake_3"]);
        expect(r.toolMessages.map((m) => m.tool_call_id)).to.deep.equal(["call_fake_3"]);
        expect(r.toolMessages.map((m) => m.content)).to.deep.equal(rec.toolMessages.map((m) => m.content));
        expect(toolVcr.stats()).to.deep.equal({ replayed: 1, recorded: 0, bypassed: 0, missed: 0 });
      });

      it("replay_only with an unrecorded tool result: VcrMissError, and the body counter stays 0", async () => {
        await record(fake, dir, sideFile, "refund");
        const toolFx = readFixtures(dir).find((f) => f.kind === "tool");
        fs.rmSync(path.join(dir, `${toolFx.hash}.json`));
        const vcr = new Vcr({ dir, mode: "replay_only" });
        const before = fake.count();
        let runs: Runs | undefined;
        const err = await asOwnTest("unrecorded tool", async () => {
          const built = buildAgent(vcr, fake.openaiBaseURL, sideFile);
          runs = built.runs;
          return built.agent.invoke({ messages: [{ role: "user", content: PROMPTS.refund }] });
        }).catch((e) => e);
        expect(err).to.be.instanceOf(VcrMissError);
        // createAgent's ToolNode turns the tool's miss into an error ToolMessage; the next model turn,
        // which carries it, throws the tool's miss itself (not a chat miss whose difference is its text)
        expect(err.kind).to.equal("tool");
        expect(err.message).to.include('no recorded fixture for this tool request from tool "issue_refund"');
        expect(err.message).to.include("its caller passed it on to the model as a message");
        expect(runs!.issue_refund).to.equal(0);
        expect(fake.count() - before).to.equal(0);
        expect(countLines(sideFile)).to.equal(1);
        expect(vcr.stats().missed, "the tool's miss only").to.equal(1);
      });

      it("a tool result refused as a secret under createAgent fails the run with that error: the model is not called with it, nothing holds it", async () => {
        const vcr = new Vcr({ dir, mode: "record_or_replay" });
        let runs = 0;
        const leaky = tool(
          async () => {
            runs++;
            return "token ghp_abcdefghijklmnopqrstuvwxyz0123456789AB";
          },
          { name: "read_config", description: "Read the config.", schema: z.object({}) },
        );
        const model = agentModel(vcr.cache, fake.openaiBaseURL);
        const agent = createAgent({ model, tools: vcr.tools([leaky]) });
        fake.enqueue({ toolCalls: [{ name: "read_config", args: {} }] }, { content: "Done." });
        const err = await asOwnTest("leaky tool", () => agent.invoke({ messages: [{ role: "user", content: "Read the config." }] })).catch((e) => e);
        expect(err).to.be.instanceOf(VcrSecretError);
        expect(err.message).to.include("its caller passed it on to the model as a message");
        expect(runs).to.equal(1);
        expect(fake.count(), "the first model turn only: the second, carrying the error, was never sent").to.equal(1);
        const fixtures = readFixtures(dir);
        expect(fixtures.map((f) => f.kind)).to.deep.equal(["chat"]);
        expect(JSON.stringify(fixtures)).not.to.include("refused to write");
      });

      it("wrapping tools never changes a chat fixture's hash", async () => {
        script(fake, "refund");
        const plainDir = tmpDir("vcr-tools-plain-");
        const plain = new Vcr({ dir: plainDir, mode: "record_or_replay" });
        const { tools } = buildTools(sideFile);
        const model = agentModel(plain.cache, fake.openaiBaseURL);
        await createAgent({ model, tools }).invoke({ messages: [{ role: "user", content: PROMPTS.refund }] });
        await record(fake, dir, sideFile, "refund");
        const chat = (d: string) =>
          readFixtures(d)
            .filter((f) => f.kind === "chat")
            .sort((a, b) => a.request.messages.length - b.request.messages.length);
        expect(chat(dir)).to.have.length(2);
        for (const [a, b] of chat(plainDir).map((f, i) => [f, chat(dir)[i]])) {
          expect(diffValues(a.request, b.request)).to.deep.equal([]);
          expect(b.hash).to.equal(a.hash);
        }
      });
    });
  });
}
