import { expect } from "chai";
import { AIMessageChunk } from "@langchain/core/messages";
import { ChatGenerationChunk } from "@langchain/core/outputs";
import { loadChunk, storeChunk, storeNewToken, streamResponseProblem, type ChunkClasses } from "../../src/adapters/stream/chunks";
import { generateWillStream } from "../../src/adapters/stream/route";
import { watchNewTokens } from "../../src/adapters/stream/tokens";

const classes = { AIMessageChunk, ChatGenerationChunk } as unknown as ChunkClasses;
const json = <T>(v: T): T => JSON.parse(JSON.stringify(v)) as T;

function messageView(m: AIMessageChunk) {
  return json({
    content: m.content,
    id: m.id,
    tool_call_chunks: m.tool_call_chunks,
    tool_calls: m.tool_calls,
    invalid_tool_calls: m.invalid_tool_calls,
    usage_metadata: m.usage_metadata,
    response_metadata: m.response_metadata,
    additional_kwargs: m.additional_kwargs,
  });
}

describe("stream chunks: stored form", () => {
  it("keeps text, content, id, tool-call fragments, usage, metadata and generationInfo; drops what is empty", () => {
    const chunk = new ChatGenerationChunk({
      text: "",
      message: new AIMessageChunk({
        content: "",
        id: "chatcmpl-1",
        tool_call_chunks: [{ type: "tool_call_chunk", name: "get_weather", args: '{"ci', id: "call_1", index: 0 }],
        usage_metadata: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
        response_metadata: { model_provider: "openai" },
      }),
      generationInfo: { prompt: 0, completion: 0 },
    });
    const stored = storeChunk(chunk);
    expect(stored).to.deep.equal({
      text: "",
      message: {
        content: "",
        id: "chatcmpl-1",
        tool_call_chunks: [{ args: '{"ci', id: "call_1", index: 0, name: "get_weather", type: "tool_call_chunk" }],
        usage_metadata: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
        response_metadata: { model_provider: "openai" },
      },
      generationInfo: { completion: 0, prompt: 0 },
      // the fields the chunk was constructed with (its lc_kwargs), which JSON of its values does not say
      shape: { fields: ["content", "id", "tool_call_chunks", "usage_metadata", "response_metadata", "additional_kwargs", "tool_calls", "invalid_tool_calls"] },
    });
    expect(Object.keys(stored.message)).to.not.include.members(["tool_calls", "additional_kwargs", "name", "type"]);
  });

  it("round-trips: the rebuilt chunk says what the recorded one said, and concatenates the same", () => {
    const parts = [
      new AIMessageChunk({ content: "", id: "m1", tool_call_chunks: [{ type: "tool_call_chunk", name: "f", args: '{"a":', id: "c1", index: 0 }] }),
      new AIMessageChunk({ content: "", id: "m1", tool_call_chunks: [{ type: "tool_call_chunk", args: "1}", index: 0 }] }),
      new AIMessageChunk({
        content: "done",
        id: "m1",
        additional_kwargs: { reasoning_content: "hm" },
        usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
      }),
    ].map(
      (message) =>
        new ChatGenerationChunk({ text: typeof message.content === "string" ? message.content : "", message, generationInfo: { finish_reason: "stop" } }),
    );
    const loaded = parts.map((p) => loadChunk(json(storeChunk(p)), classes) as unknown as ChatGenerationChunk);
    expect(loaded.every((c) => c instanceof ChatGenerationChunk && c.message instanceof AIMessageChunk)).to.equal(true);
    expect(loaded.map((c) => messageView(c.message as AIMessageChunk))).to.deep.equal(parts.map((c) => messageView(c.message as AIMessageChunk)));
    const agg = (cs: ChatGenerationChunk[]) => cs.reduce((a, b) => a.concat(b));
    expect(messageView(agg(loaded).message as AIMessageChunk)).to.deep.equal(messageView(agg(parts).message as AIMessageChunk));
    expect((agg(loaded).message as AIMessageChunk).tool_calls).to.deep.equal([{ name: "f", args: { a: 1 }, id: "c1", type: "tool_call" }]);
    expect(agg(loaded).generationInfo).to.deep.equal({ finish_reason: "stop" });
  });

  it("whole tool calls without fragments (and invalid ones) survive", () => {
    const message = new AIMessageChunk({ content: "", tool_calls: [{ name: "g", args: { x: 1 }, id: "t1", type: "tool_call" }] });
    message.invalid_tool_calls = [{ name: "h", args: "{bad", id: "t2", error: "parse", type: "invalid_tool_call" }];
    const stored = storeChunk(new ChatGenerationChunk({ text: "", message }));
    expect(stored.message.tool_calls).to.have.length(1);
    const loaded = loadChunk(json(stored), classes).message as unknown as AIMessageChunk;
    expect(json(loaded.tool_calls)).to.deep.equal(json(message.tool_calls));
    expect(json(loaded.invalid_tool_calls)).to.deep.equal(json(message.invalid_tool_calls));
  });

  it("notes a token callback: the token only when it differs from the chunk text, the indices when given", () => {
    const a = storeChunk(new ChatGenerationChunk({ text: "hi", message: new AIMessageChunk("hi") }));
    storeNewToken(a, "hi", undefined);
    expect(a.newToken).to.deep.equal({});
    const b = storeChunk(new ChatGenerationChunk({ text: "", message: new AIMessageChunk("") }));
    storeNewToken(b, "thinking", { completion: 0, prompt: 1 });
    expect(b.newToken).to.deep.equal({ token: "thinking", idx: { completion: 0, prompt: 1 } });
  });

  it("says what is wrong with a damaged response, as a predicate of the file (the damaged-fixture builder words the rest)", () => {
    expect(streamResponseProblem({ chunks: [] })).to.equal(undefined);
    expect(streamResponseProblem({ generations: [] })).to.equal('has no "response.chunks" array');
    expect(streamResponseProblem(null)).to.equal('has no "response.chunks" array');
    expect(streamResponseProblem({ chunks: [{ text: "a", message: { content: "a" } }, { text: 1 }] })).to.equal(
      'has a "response.chunks[1]" that is not a chunk ({ text, message })',
    );
  });
});

describe("stream routing: does core stream this generate()?", () => {
  const tokens = { lc_prefer_streaming: true };
  const events = { lc_prefer_chat_model_stream_events: true };
  const plain = { handleLLMEnd() {} };

  it("yes when a handler in the run's callbacks (array or CallbackManager) or the model's prefers tokens or events", () => {
    expect(generateWillStream({}, 1, [plain, tokens], true)).to.equal(true);
    expect(generateWillStream({}, 1, { handlers: [events] }, true)).to.equal(true);
    expect(generateWillStream({ callbacks: [tokens] }, 1, undefined, true)).to.equal(true);
  });

  it("no without such a handler, with several message lists, with streaming disabled, or without a native stream", () => {
    expect(generateWillStream({}, 1, [plain], true)).to.equal(false);
    expect(generateWillStream({}, 1, undefined, true)).to.equal(false);
    expect(generateWillStream({}, 2, [tokens], true)).to.equal(false);
    expect(generateWillStream({ disableStreaming: true }, 1, [tokens], true)).to.equal(false);
    expect(generateWillStream({}, 1, [tokens], false)).to.equal(false);
    expect(generateWillStream({}, 1, [{ lc_prefer_streaming: false }], true)).to.equal(false);
  });
});

describe("stream tokens: watching handleLLMNewToken", () => {
  it("forwards every call to the real run manager unchanged and notes it; everything else reads through", async () => {
    const forwarded: unknown[][] = [];
    const real = {
      runId: "r1",
      handleLLMNewToken(...args: unknown[]) {
        forwarded.push(args);
        return Promise.resolve("ok");
      },
      getChild() {
        return `child-of-${this.runId}`;
      },
    };
    const noted: unknown[][] = [];
    const view = watchNewTokens(real, (token, idx, chunk) => noted.push([token, idx, chunk]));
    const chunk = { text: "a" };
    expect(await view.handleLLMNewToken!("a", { prompt: 0 }, undefined, undefined, undefined, { chunk })).to.equal("ok");
    expect(forwarded).to.deep.equal([["a", { prompt: 0 }, undefined, undefined, undefined, { chunk }]]);
    expect(noted).to.deep.equal([["a", { prompt: 0 }, chunk]]);
    expect((view as unknown as { getChild(): string }).getChild()).to.equal("child-of-r1");
    expect(view).to.not.equal(real);
    expect(Object.prototype.hasOwnProperty.call(real, "handleLLMNewToken")).to.equal(true);
  });

  it("without a run manager, a stand-in notes calls and answers any other method with a no-op", async () => {
    const noted: unknown[] = [];
    const standIn = watchNewTokens(undefined, (token) => noted.push(token)) as Record<string, unknown>;
    await (standIn.handleLLMNewToken as (t: string) => Promise<void>)("x");
    expect(noted).to.deep.equal(["x"]);
    expect(await (standIn.handleText as () => Promise<void>)()).to.equal(undefined);
    expect(standIn.then).to.equal(undefined);
    expect(standIn.handlers).to.deep.equal([]);
  });
});
