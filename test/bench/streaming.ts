/**
 * Section 4 — streaming: a replayed `.stream()` of a recorded `chat_stream` fixture, whole
 * and per chunk, against a plain replayed `invoke` of the same prompt (a `chat` fixture),
 * and a live `.stream()` on the loopback fake for reference. The fake echoes the prompt
 * back one word per SSE chunk, so the chunk count is the prompt's word count plus framing.
 */
import type { AIMessageChunk } from "@langchain/core/messages";
import { Vcr } from "../../src/index";
import { startFakeProvider } from "../helpers/fakeProvider";
import { chatModel, expectRequests, tmpDir } from "./env";
import { compare, type Measured } from "./harness";

const STREAM_PROMPT =
  "Summarise the plot of a short story in which a lighthouse keeper finds a message in a bottle, " +
  "follows its directions across the bay at night, and discovers that the sender was her own grandmother decades ago.";

export interface StreamResult {
  results: Measured[];
  chunks: number;
}

export async function benchStreaming(opts: { rounds: number; warmup: number }): Promise<StreamResult> {
  const fake = await startFakeProvider();
  try {
    const vcr = new Vcr({ dir: tmpDir("stream"), mode: "record_or_replay" });
    const model = chatModel(fake, vcr.cache);
    const live = chatModel(fake, undefined);
    const collect = async (m: typeof model): Promise<{ text: string; chunks: number }> => {
      let text = "";
      let chunks = 0;
      for await (const c of await m.stream(STREAM_PROMPT)) {
        text += (c as AIMessageChunk).content as string;
        chunks++;
      }
      return { text, chunks };
    };
    const recorded = await collect(model);
    const invoked = await model.invoke(STREAM_PROMPT);
    const requests = fake.count();
    const replayed = await collect(model);
    if (replayed.text !== recorded.text || replayed.chunks !== recorded.chunks) throw new Error("bench: stream replay differs from the recording");
    if ((await model.invoke(STREAM_PROMPT)).content !== invoked.content) throw new Error("bench: invoke replay differs");
    expectRequests(fake, requests, "stream replay");

    let liveCalls = 0;
    const results = await compare(
      [
        { name: "replayed invoke (VcrCache hit, chat fixture)", run: () => model.invoke(STREAM_PROMPT), batch: 10 },
        { name: `replayed .stream(), whole stream (${recorded.chunks} chunks)`, run: () => collect(model), batch: 10 },
        { name: "live .stream() on the loopback fake, whole stream", run: () => (liveCalls++, collect(live)), batch: 2 },
      ],
      opts,
    );
    expectRequests(fake, requests + liveCalls, "stream replays");
    const perChunk = { name: "replayed .stream(), per chunk", samples: results[1].samples.map((s) => s / recorded.chunks) };
    return { results: [results[0], results[1], perChunk, results[2]], chunks: recorded.chunks };
  } finally {
    await fake.close();
  }
}
