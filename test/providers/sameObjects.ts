/**
 * Every provider: a replayed answer is the live one object for object (vitest's toEqual and
 * toStrictEqual, a snapshot, chai's deep.equal), invoked and streamed, with text and with a
 * tool call. The live answer is the client's with no cache, from a fake of its own in the same
 * state; where the client makes its tool calls' ids at random (`randomToolCallIds`), no two
 * live answers are equal, and the replay is held to the one it recorded.
 */
import { expect } from "chai";
import type { BaseMessage } from "@langchain/core/messages";
import { concat } from "@langchain/core/utils/stream";
import { Vcr } from "../../src/index";
import { expectSameObjects, expectSameStream, type Streamed } from "../helpers/sameObjects";
import { removeTmpDirs, tmpDir } from "../helpers/tmp";
import type { Fake, Reply } from "./fakes/base";
import { WEATHER } from "./ops";
import type { ProviderSpec } from "./spec";

/** A way to call the model, and how its answer is compared: a message, or a stream's chunks and their concatenation. */
interface Call {
  run(spec: ProviderSpec, fake: Fake, cache: unknown): Promise<unknown>;
  expectSame(replayed: unknown, live: unknown): void;
}

const model = (spec: ProviderSpec, fake: Fake, cache: unknown, tools: boolean) => {
  const chat = spec.chat(fake.url, cache);
  return tools ? chat.bindTools!([WEATHER]) : chat;
};
const QUESTION = "Weather in Paris, or a hello?";
const invoke = (tools: boolean): Call => ({
  run: (spec, fake, cache) => model(spec, fake, cache, tools).invoke(QUESTION),
  expectSame: (replayed, live) => expectSameObjects(replayed, live, "the message"),
});
const stream = (tools: boolean): Call => ({
  async run(spec, fake, cache) {
    const chunks: BaseMessage[] = [];
    for await (const c of await model(spec, fake, cache, tools).stream(QUESTION)) chunks.push(c);
    return { chunks, aggregate: chunks.reduce((a, b) => concat(a as never, b as never)) };
  },
  expectSame: (replayed, live) => expectSameStream(replayed as Streamed, live as Streamed, "the stream"),
});

const TEXT: Reply = { text: "Hello from the fake provider." };
const TOOL: Reply = { toolCalls: [{ name: "get_weather", args: { city: "Paris" } }] };
const CASES: [string, Reply, Call, boolean][] = [
  ["invoke(), a text answer", TEXT, invoke(false), false],
  ["invoke(), a tool call", TOOL, invoke(true), true],
  ["stream(), a text answer: each chunk and the aggregate", TEXT, stream(false), false],
  ["stream(), a tool call: each chunk and the aggregate", TOOL, stream(true), true],
];

export function describeSameObjects(spec: ProviderSpec): void {
  describe("a replayed answer is the live one, object for object (toEqual, toStrictEqual, snapshot, deep.equal)", function () {
    this.timeout(20000);
    after(() => removeTmpDirs());
    for (const [name, reply, call, tools] of CASES) {
      it(`${name}: 0 requests on replay`, async () => {
        const own = await spec.start();
        const fake = await spec.start();
        try {
          own.enqueue(reply);
          const live = await call.run(spec, own, undefined);
          const dir = tmpDir(`vcr-${spec.name}-`);
          fake.enqueue(reply);
          const recorded = await call.run(spec, fake, new Vcr({ dir, mode: "record_or_replay" }).cache);
          const replayed = await call.run(spec, fake, new Vcr({ dir, mode: "replay_only" }).cache);
          expect(fake.count(), "0 requests on replay").to.equal(1);
          call.expectSame(replayed, tools && spec.randomToolCallIds ? recorded : live);
        } finally {
          await own.close();
          await fake.close();
        }
      });
    }
  });
}
