/**
 * How `diff` (a kind's `review`) and `show` (its `render`) read an answer, on responses shaped as
 * the providers' LangChain clients store them: they must agree with each other and with LangChain.
 */
import { expect } from "chai";
import { KINDS } from "../../src/kinds";
import { addUsage } from "../../src/kinds/chatStream";

/** ChatGoogleGenerativeAI: the message holds every text part; the generation's own `text` only the first. */
const gemini = (last: string) => ({
  generations: [
    {
      text: "The capital ",
      message: {
        type: "ai",
        content: [
          { type: "text", text: "The capital " },
          { type: "text", text: "of France is " },
          { type: "text", text: last },
        ],
      },
      generationInfo: { finishReason: "STOP" },
    },
  ],
});

/** ChatAnthropic's stream: input tokens in the first event, output tokens in the last. */
const anthropicStream = (inputTokens: number) => ({
  chunks: [
    { text: "", message: { content: "", usage_metadata: { input_tokens: inputTokens, output_tokens: 1, total_tokens: inputTokens + 1 } } },
    { text: "Paris", message: { content: "Paris" } },
    {
      text: ".",
      message: {
        content: ".",
        usage_metadata: { input_tokens: 0, output_tokens: 5, total_tokens: 5, input_token_details: { cache_read: 0 }, output_token_details: {} },
      },
    },
  ],
});

describe("kinds: an answer as diff reviews it and show renders it", () => {
  it("a chat answer in several text blocks is compared whole, so a change in a later block shows (ChatGoogleGenerativeAI)", () => {
    const before = KINDS.chat.review!(gemini("Paris.")) as { generations: { text: string }[] };
    const after = KINDS.chat.review!(gemini("Madrid!")) as { generations: { text: string }[] };
    expect(before.generations[0].text).to.equal("The capital of France is Paris.");
    expect(after.generations[0].text).to.equal("The capital of France is Madrid!");
    const shown: string[] = [];
    KINDS.chat.render({}, gemini("Madrid!"), gemini("Madrid!"), shown);
    expect(shown.join("\n")).to.include("The capital of France is Madrid!").and.include("finish: STOP");
    expect(after.generations[0]).to.include({ finish_reason: "STOP" });
  });

  it("shows the generation's own text where it is not the message's (a hand edit of one copy: generate() returns it), and not when it is, or is empty", () => {
    const gen = (text: string, content: string) => ({ generations: [{ text, message: { type: "ai", content } }] });
    expect(KINDS.chat.review!(gen("Ahoy!", "Arr!"))).to.deep.equal({ generations: [{ text: "Arr!", generation_text: "Ahoy!" }] });
    expect(KINDS.chat.review!(gen("Arr!", "Arr!"))).to.deep.equal({ generations: [{ text: "Arr!" }] });
    expect(KINDS.chat.review!(gen("", "Arr!"))).to.deep.equal({ generations: [{ text: "Arr!" }] });
  });

  it("reads the finish reason in each provider's spelling (Anthropic stop_reason, Bedrock stopReason)", () => {
    const gen = (meta: object) => ({ generations: [{ text: "ok", message: { type: "ai", content: "ok", response_metadata: meta } }] });
    for (const meta of [{ stop_reason: "end_turn" }, { stopReason: "end_turn" }, { finish_reason: "end_turn" }]) {
      const r = KINDS.chat.review!(gen(meta)) as { generations: object[] };
      expect(r.generations[0], JSON.stringify(meta)).to.include({ finish_reason: "end_turn" });
    }
  });

  it("the text is LangChain's message.text (text blocks only); other blocks are listed by type, so one that comes or goes shows", () => {
    const answer = (blocks: object[]) => ({ generations: [{ text: "", message: { type: "ai", content: blocks } }] });
    const thought = { type: "thinking", thinking: "Let me think." };
    const text = { type: "text", text: "Paris." };
    const call = { type: "tool_use", id: "t1", name: "lookup", input: {} };
    expect(KINDS.chat.review!(answer([thought, text, call]))).to.deep.equal({ generations: [{ text: "Paris.", other_blocks: ["thinking", "tool_use"] }] });
    expect(KINDS.chat.review!(answer([text]))).to.deep.equal({ generations: [{ text: "Paris." }] });
    // a streamed chunk mixing blocks (its own text is its first text block only): its message's text blocks
    const chunk = {
      text: "A",
      message: {
        content: [
          { type: "text", text: "A" },
          { type: "functionCall", name: "f" },
          { type: "text", text: "B" },
        ],
      },
    };
    expect(KINDS.chat_stream.review!({ chunks: [chunk] })).to.include({ text: "AB" });
  });

  it("an llm answer (no message) is its generation's text", () => {
    expect(KINDS.llm.review!({ generations: [{ text: "42" }] })).to.deep.equal({ generations: [{ text: "42" }] });
  });

  it("a stream's usage is summed over its chunks, as LangChain's concat sums it, not the last chunk's", () => {
    const review = KINDS.chat_stream.review!(anthropicStream(10)) as { text: string; usage_metadata: unknown };
    expect(review.text).to.equal("Paris.");
    expect(review.usage_metadata).to.deep.equal({
      input_tokens: 10,
      output_tokens: 6,
      total_tokens: 16,
      input_token_details: { cache_read: 0 },
      output_token_details: {},
    });
    // so a change in the input tokens alone shows in diff
    expect(KINDS.chat_stream.review!(anthropicStream(12))).to.not.deep.equal(review);
    const shown: string[] = [];
    KINDS.chat_stream.render({}, anthropicStream(10), anthropicStream(10), shown);
    expect(shown.join("\n")).to.include("10 in, 6 out");
  });

  it("a stream's tool calls are reviewed by name and args, as a chat answer's are: a new call id on a re-recording is no difference (it shows in show)", () => {
    const streamCall = (id: string) => ({
      chunks: [
        { text: "", message: { content: "", tool_call_chunks: [{ index: 0, id, name: "get_weather", args: "" }] } },
        { text: "", message: { content: "", tool_call_chunks: [{ index: 0, args: '{"city":"Paris"}' }] } },
      ],
    });
    const wholeCall = (id: string) => ({
      chunks: [{ text: "", message: { content: "", tool_calls: [{ id, name: "get_weather", args: { city: "Paris" } }] } }],
    });
    const review = (r: unknown) => KINDS.chat_stream.review?.(r);
    expect(review(streamCall("toolu_6"))).to.deep.equal(review(streamCall("toolu_15")));
    expect(review(streamCall("toolu_6"))).to.deep.include({ tool_calls: [{ name: "get_weather", args: '{"city":"Paris"}' }] });
    expect(review(wholeCall("a"))).to.deep.equal(review(wholeCall("b")));
    // a damaged list (a null among the calls) is shown as it is, not a TypeError
    expect(review({ chunks: [{ text: "", message: { content: "", tool_calls: [null] } }] })).to.deep.include({ whole_tool_calls: [null] });
    const shown: string[] = [];
    KINDS.chat_stream.render({}, streamCall("toolu_6"), streamCall("toolu_6"), shown);
    expect(shown.join("\n")).to.include('get_weather({"city":"Paris"}) [toolu_6]');
  });

  it("a stream's tool-call chunk whose args are an object (ChatCohere's stream) is read as its JSON: a changed argument shows in review and show", () => {
    const cohere = (city: string) => ({
      chunks: [{ text: "", message: { content: "", tool_call_chunks: [{ index: 0, id: "c1", name: "get_weather", args: { city } }] } }],
    });
    const review = (r: unknown) => KINDS.chat_stream.review?.(r);
    expect(review(cohere("42"))).to.deep.include({ tool_calls: [{ name: "get_weather", args: '{"city":"42"}' }] });
    expect(review(cohere("42"))).to.not.deep.equal(review(cohere("43")));
    const shown: string[] = [];
    KINDS.chat_stream.render({}, cohere("42"), cohere("42"), shown);
    expect(shown.join("\n")).to.include('get_weather({"city":"42"}) [c1]').and.not.include("[object Object]");
  });

  it("show names the tools of a request in each provider's shape (Google functionDeclarations, Bedrock toolConfig.tools)", () => {
    const render = (req: object) => {
      const out: string[] = [];
      KINDS.chat.render(req as never, {}, {}, out);
      return out.join("\n");
    };
    const gemini = render({
      model: "gemini-2.5-flash",
      tools: [{ functionDeclarations: [{ name: "get_weather", description: "Weather." }, { name: "lookup" }] }],
    });
    expect(gemini).to.include("tools:\n  get_weather — Weather.\n  lookup");
    const bedrock = render({
      model: "anthropic.claude",
      toolConfig: { tools: [{ toolSpec: { name: "get_weather", description: "Weather.", inputSchema: { json: {} } } }], toolChoice: { auto: {} } },
    });
    expect(bedrock).to.include('params:   toolConfig={"toolChoice":{"auto":{}}}').and.include("tools:\n  get_weather — Weather.");
    expect(render({ model: "m", tools: [{ name: "plain", description: "Canonical." }] })).to.include("tools:\n  plain — Canonical.");
  });

  it("show sets a block that is not text apart from the text beside it (an Anthropic reply's text then tool_use), and runs text blocks on", () => {
    const out: string[] = [];
    const content = [
      { type: "text", text: "Let me look " },
      { type: "text", text: "that order up." },
      { type: "tool_use", id: "call_1", name: "lookup_order", input: {} },
      { type: "text", text: "" },
      { type: "image", mime_type: "image/png" },
      { type: "text", text: "Then more." },
    ];
    KINDS.chat.render({ model: "m", messages: [{ role: "assistant", content }] } as never, {}, {}, out);
    expect(out.join("\n")).to.include("[assistant] Let me look that order up. [tool_use] [image image/png] Then more.");
  });

  it("show names a file block's mime type and short sha256 wherever the block holds them (a source, a data URL's digest, input_audio), and cache_control", () => {
    const out: string[] = [];
    const sha = "3b00c19c8bd1b6b4b4c2e5cb8e1b1bc6cdc9bd1cb4ec1a05c1c1f8ee2f9b4c36";
    const content = [
      { type: "image", source: { type: "base64", media_type: "image/png", data: { sha256: sha } } },
      { type: "document", source: { type: "base64", media_type: "application/pdf", data: { sha256: sha } }, cache_control: { type: "ephemeral" } },
      { type: "image_url", image_url: { url: { mime: "image/jpeg", sha256: sha } } },
      { type: "input_audio", input_audio: { data: { sha256: sha }, format: "wav" } },
      { type: "image", url: "https://example.com/cat.png" },
    ];
    KINDS.chat.render({ model: "m", messages: [{ role: "user", content }] } as never, {}, {}, out);
    expect(out.join("\n")).to.include(
      "[user] [image image/png sha256 3b00c19c8bd1] [document application/pdf sha256 3b00c19c8bd1 cache_control] [image_url image/jpeg sha256 3b00c19c8bd1] [input_audio sha256 3b00c19c8bd1] [image https://example.com/cat.png]",
    );
  });

  it("show gives an answer's reasoning a line of its own (OpenAI reasoning blocks, Anthropic thinking), for a chat answer and a stream", () => {
    const out: string[] = [];
    const content = [
      { type: "reasoning", reasoning: "Thinking about:\n  why the sky is blue." },
      { type: "text", text: "Rayleigh scattering." },
    ];
    KINDS.chat.render({ model: "o4-mini" } as never, { generations: [{ text: "", message: { type: "ai", content } }] }, {}, out);
    // the reasoning has its own line, and no [reasoning] marker beside the text, as a stream's answer (trial 45)
    expect(out.join("\n")).to.include('[assistant] Rayleigh scattering.\n    (reasoning: "Thinking about: why the sky is blue.")');
    const streamed: string[] = [];
    const chunk = (block: object) => ({ message: { content: [block] } });
    const chunks = [chunk({ type: "thinking", thinking: "Think" }), chunk({ type: "thinking", thinking: "ing." }), chunk({ type: "text", text: "Blue." })];
    KINDS.chat_stream.render({ model: "claude" } as never, { chunks }, { chunks }, streamed);
    expect(streamed.join("\n")).to.include('[assistant] Blue.\n    (reasoning: "Thinking.")');
    // DeepSeek's and xAI's clients keep it in additional_kwargs.reasoning_content, invoke and stream
    const kwargs: string[] = [];
    const message = { type: "ai", content: "42.", additional_kwargs: { reasoning_content: "Six times seven." } };
    KINDS.chat.render({ model: "deepseek-reasoner" } as never, { generations: [{ text: "42.", message }] }, {}, kwargs);
    expect(kwargs.join("\n")).to.include('[assistant] 42.\n    (reasoning: "Six times seven.")');
    const pieces = ["Six times ", "seven."].map((r) => ({ message: { content: "", additional_kwargs: { reasoning_content: r } } }));
    const deltas: string[] = [];
    KINDS.chat_stream.render({ model: "grok-3-mini" } as never, { chunks: [...pieces, { message: { content: "42." } }] }, {}, deltas);
    expect(deltas.join("\n")).to.include('[assistant] 42.\n    (reasoning: "Six times seven.")');
    // ChatOllama's think: true stream: a thinking chunk's text is its thinking, its content empty (trial 50: glued onto the answer)
    const ollama = [
      { text: "Let me think.", message: { content: "", additional_kwargs: { reasoning_content: "Let me think." } } },
      { text: "Blue.", message: { content: "Blue." } },
    ];
    const thought: string[] = [];
    KINDS.chat_stream.render({ model: "qwen3" } as never, { chunks: ollama }, {}, thought);
    expect(thought.join("\n")).to.include('[assistant] Blue.\n    (reasoning: "Let me think.")');
  });

  it("show renders a tool answer that is a LangGraph Command: its update and goto", () => {
    const out: string[] = [];
    const res = { command: { update: { mood: "happy" }, goto: ["agent"] } };
    KINDS.tool.render({ tool: "set_mood", args: { mood: "happy" } } as never, res, res, out);
    expect(out.join("\n")).to.include('answer:\n  returned a LangGraph Command:\n    update:\n      {\n        "mood": "happy"\n      }\n    goto:');
  });

  it("addUsage is core's mergeUsageMetadata: known counts summed (null or missing as 0), unknown members dropped", () => {
    expect(
      addUsage(
        { input_tokens: 1, output_tokens: null, output_token_details: { reasoning: 2 }, input_token_details: { over_200k: 5 } },
        { input_tokens: 2, output_tokens: 4, output_token_details: { reasoning: 3, audio: 1 }, extra: "x" },
      ),
    ).to.deep.equal({ input_tokens: 3, output_tokens: 4, input_token_details: {}, output_token_details: { reasoning: 5, audio: 1 } });
  });
});

describe("a chat fixture's title (diff's added and removed rows)", () => {
  const question = { role: "user", content: "Order 42 arrived broken: refund my $25." };
  const ask = { role: "assistant", content: "", tool_calls: [{ id: "call_1", name: "issue_refund", args: { orderId: "42" } }] };
  const toolResult = { role: "tool", name: "issue_refund", content: "Refunded $25 for order 42.", tool_call_id: "call_1" };

  it("an agent's turns, which ask the same question, are told apart by what came after it", () => {
    const title = (messages: unknown[]) => KINDS.chat.title({ model: "gpt-4o-mini", messages });
    expect(title([question])).to.equal('gpt-4o-mini: "Order 42 arrived broken: refund my $25."');
    expect(title([question, ask, toolResult])).to.equal(
      'gpt-4o-mini: "Order 42 arrived broken: refund my $25." → tool issue_refund: "Refunded $25 for order 42."',
    );
    expect(title([question, ask])).to.equal('gpt-4o-mini: "Order 42 arrived broken: refund my $25." → assistant: 1 tool call(s)');
    expect(KINDS.llm.title({ model: "gpt-3.5-turbo-instruct", prompt: "Say hi." })).to.equal('gpt-3.5-turbo-instruct: "Say hi."');
  });

  it("a structured-output call is told apart from an agent turn asking the same question by the answer it demands, in each provider's shape", () => {
    const title = (extra: object) => KINDS.chat.title({ model: "m", messages: [question], ...extra });
    const q = 'm: "Order 42 arrived broken: refund my $25."';
    expect(title({})).to.equal(q);
    expect(title({ tool_choice: { type: "tool", name: "triage" } })).to.equal(`${q} (tool_choice: triage)`); // OpenAI and Anthropic, canonical
    expect(title({ tool_choice: "auto" })).to.equal(q);
    expect(title({ toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["triage"] } } })).to.equal(`${q} (tool_choice: triage)`);
    expect(title({ toolConfig: { functionCallingConfig: { mode: "ANY", allowedFunctionNames: ["a", "b"] } } })).to.equal(q);
    expect(title({ toolConfig: { toolChoice: { tool: { name: "triage" } } } })).to.equal(`${q} (tool_choice: triage)`); // Bedrock
    expect(title({ toolConfig: { toolChoice: { auto: {} } } })).to.equal(q);
    expect(title({ response_format: { type: "json_schema", name: "ticket", schema: {} } })).to.equal(`${q} (response_format: ticket)`);
    expect(title({ response_format: { type: "json_object" } })).to.equal(`${q} (response_format: json)`);
    // trial 39: Mistral's and Google's structured output read like a plain chat call
    const cityInfo = { name: "city_info", parameters: { type: "object" } };
    expect(title({ toolChoice: "any", tools: [cityInfo] })).to.equal(`${q} (tool_choice: city_info)`); // Mistral
    expect(title({ tool_choice: "required", tools: [{ type: "function", function: cityInfo }] })).to.equal(`${q} (tool_choice: city_info)`);
    expect(title({ toolChoice: "any", tools: [cityInfo, { name: "other" }] })).to.equal(q); // an agent that must call one of its tools
    expect(title({ generationConfig: { responseMimeType: "application/json", responseSchema: { type: "object" } } })).to.equal(
      `${q} (response_format: json schema)`,
    ); // Google
    expect(title({ generationConfig: { responseMimeType: "application/json" } })).to.equal(`${q} (response_format: json)`);
    expect(title({ generationConfig: { temperature: 0 } })).to.equal(q);
  });

  it("a call keyed in another form (another provider's answer, the other OpenAI API's, held its plain key) says which: two providers' fixtures of one prompt are told apart (trial 43 N6)", () => {
    const title = (extra: object) => KINDS.chat.title({ model: "m", messages: [question], ...extra });
    const q = '"Order 42 arrived broken: refund my $25."';
    expect(title({})).to.equal(`m: ${q}`);
    expect(title({ provider: "mistral" })).to.equal(`m via mistral: ${q}`);
    expect(title({ openai_api: "responses" })).to.equal(`m via the Responses API: ${q}`);
    expect(title({ provider: "openai", openai_api: "chat_completions" })).to.equal(`m via openai, the Chat Completions API: ${q}`);
    expect(title({ provider: { order: ["a"] } })).to.equal(`m: ${q}`); // OpenRouter's routing object is a parameter, not a form
    expect(KINDS.chat_stream.title({ model: "m", messages: [question], provider: "mistral" })).to.equal(`m via mistral: ${q}`);
  });
});
