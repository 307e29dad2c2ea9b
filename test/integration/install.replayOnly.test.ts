/**
 * Audit probes: under vcr.install() in replay_only with an empty cassette dir, no path of a
 * model with no cache reaches the provider, and no model-initiated tool call runs its body —
 * each fails (a VcrMissError) with 0 requests.
 */
import { expect } from "chai";
import { ChatOpenAI, OpenAI, OpenAIEmbeddings } from "@langchain/openai";
import { tool } from "@langchain/core/tools";
import { ToolNode } from "@langchain/langgraph/prebuilt";
import { AIMessage } from "@langchain/core/messages";
import { MessagesAnnotation, StateGraph } from "@langchain/langgraph";
import { createAgent } from "langchain";
import { initChatModel } from "langchain/chat_models/universal";
import { z } from "zod";
import { Vcr } from "../../src/index";
import { useFakeAndDir } from "../helpers/fixtureEnv";
import type { FakeProvider } from "../helpers/fakeProvider";
import { TEST_KEY } from "../helpers/models";
import { fixtureFiles } from "../helpers/tmp";

describe("vcr.install() under replay_only: no path reaches the provider", () => {
  let fake: FakeProvider;
  let dir: string;
  let uninstall: (() => void) | undefined;
  let vcr: Vcr;
  useFakeAndDir((f, d) => ((fake = f), (dir = d)));
  beforeEach(() => (uninstall = (vcr = new Vcr({ dir, mode: "replay_only" })).install()));
  afterEach(() => uninstall?.());

  const chat = (fields: Record<string, unknown> = {}) =>
    new ChatOpenAI({ model: "gpt-4o-mini", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL }, ...fields });
  const llm = (fields: Record<string, unknown> = {}) =>
    new OpenAI({ model: "gpt-3.5-turbo-instruct", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL }, ...fields });

  /** A ConfigurableModel whose model is chosen per call (`configurable: { model }`). */
  const configurable = () =>
    initChatModel("gpt-4o", {
      modelProvider: "openai",
      configurableFields: ["model"],
      apiKey: TEST_KEY,
      maxRetries: 0,
      configuration: { baseURL: fake.openaiBaseURL },
    });
  async function drain(it: AsyncIterable<unknown> | Promise<AsyncIterable<unknown>>): Promise<void> {
    for await (const _ of await it) void _;
  }
  async function expectMiss(what: () => Promise<unknown>): Promise<void> {
    let error: unknown;
    try {
      await what();
    } catch (e) {
      error = e;
    }
    expect(fake.count(), "requests to the fake").to.equal(0);
    expect((error as Error | undefined)?.name, String(error)).to.equal("VcrMissError");
    expect(fixtureFiles(dir)).to.have.length(0);
  }

  const cases: [string, () => Promise<unknown>][] = [
    ["invoke of a model built with streaming: true", () => chat({ streaming: true }).invoke("hi")],
    ["batch()", () => chat().batch(["a", "b"])],
    [".stream()", () => drain(chat().stream("hi"))],
    ["streamEvents v2", () => drain(chat().streamEvents("hi", { version: "v2" }))],
    ["streamEvents, new protocol", () => drain((chat() as unknown as { streamEvents(i: string): AsyncIterable<unknown> }).streamEvents("hi"))],
    [
      "withStructuredOutput on the Responses API",
      () =>
        chat({ useResponsesApi: true })
          .withStructuredOutput(z.object({ a: z.string() }))
          .invoke("hi"),
    ],
    [".stream() on the Responses API", () => drain(chat({ useResponsesApi: true }).stream("hi"))],
    ["an LLM's invoke()", () => llm().invoke("hi")],
    ["an LLM's .stream()", () => drain(llm().stream("hi"))],
    ["an LLM built with streaming: true", () => llm({ streaming: true }).invoke("hi")],
    ["an LLM's batch()", () => llm().batch(["a", "b"])],
    [
      "a RunnableWithFallbacks",
      () =>
        chat()
          .withFallbacks([chat({ model: "gpt-4o" })])
          .invoke("hi"),
    ],
    [
      "a RunnableWithFallbacks' .stream()",
      () =>
        drain(
          chat()
            .withFallbacks([chat({ model: "gpt-4o" })])
            .stream("hi"),
        ),
    ],
    ["initChatModel with configurable fields", async () => (await configurable()).invoke("hi", { configurable: { model: "gpt-4o-mini" } })],
    ["initChatModel with configurable fields, .stream()", async () => drain((await configurable()).stream("hi", { configurable: { model: "gpt-4o-mini" } }))],
    [
      "embedQuery",
      () =>
        new OpenAIEmbeddings({ model: "text-embedding-3-small", apiKey: TEST_KEY, maxRetries: 0, configuration: { baseURL: fake.openaiBaseURL } }).embedQuery(
          "hi",
        ),
    ],
  ];
  let bodyRuns = 0;
  const weather = tool(async ({ city }: { city: string }) => (bodyRuns++, `sunny in ${city}`), {
    name: "get_weather",
    description: "Weather.",
    schema: z.object({ city: z.string() }),
  });
  const call = { type: "tool_call" as const, id: "call_1", name: "get_weather", args: { city: "Paris" } };
  cases.push(
    ["a model-initiated tool call (a ToolCall)", () => weather.invoke(call)],
    [
      // handleToolErrors: false, else ToolNode hands the VcrMissError to the model as a ToolMessage (docs/tools-and-agents.md)
      "a tool call through LangGraph's ToolNode",
      () => new ToolNode([weather], { handleToolErrors: false }).invoke({ messages: [new AIMessage({ content: "", tool_calls: [call] })] }),
    ],
  );
  afterEach(() => expect(bodyRuns, "tool body runs").to.equal(0));

  // createAgent's string model reads the provider's address and key from the environment
  const env = { OPENAI_BASE_URL: process.env.OPENAI_BASE_URL, OPENAI_API_KEY: process.env.OPENAI_API_KEY };
  beforeEach(() => Object.assign(process.env, { OPENAI_BASE_URL: fake.openaiBaseURL, OPENAI_API_KEY: TEST_KEY }));
  afterEach(() => {
    for (const [k, v] of Object.entries(env))
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  });
  const hi = { messages: [{ role: "user", content: "hi" }] };
  cases.push(
    [
      "createAgent with a string model, streamMode messages",
      () => drain(createAgent({ model: "openai:gpt-4o-mini", tools: [weather] }).stream(hi, { streamMode: "messages" })),
    ],
    [
      "createAgent with a string model, streamEvents v2",
      () => drain(createAgent({ model: "openai:gpt-4o-mini", tools: [weather] }).streamEvents(hi, { version: "v2" })),
    ],
    [
      "a LangGraph node's invoke() under streamMode messages",
      () => {
        const model = chat();
        const graph = new StateGraph(MessagesAnnotation)
          .addNode("answer", async (state) => ({ messages: [await model.invoke(state.messages)] }))
          .addEdge("__start__", "answer")
          .compile();
        return drain(graph.stream(hi, { streamMode: "messages" }) as Promise<AsyncIterable<unknown>>);
      },
    ],
  );

  for (const [name, run] of cases) it(`${name}: a VcrMissError, 0 requests, 0 fixtures`, () => expectMiss(run));

  it("a chain's withRetry stops at the first miss given the onFailedAttempt of docs/tools-and-agents.md (3 misses without it)", async () => {
    const stopAtVcr = (e: unknown) => {
      if ((e as Error | undefined)?.name?.startsWith("Vcr")) throw e;
    };
    await expectMiss(() => chat().withRetry({ onFailedAttempt: stopAtVcr }).invoke("hi"));
    expect(vcr.stats().missed, "misses with the stop").to.equal(1);
    await expectMiss(() => chat().withRetry({ stopAfterAttempt: 2 }).invoke("hi")); // the default 3 would wait 2-6 s
    expect(vcr.stats().missed, "misses after a retry without it").to.equal(3);
  });
});
