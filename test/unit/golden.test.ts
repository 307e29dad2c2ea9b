/**
 * Compatibility pins. These hashes and this file are what users' committed fixtures depend
 * on: if a test here fails, a change altered the canonical form or the fixture format and
 * would invalidate every user's cassettes. That is a versioned, documented decision
 * (bump SCHEMA_VERSION, write a migration note) — never a golden value to just update.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { AIMessage, HumanMessage, SystemMessage, ToolMessage } from "@langchain/core/messages";
import { tool } from "langchain";
import { z } from "zod";
import { canonicalJson, requestHash, sha256Hex } from "../../src/canonical/json";
import { SCHEMA_VERSION } from "../../src/store/fixture";
import { formatFixture } from "../../src/store/format";
import { storeGenerations } from "../../src/adapters/chat/generations";
import { Vcr } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { ollama, openai } from "../helpers/models";
import { fixtureFiles, readFixtures } from "../helpers/tmp";

const GOLDEN = path.join(__dirname, "../golden");

describe("golden: canonical serialization and hashes", () => {
  it("canonicalJson sorts keys, drops undefined, keeps array order", () => {
    expect(canonicalJson({ b: 1, a: [3, undefined, { d: undefined, c: "x" }], e: undefined })).to.equal('{"a":[3,null,{"c":"x"}],"b":1}');
    // array-index keys first, in numeric order, as JavaScript lists an object's keys
    expect(canonicalJson({ 10: 1, 9: 2, b: 3, a: 4, "01": 5 })).to.equal('{"9":2,"10":1,"01":5,"a":4,"b":3}');
  });

  it("schema version 1 (0.1.0): requestHash is sha256 of the canonical { kind, request }", () => {
    expect(requestHash("chat", { model: "m", messages: [{ role: "user", content: "hi" }] }, 1)).to.equal(
      "c2a62fb006018daecec317316c5d8408eb8b85577bad3f463b00815de4fa3e0a",
    );
  });

  it("schema version 2: requestHash is sha256 of the canonical { kind, request, version: 2 }", () => {
    expect(SCHEMA_VERSION).to.equal(2);
    const request = { model: "m", messages: [{ role: "user", content: "hi" }] };
    expect(requestHash("chat", request)).to.equal(sha256Hex('{"kind":"chat","request":{"messages":[{"content":"hi","role":"user"}],"model":"m"},"version":2}'));
    expect(requestHash("chat", request)).to.equal("41288cbd299016824376bfc17bc1e6ea51270dcbf6deed64769d1b91fc11c372");
  });
});

describe("golden: hashes of real requests", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));
  const only = () => {
    const files = fixtureFiles(dir);
    expect(files).to.have.length(1);
    return files[0].replace(/\.json$/, "");
  };

  it("a plain question through ChatOpenAI and through ChatOllama", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    await openai(fake, vcr.cache, { model: "llama3.2", temperature: 0 }).invoke([
      new SystemMessage("Be brief."),
      new HumanMessage("What is the capital of France?"),
    ]);
    await ollama(fake, vcr.cache, { model: "llama3.2", temperature: 0 }).invoke([
      new SystemMessage("Be brief."),
      new HumanMessage("What is the capital of France?"),
    ]);
    // one request, so one key; ChatOpenAI's answer names its provider ("openai"), so ChatOllama's records beside it with
    // provider: "ollama" added (adapters/chat/answeredBy.ts); the first one's key is the golden hash
    const files = fixtureFiles(dir).map((f) => f.replace(/\.json$/, ""));
    expect(files).to.have.length(2).and.include("ebb7ddfac1ddfcddef645f7f8198854526f82476fd162a188fca893309f91d89");
    const fixtures = readFixtures(dir);
    const first = fixtures.find((f) => f.hash === "ebb7ddfac1ddfcddef645f7f8198854526f82476fd162a188fca893309f91d89")!;
    const ollamas = fixtures.find((f) => f !== first)!;
    expect(ollamas.request).to.deep.equal({ ...first.request, provider: "ollama" });
    // no inert value in this request: its version-1 hash is the 0.1.0 one
    expect(requestHash("chat", first.request, 1)).to.equal("4fa68bd3da262ca8c533ec535ed42d6fb5e9405006634450b7d2a0e3c3bbd80d");
  });

  it("a tool conversation with tools bound", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const lookup = tool(async () => "x", {
      name: "lookup_order",
      description: "Look up an order by id.",
      schema: z.object({ orderId: z.string().describe("The order id") }),
    });
    await openai(fake, vcr.cache, { temperature: 0.2, maxTokens: 100 })
      .bindTools([lookup], { tool_choice: "auto" })
      .invoke([
        new HumanMessage("Where is order 42?"),
        new AIMessage({ content: "", tool_calls: [{ id: "call_live_1", name: "lookup_order", args: { orderId: "42" }, type: "tool_call" }] }),
        new ToolMessage({ content: "shipped", tool_call_id: "call_live_1" }),
      ]);
    // 0.1.0 filed it as 5b61106bc49051012d912e4a5d21412ece6289889514a2d8bef10eb6e3e44938, with zod 4's "$schema" in the key
    expect(only()).to.equal("035d850492e6c5e4e28342c377ac26191354a0566b9704648fdf79f63ec71d35");
    expect(JSON.stringify(readFixtures(dir)[0].request)).to.not.contain("$schema");
  });
});

describe("golden: the fixture file format", () => {
  it("version 1 (0.1.0) fixtures: formatted exactly like test/golden/v1/", () => {
    const request = { model: "gpt-4o-mini", temperature: 0, messages: [{ role: "user", content: "Say hi\nin two lines" }] };
    const fixture = {
      response: {
        generations: [{ text: "hi", message: { type: "ai", content: "hi", usage_metadata: { total_tokens: 3, input_tokens: 2, output_tokens: 1 } } }],
      },
      request,
      recordedAt: "2026-11-30T00:00:00.000Z",
      hash: requestHash("chat", request, 1),
      kind: "chat",
      schemaVersion: 1,
    };
    expect(formatFixture(fixture)).to.equal(fs.readFileSync(path.join(GOLDEN, "v1/chat-fixture.json"), "utf8"));
    const eRequest = { provider: "openai", model: "text-embedding-3-small", input_type: "document", text: "hello" };
    const eFixture = {
      schemaVersion: 1,
      kind: "embedding",
      hash: requestHash("embedding", eRequest, 1),
      recordedAt: "2026-11-30T00:00:00.000Z",
      request: eRequest,
      response: { vector: [0.125, -0.5, 1, 0.1] },
    };
    expect(formatFixture(eFixture)).to.equal(fs.readFileSync(path.join(GOLDEN, "v1/embedding-fixture.json"), "utf8"));
  });

  it("formats a fixture exactly like test/golden/chat-fixture.json", () => {
    const request = { model: "gpt-4o-mini", temperature: 0, messages: [{ role: "user", content: "Say hi\nin two lines" }] };
    const fixture = {
      response: {
        generations: [{ text: "hi", message: { type: "ai", content: "hi", usage_metadata: { total_tokens: 3, input_tokens: 2, output_tokens: 1 } } }],
      },
      request,
      recordedAt: "2026-11-30T00:00:00.000Z",
      hash: requestHash("chat", request),
      kind: "chat",
      schemaVersion: 2,
    };
    expect(formatFixture(fixture)).to.equal(fs.readFileSync(path.join(GOLDEN, "chat-fixture.json"), "utf8"));
  });

  it("formats a chat answer with tool calls exactly like test/golden/chat-toolcalls-fixture.json: the calls and their args in the model's order, the kwargs it had as undefined listed, the fields it was constructed with (shape)", () => {
    const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Refund order 9." }] };
    const message = new AIMessage({
      content: "",
      tool_calls: [{ name: "issue_refund", args: { orderId: "9", amount: 12 }, type: "tool_call", id: "call_1" }],
      additional_kwargs: {
        function_call: undefined,
        tool_calls: [{ id: "call_1", type: "function", function: { name: "issue_refund", arguments: '{"orderId":"9","amount":12}' } }],
      },
      response_metadata: { model_name: "gpt-4o-mini", finish_reason: "tool_calls" },
    });
    const fixture = {
      schemaVersion: 2,
      kind: "chat",
      hash: requestHash("chat", request),
      recordedAt: "2026-12-05T00:00:00.000Z",
      request,
      response: storeGenerations([{ text: "", message: message as never }]),
    };
    expect(formatFixture(fixture)).to.equal(fs.readFileSync(path.join(GOLDEN, "chat-toolcalls-fixture.json"), "utf8"));
  });

  it("formats a ChatOpenAI answer exactly like test/golden/chat-shape-fixture.json: its shape names the fields it was constructed with, the metadata they held before core merged the call's in, and the members it had as undefined", () => {
    const request = { model: "gpt-4o-mini", messages: [{ role: "user", content: "Say hi." }] };
    // as @langchain/openai 1.x builds a chat-completions answer, with the token details it leaves undefined
    const message = new AIMessage({
      id: "chatcmpl-1",
      name: undefined,
      content: "hi",
      additional_kwargs: { function_call: undefined, tool_calls: undefined },
      response_metadata: { model_provider: "openai", model_name: "gpt-4o-mini" },
      type: "ai",
      tool_calls: [],
      invalid_tool_calls: [],
      usage_metadata: { input_tokens: 2, output_tokens: 1, total_tokens: 3, input_token_details: { audio: undefined, cache_read: undefined } },
    } as ConstructorParameters<typeof AIMessage>[0] & object);
    const generationInfo = { finish_reason: "stop", service_tier: undefined };
    message.response_metadata = { ...generationInfo, ...message.response_metadata }; // as core's generate() merges it
    const fixture = {
      schemaVersion: 2,
      kind: "chat",
      hash: requestHash("chat", request),
      recordedAt: "2026-12-06T00:00:00.000Z",
      request,
      response: storeGenerations([{ text: "hi", message: message as never, generationInfo }]),
    };
    expect(formatFixture(fixture)).to.equal(fs.readFileSync(path.join(GOLDEN, "chat-shape-fixture.json"), "utf8"));
  });

  it("puts a vector on one line", () => {
    const request = { provider: "openai", model: "text-embedding-3-small", input_type: "document", text: "hello" };
    const fixture = {
      schemaVersion: 2,
      kind: "embedding",
      hash: requestHash("embedding", request),
      recordedAt: "2026-11-30T00:00:00.000Z",
      request,
      response: { vector: [0.125, -0.5, 1, 0.1] },
    };
    expect(formatFixture(fixture)).to.equal(fs.readFileSync(path.join(GOLDEN, "embedding-fixture.json"), "utf8"));
  });
});
