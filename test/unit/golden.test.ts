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
import { canonicalJson, requestHash } from "../../src/canonical/json";
import { formatFixture } from "../../src/store/format";
import { Vcr } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { ollama, openai } from "../helpers/models";
import { fixtureFiles } from "../helpers/tmp";

const GOLDEN = path.join(__dirname, "../golden");

describe("golden: canonical serialization and hashes", () => {
  it("canonicalJson sorts keys, drops undefined, keeps array order", () => {
    expect(canonicalJson({ b: 1, a: [3, undefined, { d: undefined, c: "x" }], e: undefined })).to.equal('{"a":[3,null,{"c":"x"}],"b":1}');
    // array-index keys first, in numeric order, as JavaScript lists an object's keys
    expect(canonicalJson({ 10: 1, 9: 2, b: 3, a: 4, "01": 5 })).to.equal('{"9":2,"10":1,"01":5,"a":4,"b":3}');
  });

  it("requestHash is sha256 of the canonical { kind, request }", () => {
    expect(requestHash("chat", { model: "m", messages: [{ role: "user", content: "hi" }] })).to.equal(
      "c2a62fb006018daecec317316c5d8408eb8b85577bad3f463b00815de4fa3e0a",
    );
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
    await openai(fake, vcr.cache, { model: "llama3.2", temperature: 0 }).invoke([new SystemMessage("Be brief."), new HumanMessage("What is the capital of France?")]);
    await ollama(fake, vcr.cache, { model: "llama3.2", temperature: 0 }).invoke([new SystemMessage("Be brief."), new HumanMessage("What is the capital of France?")]);
    expect(only()).to.equal("4fa68bd3da262ca8c533ec535ed42d6fb5e9405006634450b7d2a0e3c3bbd80d");
  });

  it("a tool conversation with tools bound", async () => {
    const vcr = new Vcr({ dir, mode: "record_or_replay" });
    const lookup = tool(async () => "x", { name: "lookup_order", description: "Look up an order by id.", schema: z.object({ orderId: z.string().describe("The order id") }) });
    await openai(fake, vcr.cache, { temperature: 0.2, maxTokens: 100 })
      .bindTools([lookup], { tool_choice: "auto" })
      .invoke([
        new HumanMessage("Where is order 42?"),
        new AIMessage({ content: "", tool_calls: [{ id: "call_live_1", name: "lookup_order", args: { orderId: "42" }, type: "tool_call" }] }),
        new ToolMessage({ content: "shipped", tool_call_id: "call_live_1" }),
      ]);
    expect(only()).to.equal("5b61106bc49051012d912e4a5d21412ece6289889514a2d8bef10eb6e3e44938");
  });
});

describe("golden: the fixture file format", () => {
  it("formats a fixture exactly like test/golden/chat-fixture.json", () => {
    const request = { model: "gpt-4o-mini", temperature: 0, messages: [{ role: "user", content: "Say hi\nin two lines" }] };
    const fixture = {
      response: { generations: [{ text: "hi", message: { type: "ai", content: "hi", usage_metadata: { total_tokens: 3, input_tokens: 2, output_tokens: 1 } } }] },
      request,
      recordedAt: "2026-11-30T00:00:00.000Z",
      hash: requestHash("chat", request),
      kind: "chat",
      schemaVersion: 1,
    };
    expect(formatFixture(fixture)).to.equal(fs.readFileSync(path.join(GOLDEN, "chat-fixture.json"), "utf8"));
  });

  it("puts a vector on one line", () => {
    const request = { provider: "openai", model: "text-embedding-3-small", input_type: "document", text: "hello" };
    const fixture = { schemaVersion: 1, kind: "embedding", hash: requestHash("embedding", request), recordedAt: "2026-11-30T00:00:00.000Z", request, response: { vector: [0.125, -0.5, 1, 0.1] } };
    expect(formatFixture(fixture)).to.equal(fs.readFileSync(path.join(GOLDEN, "embedding-fixture.json"), "utf8"));
  });
});
