/**
 * A replayed message's tool calls keep the key order the live ones had (the objects and their
 * args): code that writes a conversation out as text — core's `getBufferString`, which
 * createAgent's summarization middleware puts in its prompt; `JSON.stringify(args)` in the tool
 * emulator and in a human-in-the-loop description — must build the same text on replay, or the
 * next request misses. Before, fixtures sorted them, and a summarized conversation missed under
 * replay_only after a clean recording. For the same reason the members a message's
 * additional_kwargs had as undefined come back (`undefined_kwargs`).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import { tool } from "@langchain/core/tools";
import { getBufferString, type AIMessage, type BaseMessage } from "@langchain/core/messages";
import { concat } from "@langchain/core/utils/stream";
import { z } from "zod";
import { Vcr } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { ollama, openai } from "../helpers/models";

const refund = tool(async () => "done", {
  name: "issue_refund",
  description: "Refund an order",
  schema: z.object({ orderId: z.string(), amount: z.number() }),
});
/** Arguments whose keys are not in sorted order, as a model gives them. */
const ARGS = { orderId: "9", amount: 12, currency: "EUR" };

/** Dates every file in `dir` an hour back, as a committed fixture is. */
function datedBack(dir: string): void {
  const then = new Date(Date.now() - 3600_000);
  for (const f of fs.readdirSync(dir)) fs.utimesSync(`${dir}/${f}`, then, then);
}

/** What order-sensitive code sees of a message's tool calls. */
const asText = (m: BaseMessage) => ({ buffer: getBufferString([m]), args: (m as AIMessage).tool_calls!.map((c) => JSON.stringify(c.args)) });

describe("replayed tool calls keep the key order of the live ones", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));
  const replaying = () => new Vcr({ dir, mode: "replay_only" });

  for (const api of ["chat completions", "the Responses API"] as const) {
    it(`ChatOpenAI over ${api}: getBufferString and JSON.stringify(args) give the live text on the first replay and on later ones (kept)`, async () => {
      const fields = api === "the Responses API" ? { useResponsesApi: true } : {};
      fake.enqueue({ toolCalls: [{ name: "issue_refund", args: ARGS }] });
      const live = await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache, fields)
        .bindTools([refund])
        .invoke("Refund order 9.");
      expect(asText(live).args).to.deep.equal([JSON.stringify(ARGS)]);
      datedBack(dir); // a committed fixture: kept from its second replay on (store/parsedCache.ts)
      const model = openai(fake, replaying().cache, fields).bindTools([refund]);
      for (let i = 0; i < 3; i++) expect(asText(await model.invoke("Refund order 9."))).to.deep.equal(asText(live));
      expect(fake.count()).to.equal(1);
    });
  }

  it('a plain ChatOpenAI answer: the additional_kwargs members it had as undefined come back (getBufferString writes them: "…undefined"), on the first replay and on kept ones', async () => {
    const live = await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache).invoke("Say hi.");
    const liveText = getBufferString([live]);
    expect(liveText).to.match(/undefined$/); // core's own quirk: "function_call" in additional_kwargs, with no value
    const [file] = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));
    expect(JSON.parse(fs.readFileSync(`${dir}/${file}`, "utf8")).response.generations[0].message.undefined_kwargs).to.deep.equal([
      "function_call",
      "tool_calls",
    ]);
    datedBack(dir);
    const model = openai(fake, replaying().cache);
    for (let i = 0; i < 3; i++) {
      const replay = await model.invoke("Say hi.");
      expect(getBufferString([replay])).to.equal(liveText);
      expect(Object.keys(replay.additional_kwargs).sort()).to.deep.equal(Object.keys(live.additional_kwargs).sort());
    }
    expect(fake.count()).to.equal(1);
  });

  it("ChatOllama streaming whole tool calls in its chunks: the concatenated message's tool calls as live", async () => {
    fake.enqueue({ toolCalls: [{ name: "issue_refund", args: ARGS }] });
    const collect = async (vcr: Vcr) => {
      let all: AIMessage | undefined;
      for await (const chunk of await ollama(fake, vcr.cache).bindTools([refund]).stream("Refund order 9.")) all = all ? concat(all, chunk) : chunk;
      return all!;
    };
    const live = await collect(new Vcr({ dir, mode: "record_or_replay" }));
    expect(asText(live).args).to.deep.equal([JSON.stringify(ARGS)]);
    expect(asText(await collect(replaying()))).to.deep.equal(asText(live));
    expect(fake.count()).to.equal(1);
  });

  it("the file keeps that order only inside tool_calls: every other object's keys are sorted, as before", async () => {
    fake.enqueue({ toolCalls: [{ name: "issue_refund", args: ARGS }] });
    await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache)
      .bindTools([refund])
      .invoke("Refund order 9.");
    const [file] = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));
    const text = fs.readFileSync(`${dir}/${file}`, "utf8");
    const call = JSON.parse(text).response.generations[0].message.tool_calls[0];
    expect(Object.keys(call)).to.deep.equal(["name", "args", "type", "id"]); // as @langchain/openai makes it
    expect(Object.keys(call.args)).to.deep.equal(["orderId", "amount", "currency"]);
    const message = JSON.parse(text).response.generations[0].message;
    expect(Object.keys(message)).to.deep.equal([...Object.keys(message)].sort());
    expect(Object.keys(message.response_metadata)).to.deep.equal([...Object.keys(message.response_metadata)].sort());
  });

  it("a fixture written with sorted tool calls (0.2.0 and earlier) still replays, sorted", async () => {
    fake.enqueue({ toolCalls: [{ name: "issue_refund", args: ARGS }] });
    const live = await openai(fake, new Vcr({ dir, mode: "record_or_replay" }).cache)
      .bindTools([refund])
      .invoke("Refund order 9.");
    const [file] = fs.readdirSync(dir).filter((f) => f.endsWith(".json"));
    const path = `${dir}/${file}`;
    const fixture = JSON.parse(fs.readFileSync(path, "utf8"));
    const message = fixture.response.generations[0].message;
    message.tool_calls = message.tool_calls.map((c: Record<string, unknown>) => ({
      args: { amount: 12, currency: "EUR", orderId: "9" },
      id: c.id,
      name: c.name,
      type: c.type,
    }));
    fs.writeFileSync(path, JSON.stringify(fixture, null, 2) + "\n");
    const replay = (await openai(fake, replaying().cache).bindTools([refund]).invoke("Refund order 9.")) as AIMessage;
    expect(replay.tool_calls).to.deep.equal(live.tool_calls);
    expect(JSON.stringify(replay.tool_calls![0].args)).to.equal(`{"amount":12,"currency":"EUR","orderId":"9"}`);
  });
});
