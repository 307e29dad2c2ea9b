/**
 * Compact stream fixtures: what repeats on every chunk is stored once, at most 60 bytes per
 * chunk beyond its own text, and reading gives every chunk back exactly.
 */
import { expect } from "chai";
import * as fs from "node:fs";
import * as path from "node:path";
import { HumanMessage } from "@langchain/core/messages";
import { compactStream, expandStream, type CompactStream } from "../../src/adapters/stream/compact";
import type { StreamResponse } from "../../src/adapters/stream/chunks";
import { Vcr } from "../../src/index";
import { formatFixture } from "../../src/store/format";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { openai } from "../helpers/models";
import { fixtureFiles } from "../helpers/tmp";

function sample(): StreamResponse {
  return {
    chunks: [
      {
        text: "",
        message: { content: "", id: "m1", response_metadata: { model_provider: "openai", usage: {} } },
        generationInfo: { prompt: 0, completion: 0 },
        newToken: { idx: { prompt: 0, completion: 0 } },
      },
      {
        text: "Hi",
        message: { content: "Hi", id: "m1", response_metadata: { model_provider: "openai", usage: {} } },
        generationInfo: { prompt: 0, completion: 0 },
        newToken: { idx: { prompt: 0, completion: 0 } },
      },
      {
        text: " there",
        message: { content: " there", id: "m1", response_metadata: { model_provider: "openai", usage: {} } },
        generationInfo: { prompt: 0, completion: 0 },
        newToken: { idx: { prompt: 0, completion: 0 } },
      },
      {
        text: "",
        message: { content: [{ type: "text", text: "x" }], id: "m1", tool_call_chunks: [{ args: '{"a', index: 0 }] },
        generationInfo: { prompt: 0, completion: 0, finish_reason: "stop", system_fingerprint: null },
      },
      {
        text: "",
        message: { content: "", usage_metadata: { input_tokens: 5, output_tokens: 2, total_tokens: 7 } },
        newToken: { token: "", idx: { prompt: 0, completion: 0 } },
      },
      { text: "!", message: { type: "AIMessageChunk", content: "!", id: "m1", response_metadata: { model_provider: "openai", usage: {} } }, newToken: {} },
    ],
  } as unknown as StreamResponse;
}

describe("stream fixtures: compact on disk", () => {
  let fake: FakeProvider;
  let dir: string;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));

  it("reads every chunk back exactly: shared members, dropped members, nulls, non-text content, missing parts", () => {
    const r = sample();
    const disk = compactStream(r) as CompactStream;
    expect(disk.common).to.deep.equal({
      message: { id: "m1", response_metadata: { model_provider: "openai", usage: {} } },
      generationInfo: { prompt: 0, completion: 0 },
      newToken: { idx: { prompt: 0, completion: 0 } },
    });
    expect(disk.chunks[1]).to.deep.equal({ text: "Hi" });
    expect(JSON.parse(JSON.stringify(expandStream(JSON.parse(JSON.stringify(disk)))))).to.deep.equal(JSON.parse(JSON.stringify(r)));
    // what a redactor may leave behind is written as it is, never a TypeError
    expect(compactStream({ chunks: "gone" } as never)).to.deep.equal({ chunks: "gone" });
    // 0.1.0's form (no "common") reads as it is
    expect(expandStream(JSON.parse(JSON.stringify(r)))).to.deep.equal(JSON.parse(JSON.stringify(r)));
  });

  it("a 100-chunk streamed answer costs at most 60 bytes per chunk beyond its text, and replays chunk for chunk with 0 requests", async () => {
    const words = Array.from({ length: 99 }, (_, i) => `word${i}`).join(" ");
    fake.enqueue({ content: words });
    const collect = async (vcr: Vcr) => {
      const out: { content: unknown; id?: string; meta: unknown; usage: unknown }[] = [];
      for await (const c of await openai(fake, vcr.cache, { streamUsage: true }).stream([new HumanMessage("Count to a hundred")])) {
        out.push({ content: c.content, id: c.id, meta: c.response_metadata, usage: c.usage_metadata });
      }
      return out;
    };
    const live = await collect(new Vcr({ dir, mode: "record_or_replay" }));
    const [name] = fixtureFiles(dir);
    const file = path.join(dir, name);
    const onDisk = JSON.parse(fs.readFileSync(file, "utf8"));
    const n = onDisk.response.chunks.length;
    expect(n).to.be.at.least(100);
    const texts = onDisk.response.chunks.reduce((s: number, c: { text?: string }) => s + (c.text ? Buffer.byteLength(JSON.stringify(c.text)) : 0), 0);
    const envelope = Buffer.byteLength(formatFixture({ ...onDisk, response: {} }));
    const perChunk = (fs.statSync(file).size - envelope - texts) / n;
    expect(perChunk).to.be.at.most(60);

    const before = fake.count();
    const replayed = await collect(new Vcr({ dir, mode: "replay_only" }));
    expect(fake.count()).to.equal(before);
    // a member the provider set to undefined (service_tier) comes back too: the chunk's shape names it
    expect(replayed).to.have.length(live.length);
    expect(replayed).to.deep.equal(live);
  });

  it("a chunk's shape is stored once when most chunks share it, and reads back exactly", () => {
    const fields = ["content", "tool_call_chunks", "additional_kwargs", "id", "response_metadata", "tool_calls", "invalid_tool_calls", "usage_metadata"];
    const r = sample();
    r.chunks.forEach(
      (c, i) => (c.shape = i === 4 ? { fields: ["content", "usage_metadata"], undefined: ["/message/usage_metadata/input_token_details/audio"] } : { fields }),
    );
    r.chunks[3].shape = { fields, undefined: ["/generationInfo/service_tier"] };
    const disk = compactStream(r) as CompactStream;
    expect(disk.common?.shape).to.deep.equal({ fields });
    expect(disk.chunks[1]).to.deep.equal({ text: "Hi" });
    expect(disk.chunks[3].shape).to.deep.equal({ undefined: ["/generationInfo/service_tier"] });
    expect(JSON.parse(JSON.stringify(expandStream(JSON.parse(JSON.stringify(disk)))))).to.deep.equal(JSON.parse(JSON.stringify(r)));
  });
});
