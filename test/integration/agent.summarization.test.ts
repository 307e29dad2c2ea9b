/**
 * createAgent with `summarizationMiddleware`, whose summary prompt is the conversation written
 * out as text (core's getBufferString): replayed tool calls must give the live text (their key
 * order, toolCallOrder.test.ts), or the summary's request misses after a clean recording. And
 * when the summary's fixture is missing, the middleware catches the miss and writes it into the
 * conversation: the next model request, which carries it, throws that miss (the one to record),
 * not a miss of its own whose difference is the error's text.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { tool } from "@langchain/core/tools";
import { getBufferString } from "@langchain/core/messages";
import { createAgent, summarizationMiddleware } from "langchain";
import { z } from "zod";
import { Vcr, VcrMissError } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { inOwnTest } from "../helpers/ownTest";
import { readFixtures } from "../helpers/tmp";

describe("createAgent with summarizationMiddleware, recorded and replayed", () => {
  let fake: FakeProvider;
  let dir: string;
  let toolRuns: number;
  useFakeAndDir((f, d) => ((fake = f), (dir = d), (toolRuns = 0)));

  const lookup = tool(async ({ city }) => (toolRuns++, `sunny in ${city}`), {
    name: "get_weather",
    description: "Weather for a city",
    schema: z.object({ city: z.string(), unit: z.string() }),
  });
  const run = async (vcr: Vcr) => {
    const agent = createAgent({
      model: openai(fake, vcr.cache),
      tools: vcr.tools([lookup]),
      middleware: [summarizationMiddleware({ model: openai(fake, vcr.cache), trigger: { messages: 4 }, keep: { messages: 2 } })],
    });
    const { messages } = await agent.invoke({ messages: [{ role: "user", content: "Plan a trip to Oslo and Bergen." }] });
    return messages.map((m) => getBufferString([m]));
  };
  /** Records the run: two tool turns, the summary (before the third turn), the answer. */
  async function record(): Promise<string[]> {
    fake.enqueue({ toolCalls: [{ name: "get_weather", args: { city: "Oslo", unit: "C" } }] });
    fake.enqueue({ toolCalls: [{ name: "get_weather", args: { city: "Bergen", unit: "C" } }] });
    fake.enqueue({ content: "SUMMARY: the weather in Oslo and Bergen was looked up." });
    fake.enqueue({ content: "Pack a light jacket." });
    const recorded = await inOwnTest({}, () => run(new Vcr({ dir, mode: "record_or_replay" })));
    expect([fake.count(), toolRuns]).to.deep.equal([4, 2]);
    expect(recorded.join("\n")).to.include("SUMMARY").and.include("Pack a light jacket.");
    return recorded;
  }

  it("over a conversation with tool calls: recorded (4 requests), then replayed with 0 requests and 0 tool runs (before: the summary's prompt missed)", async () => {
    const recorded = await record();
    expect(await inOwnTest({}, () => run(new Vcr({ dir, mode: "replay_only" })))).to.deep.equal(recorded);
    expect([fake.count(), toolRuns]).to.deep.equal([4, 2]);
  });

  it("the summary's fixture missing: the run throws the summary's own miss, with a note, not the next turn's (0 requests)", async () => {
    await record();
    const summary = readFixtures(dir).find(
      (f) => f.kind === "chat" && JSON.stringify(f.request).includes("SUMMARY") === false && !("tools" in (f.request as object)),
    );
    expect(summary, "the summarizer's fixture (its request has no tools)").to.not.equal(undefined);
    fs.rmSync(path.join(dir, `${summary!.hash}.json`));
    const error = await inOwnTest({}, () => run(new Vcr({ dir, mode: "replay_only" }))).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).to.be.instanceOf(VcrMissError);
    expect((error as VcrMissError).hash).to.equal(summary!.hash);
    expect((error as Error).message).to.include("the code that made this model call caught its miss and passed its text on");
    expect(fake.count()).to.equal(4);
  });
});
