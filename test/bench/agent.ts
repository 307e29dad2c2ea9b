/**
 * Section 2 — agent replay: a two-turn `createAgent` (model → tool → model) with one tool
 * wrapped by `vcr.tools`, replayed from fixtures, against the same agent live on the
 * loopback fake (the tool body runs, two HTTP requests per run). Each run is a
 * test of its own (inOwnTest), as each mocha test is: repeated tool calls replay in recorded order per test.
 */
import { createAgent, tool } from "langchain";
import { z } from "zod";
import { Vcr } from "../../src/index";
import { inOwnTest } from "../helpers/ownTest";
import { startFakeProvider, type FakeProvider } from "../helpers/fakeProvider";
import { chatModel, expectRequests, tmpDir } from "./env";
import { compare, type Measured } from "./harness";

const QUESTION = "Where is order 42?";

export async function benchAgent(opts: { rounds: number; warmup: number }): Promise<Measured[]> {
  const fake = await startFakeProvider();
  try {
    let bodyRuns = 0;
    const getOrder = tool(
      async ({ orderId }: { orderId: string }) => {
        bodyRuns++;
        return `order ${orderId} shipped on 2024-01-02`;
      },
      { name: "get_order", description: "Look up an order's shipping status", schema: z.object({ orderId: z.string() }) },
    );
    const script = (f: FakeProvider) =>
      f.enqueue({ toolCalls: [{ name: "get_order", args: { orderId: "42" } }] }, { content: "Order 42 shipped on 2024-01-02." });

    const vcr = new Vcr({ dir: tmpDir("agent"), mode: "record_or_replay" });
    const replayAgent = createAgent({ model: chatModel(fake, vcr.cache), tools: vcr.tools([getOrder]) });
    const liveAgent = createAgent({ model: chatModel(fake, undefined), tools: [getOrder] });
    const ask = { messages: [{ role: "user", content: QUESTION }] };

    // Record once, then check a replay is complete: no request, no tool body run.
    script(fake);
    const recorded = await inOwnTest({}, () => replayAgent.invoke(ask));
    const answer = lastText(recorded.messages);
    if (fake.count() !== 2 || bodyRuns !== 1) throw new Error(`bench: agent recording made ${fake.count()} requests, ${bodyRuns} tool runs`);
    const replayed = await inOwnTest({}, () => replayAgent.invoke(ask));
    if (lastText(replayed.messages) !== answer || fake.count() !== 2 || bodyRuns !== 1) {
      throw new Error(`bench: agent replay is not complete (${fake.count()} requests, ${bodyRuns} tool runs)`);
    }

    let liveRuns = 0;
    const results = await compare(
      [
        { name: "createAgent, 2 model turns + 1 tool, replayed", run: () => inOwnTest({}, () => replayAgent.invoke(ask)), batch: 4 },
        {
          name: "createAgent, same, live on the loopback fake",
          run: async () => {
            liveRuns++;
            script(fake);
            const r = await liveAgent.invoke(ask);
            if (lastText(r.messages) !== answer) throw new Error("bench: live agent answered differently");
          },
          batch: 4,
        },
      ],
      opts,
    );
    expectRequests(fake, 2 + 2 * liveRuns, "agent");
    if (bodyRuns !== 1 + liveRuns) throw new Error(`bench: the wrapped tool body ran during replay (${bodyRuns - 1 - liveRuns} times)`);
    return results;
  } finally {
    await fake.close();
  }
}

function lastText(messages: { content: unknown }[]): unknown {
  return messages[messages.length - 1].content;
}
