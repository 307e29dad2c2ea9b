import { expect } from "chai";
import { AIMessage, HumanMessage } from "@langchain/core/messages";
import { ChatGoogleGenerativeAI } from "@langchain/google-genai";
import { AzureChatOpenAI, AzureOpenAI, ChatOpenAI } from "@langchain/openai";
import { canonicalParams } from "../../src/canonical/params";
import { requestHash } from "../../src/canonical/json";
import { chatParts, chatRequest, llmParts, requestOf, type ModelLike } from "../../src/canonical/chat";
import { identity } from "../../src/canonical/normalize";

/** The members of a LangChain model the canonical request reads, counting the name lookups. */
function model(params: Record<string, unknown>): ModelLike & { lsCalls: number } {
  return {
    lsCalls: 0,
    invocationParams: () => ({ ...params }),
    getLsParams() {
      this.lsCalls++;
      return { ls_model_name: "from-ls-params" };
    },
    model: "from-field",
  };
}

describe("a call's parts (what its canonical request is built from)", () => {
  it("build the same request chatRequest gives, the messages canonical", () => {
    const m = model({ model: "gpt-4o-mini", temperature: 0, apiKey: "never-keyed" });
    const parts = chatParts(m, [new HumanMessage("hi")], {}, identity);
    expect(parts.messages).to.deep.equal([{ role: "user", content: "hi" }]);
    expect(requestOf(m, parts)).to.deep.equal({ model: "gpt-4o-mini", temperature: 0, messages: [{ role: "user", content: "hi" }] });
    expect(requestOf(m, parts)).to.deep.equal(chatRequest(m, [new HumanMessage("hi")], {}, identity));
    const request = requestOf(m, parts) as { messages: { content: string }[] };
    request.messages[0].content = "changed"; // shares nothing with its parts (the hash memo builds from what it keeps)
    expect(parts.messages).to.deep.equal([{ role: "user", content: "hi" }]);
    const tooled = model({
      model: "m",
      tools: [{ type: "function", function: { name: "t", parameters: { type: "object", properties: { a: { type: "string" } } } } }],
    });
    const tooledParts = chatParts(tooled, [new HumanMessage("hi")], {}, identity);
    const before = JSON.stringify(tooledParts);
    const built = requestOf(tooled, tooledParts) as { tools: { parameters: { properties: Record<string, unknown> } }[] };
    built.tools[0].parameters.properties.a = "changed";
    built.tools.push(built.tools[0]);
    expect(JSON.stringify(tooledParts)).to.equal(before);
  });

  it("hold only the parameters that can be keyed: set, and not excluded at the top level; the request is what the raw parameters give", () => {
    const openaiParams = chatParts(new ChatOpenAI({ model: "gpt-4o-mini", apiKey: "test-key-not-a-secret" }), [new HumanMessage("hi")], {}, identity).params;
    expect(openaiParams, "ChatOpenAI: 24 parameters, of which the model is keyed").to.deep.equal({ model: "gpt-4o-mini" });
    const raws: Record<string, unknown>[] = [
      { model: "m", temperature: 0, top_p: undefined, seed: null, stream: false, apiKey: "never-keyed", stop: [], n: 1 },
      { model: null, options: { temperature: 0.2, num_predict: 5, keep_alive: "5m" }, stream: true, format: "json" },
      { betas: [], stop_sequences: [], max_tokens: 9, maxTokens: undefined, tools: [], tool_choice: null, signal: new AbortController().signal },
      { generationConfig: { stopSequences: [], temperature: undefined }, safetySettings: [], timeout: 5 },
      Object.assign(Object.create({ inherited: 1 }) as Record<string, unknown>, { model: "own", headers: { "x-a": "1" } }),
      JSON.parse('{"model":"m","__proto__":{"temperature":1},"user":"u"}') as Record<string, unknown>, // an own __proto__ member
    ];
    for (const raw of raws) {
      const m = model(raw);
      m.invocationParams = () => raw;
      const parts = chatParts(m, [new HumanMessage("hi")], {}, identity);
      for (const [k, v] of Object.entries(parts.params)) expect(v, k).to.not.equal(undefined).and.not.equal(null);
      const expected: Record<string, unknown> = { ...canonicalParams(raw), messages: [{ role: "user", content: "hi" }] };
      if (expected.model === undefined) expected.model = "from-ls-params";
      expect(requestOf(m, parts)).to.deep.equal(expected);
    }
  });

  it("hold the fallback model name only when the parameters have no model, and read it only then", () => {
    const named = model({ model: "gpt-4o-mini" });
    expect(chatParts(named, [new HumanMessage("hi")], {}, identity).name).to.equal(undefined);
    expect(named.lsCalls).to.equal(0);
    for (const unset of [{}, { model: null }, { model: undefined }]) {
      const anonymous = model(unset);
      const parts = chatParts(anonymous, [new HumanMessage("hi")], {}, identity);
      expect(parts.name).to.equal("from-ls-params");
      expect(anonymous.lsCalls).to.equal(1);
      expect(requestOf(anonymous, parts).model).to.equal("from-ls-params");
    }
  });

  it("read the fallback name when the parameters' model is inherited, as the canonical parameters see no model there", () => {
    const m = model({});
    m.invocationParams = () => Object.create({ model: "inherited" }) as object;
    const parts = chatParts(m, [new HumanMessage("hi")], {}, identity);
    expect(parts.name).to.equal("from-ls-params");
    expect(requestOf(m, parts).model).to.equal("from-ls-params");
  });

  it("of a client whose parameters hold no model (ChatGoogleGenerativeAI) key on its model name", () => {
    const gemini = (name: string) => new ChatGoogleGenerativeAI({ model: name, apiKey: "test-key-not-a-secret" });
    const a = chatParts(gemini("gemini-a"), [new HumanMessage("hi")], {}, identity);
    expect(a.params.model).to.equal(undefined);
    expect(requestOf(gemini("gemini-a"), a).model).to.equal("gemini-a");
    const b = requestOf(gemini("gemini-b"), chatParts(gemini("gemini-b"), [new HumanMessage("hi")], {}, identity));
    expect(requestHash("chat", b)).to.not.equal(requestHash("chat", requestOf(gemini("gemini-a"), a)));
  });

  it("of Azure OpenAI hold the deployment (the URL's, which decides the model), for AzureChatOpenAI and the AzureOpenAI LLM; no other client's move", () => {
    const azure = { azureOpenAIApiKey: "0123456789abcdef0123456789abcdef", azureOpenAIApiInstanceName: "my-instance", azureOpenAIApiVersion: "2024-10-21" };
    const chat = new AzureChatOpenAI({ ...azure, model: "gpt-4o", azureOpenAIApiDeploymentName: "gpt-4o-prod" });
    expect(chatParts(chat, [new HumanMessage("hi")], {}, identity).params).to.deep.equal({ deployment: "gpt-4o-prod", model: "gpt-4o" });
    const llm = new AzureOpenAI({ ...azure, model: "gpt-35-turbo-instruct", azureOpenAIApiDeploymentName: "instruct-eu" });
    expect(llm._llmType(), "the Azure LLM names itself openai: the deployment is read by field, not by client name").to.equal("openai");
    expect(llmParts(llm, "hi", {}, identity).params.deployment).to.equal("instruct-eu");
    const open = chatParts(new ChatOpenAI({ model: "gpt-4o", apiKey: "test-key-not-a-secret" }), [new HumanMessage("hi")], {}, identity).params;
    expect(open).to.deep.equal({ model: "gpt-4o" });
  });

  it("are plain JSON: a Date in an invalid tool call's args is its ISO string (what JSON sends), so two Dates are two requests", () => {
    const history = (at: Date) => [
      new HumanMessage("q"),
      new AIMessage({ content: "", invalid_tool_calls: [{ name: "t", id: "1", error: "bad json", args: at as unknown as string }] }),
    ];
    const m = model({ model: "m" });
    const [early, late] = [new Date(0), new Date(86_400_000)].map((d) => requestOf(m, chatParts(m, history(d), {}, identity)));
    const args = (r: Record<string, unknown>) => (r.messages as { invalid_tool_calls?: { args: unknown }[] }[])[1].invalid_tool_calls![0].args;
    expect(args(early)).to.equal(new Date(0).toISOString());
    expect(requestHash("chat", early)).to.not.equal(requestHash("chat", late));
    expect(requestHash("chat", early)).to.equal(requestHash("chat", JSON.parse(JSON.stringify(early)))); // the hash it had when the Date went through
  });

  it("of a text completion hold the normalized prompt", () => {
    const m = model({ model: "gpt-3.5-turbo-instruct" });
    const parts = llmParts(m, "Say 2024-01-01", {}, (t) => t.replace(/\d{4}-\d\d-\d\d/g, "<date>"));
    expect(requestOf(m, parts)).to.deep.equal({ model: "gpt-3.5-turbo-instruct", prompt: "Say <date>" });
  });
});
