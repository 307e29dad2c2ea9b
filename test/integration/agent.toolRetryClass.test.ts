/**
 * createAgent with toolRetryMiddleware({ retryOn: [ErrorClass] }): a tool's recorded error replays
 * as an Error with its name, not an instance of the app's class, so a retry policy testing
 * instanceof retries the real error and not the replayed one. The recording passes, every replay
 * misses, and recording again cannot help (user trial 55 M1). The miss says so and gives the fix
 * (branch on the name), with which the recorded fixtures replay as they are.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { tool } from "@langchain/core/tools";
import { createAgent, toolRetryMiddleware } from "langchain";
import { z } from "zod";
import { Vcr, VcrMissError, type VcrMode } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { inOwnTest } from "../helpers/ownTest";
import { fixtureFiles, fromAnEarlierRun, tmpDir } from "../helpers/tmp";

type RetryOn = NonNullable<Parameters<typeof toolRetryMiddleware>[0]>["retryOn"];

class TransientError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TransientError";
  }
}

describe("createAgent's toolRetryMiddleware with retryOn an error class, replayed", () => {
  let fake: FakeProvider;
  let dir: string;
  let bodyRuns: number;
  useFakeAndDir((f, d) => ((fake = f), (dir = d), (bodyRuns = 0)));

  /** A tool that fails on its first call and answers on the next. */
  const flaky = tool(
    async ({ city }: { city: string }) => {
      if (++bodyRuns === 1) throw new TransientError("try again");
      return `sunny in ${city}`;
    },
    { name: "get_weather", description: "Weather for a city", schema: z.object({ city: z.string() }) },
  );
  const run = (mode: VcrMode, retryOn: RetryOn, into = dir) =>
    inOwnTest(
      {},
      async () => {
        const vcr = new Vcr({ dir: into, mode });
        const agent = createAgent({
          model: openai(fake, vcr.cache),
          tools: vcr.tools([flaky]),
          middleware: [toolRetryMiddleware({ maxRetries: 2, initialDelayMs: 1, jitter: false, retryOn })],
        });
        const { messages } = await agent.invoke({ messages: [{ role: "user", content: "Weather in Oslo?" }] });
        return String(messages[messages.length - 1]!.content);
      },
      "retries a flaky tool",
    );

  it("records green; the replay misses with the hint naming instanceof and no 'record it'; retryOn by name replays the same fixtures (0 requests, 0 tool runs)", async () => {
    fake.enqueue({ toolCalls: [{ name: "get_weather", args: { city: "Oslo" } }] });
    fake.enqueue({ content: "It is sunny in Oslo." });
    // recorded as an earlier run would have (into another directory, copied: this process never met the copies)
    const earlier = tmpDir();
    expect(await run("record_or_replay", [TransientError], earlier)).to.equal("It is sunny in Oslo.");
    for (const f of fixtureFiles(earlier)) fs.copyFileSync(path.join(earlier, f), path.join(dir, f));
    fromAnEarlierRun(dir);
    expect([fake.count(), bodyRuns, fixtureFiles(dir).length]).to.deep.equal([2, 2, 4]); // 2 chat turns, the tool's 2 calls
    const miss = await run("replay_only", [TransientError]).then(
      () => expect.fail("replayed"),
      (e: unknown) => e,
    );
    const error = (miss as { cause?: unknown }).cause instanceof VcrMissError ? (miss as { cause: VcrMissError }).cause : miss;
    expect(error).to.be.instanceOf(VcrMissError);
    const message = (error as Error).message;
    expect(message).to.match(/messages\[2\]\.status: \(absent\) → "error"/);
    expect(message).to.include("hint: a tool call that answered when this was recorded answered with an error in this run");
    expect(message).to.include(`Branch on the name or a plain field instead (retryOn: (e) => e.name === "MyError")`);
    expect(message).to.include("Recording it again will not help while the app tells that tool error apart with instanceof").and.not.include("To record it");
    expect([fake.count(), bodyRuns]).to.deep.equal([2, 2]);
    expect(await run("replay_only", (e) => e.name === "TransientError")).to.equal("It is sunny in Oslo.");
    expect([fake.count(), bodyRuns, fixtureFiles(dir).length]).to.deep.equal([2, 2, 4]);
  });
});
