/**
 * createAgent with toolRetryMiddleware({ retryOn: [ErrorClass] }): a tool's recorded error replays
 * as an Error with its name, not an instance of the app's class, so a retry policy testing
 * instanceof retries the real error and not the replayed one. The recording passes, every replay
 * misses, and recording again cannot help (user trial 55 M1). The miss says so and gives the fix
 * (branch on the name), with which the recorded fixtures replay as they are; a recording run that takes the other
 * path says so (recheck 63 N2). A tool message that is an error for another reason (a body that throws now, run under
 * toolMode execute) gets the usual advice: recording again is the fix there (recheck 63 N1).
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { tool } from "@langchain/core/tools";
import { createAgent, toolRetryMiddleware } from "langchain";
import { z } from "zod";
import { Vcr, VcrMissError, withVcr, type VcrMode } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { inOwnTest } from "../helpers/ownTest";
import { stderrOf } from "../helpers/notes";
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
  const run = (mode: VcrMode, retryOn: RetryOn, into = dir, execute = false) =>
    inOwnTest(
      {},
      async () => {
        const vcr = new Vcr({ dir: into, mode });
        const agent = createAgent({
          model: openai(fake, vcr.cache),
          tools: vcr.tools([flaky]),
          middleware: [toolRetryMiddleware({ maxRetries: 2, initialDelayMs: 1, jitter: false, retryOn })],
        });
        const ask = () => agent.invoke({ messages: [{ role: "user", content: "Weather in Oslo?" }] });
        const { messages } = execute ? await withVcr({ toolMode: "execute" }, ask) : await ask();
        return String(messages[messages.length - 1]!.content);
      },
      "retries a flaky tool",
    );

  /** Records the flaky tool's run (the error, the retry, the answer) as an earlier run would have: into another directory, copied (this process never met the copies). */
  async function recordedEarlier(): Promise<void> {
    fake.enqueue({ toolCalls: [{ name: "get_weather", args: { city: "Oslo" } }] });
    fake.enqueue({ content: "It is sunny in Oslo." });
    const earlier = tmpDir();
    expect(await run("record_or_replay", [TransientError], earlier)).to.equal("It is sunny in Oslo.");
    for (const f of fixtureFiles(earlier)) fs.copyFileSync(path.join(earlier, f), path.join(dir, f));
    fromAnEarlierRun(dir);
    expect([fake.count(), bodyRuns, fixtureFiles(dir).length]).to.deep.equal([2, 2, 4]); // 2 chat turns, the tool's 2 calls
  }
  const missOf = async (p: Promise<unknown>): Promise<string> => {
    const thrown = await p.then(
      () => expect.fail("replayed"),
      (e: unknown) => e,
    );
    const error = (thrown as { cause?: unknown }).cause instanceof VcrMissError ? (thrown as { cause: VcrMissError }).cause : thrown;
    expect(error).to.be.instanceOf(VcrMissError);
    return (error as Error).message;
  };

  it("records green; the replay misses with the hint naming the replayed error and instanceof, and no 'record it'; retryOn by name replays the same fixtures (0 requests, 0 tool runs)", async () => {
    await recordedEarlier();
    const message = await missOf(run("replay_only", [TransientError]));
    expect(message).to.match(/messages\[2\]\.status: \(absent\) → "error"/);
    expect(message).to.include(
      "hint: a tool that answered when this was recorded answered with an error in this run, quoting the TransientError a tool fixture of this test replayed.",
    );
    expect(message).to.include(`Branch on the name (retryOn: (e) => e.name === "TransientError"; docs/tools-and-agents.md)`);
    expect(message).to.include("Recording it again will not help while the app tells that tool error apart with instanceof").and.not.include("To record it");
    expect([fake.count(), bodyRuns]).to.deep.equal([2, 2]);
    expect(await run("replay_only", (e) => e.name === "TransientError")).to.equal("It is sunny in Oslo.");
    expect([fake.count(), bodyRuns, fixtureFiles(dir).length]).to.deep.equal([2, 2, 4]);
  });

  it("a recording run that takes the other path records it with a note saying why and what to delete (recheck 63 N2)", async () => {
    await recordedEarlier();
    fake.enqueue({ content: "The weather tool failed." });
    const saved = process.env.LANGCHAIN_VCR_QUIET; // the suite silences notes
    delete process.env.LANGCHAIN_VCR_QUIET;
    let answer: string | undefined;
    const stderr = await stderrOf(async () => (answer = await run("record_or_replay", [TransientError]))).finally(() => {
      if (saved !== undefined) process.env.LANGCHAIN_VCR_QUIET = saved;
    });
    expect(answer).to.equal("The weather tool failed.");
    expect([fake.count(), bodyRuns, fixtureFiles(dir).length]).to.deep.equal([3, 2, 5]); // the other path's turn, recorded
    expect(stderr).to.match(/recorded a new chat fixture \S+\.json\n {2}test: {5}retries a flaky tool\n {2}the nearest recorded one \S+\.json differs at:/);
    expect(stderr).to.include("quoting the TransientError a tool fixture of this test replayed");
    expect(stderr).to.include("The new fixture records that other path: once the code branches on the name");
  });

  it("a tool message that is an error for another reason (the body throws now, under toolMode execute) gets the usual advice: record it (recheck 63 N1)", async () => {
    await recordedEarlier();
    bodyRuns = 0; // the body's first call throws again, and retryOn by name retries nothing else: it is the body's own error now
    const message = await missOf(run("replay_only", (e) => e.name === "NoSuchError", dir, true));
    expect(message).to.match(/messages\[2\]\.status: \(absent\) → "error"/);
    expect(message).to.not.include("a tool fixture of this test replayed");
    expect(message).to.include("To record it, run the test");
    expect([fake.count(), bodyRuns]).to.deep.equal([2, 1]);
  });
});
