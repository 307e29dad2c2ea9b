import { expect } from "chai";
import { HumanMessage } from "@langchain/core/messages";
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

  it("of a text completion hold the normalized prompt", () => {
    const m = model({ model: "gpt-3.5-turbo-instruct" });
    const parts = llmParts(m, "Say 2024-01-01", {}, (t) => t.replace(/\d{4}-\d\d-\d\d/g, "<date>"));
    expect(requestOf(m, parts)).to.deep.equal({ model: "gpt-3.5-turbo-instruct", prompt: "Say <date>" });
  });
});
