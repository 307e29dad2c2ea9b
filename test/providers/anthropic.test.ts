/** ChatAnthropic against a loopback Messages API (JSON + SSE, tool_use, thinking blocks). */
import { expect } from "chai";
import { HumanMessage } from "@langchain/core/messages";
import { recordedRequest } from "./request";
import { IMAGE, WEATHER, CITY } from "./ops";
import { spec } from "./specs/anthropic";
import { describeErrors, describeKey, describeRecordReplay, type KeyCall } from "./suite";

const PNG_B = "data:image/png;base64," + Buffer.from("other-image-bytes").toString("base64");
const image = (url: string): KeyCall => (c) => c().invoke([new HumanMessage({ content: [{ type: "image_url", image_url: { url } }] })]);

describe("ChatAnthropic (Messages API: JSON, SSE, tool_use, thinking)", () => {
  describeRecordReplay(spec);
  describeErrors(spec);
  describeKey(
    spec,
    {
      temperature: [(c) => c({ temperature: 0 }).invoke("x"), (c) => c({ temperature: 0.5 }).invoke("x")],
      top_p: [(c) => c({ topP: 0.5 }).invoke("x"), (c) => c({ topP: 0.9 }).invoke("x")],
      top_k: [(c) => c({ topK: 5 }).invoke("x"), (c) => c({ topK: 50 }).invoke("x")],
      "max_tokens (maxTokens)": [(c) => c({ maxTokens: 100 }).invoke("x"), (c) => c({ maxTokens: 200 }).invoke("x")],
      "max_tokens: the default vs a set value": [(c) => c().invoke("x"), (c) => c({ maxTokens: 100 }).invoke("x")],
      "stop sequences": [(c) => c().invoke("x", { stop: ["a"] }), (c) => c().invoke("x", { stop: ["b"] })],
      "thinking budget": [
        (c) => c({ thinking: { type: "enabled", budget_tokens: 1024 }, maxTokens: 4096 }).invoke("x"),
        (c) => c({ thinking: { type: "enabled", budget_tokens: 2048 }, maxTokens: 4096 }).invoke("x"),
      ],
      "thinking on vs off": [(c) => c({ maxTokens: 4096 }).invoke("x"), (c) => c({ thinking: { type: "enabled", budget_tokens: 1024 }, maxTokens: 4096 }).invoke("x")],
      tool_choice: [(c) => c().bindTools!([WEATHER], { tool_choice: "auto" }).invoke("x"), (c) => c().bindTools!([WEATHER], { tool_choice: "any" }).invoke("x")],
      "response schema": [
        (c) => c().withStructuredOutput(CITY, { name: "city_answer" }).invoke("x").catch(() => undefined),
        (c) => c().withStructuredOutput(CITY.extend({ country: CITY.shape.city }), { name: "city_answer" }).invoke("x").catch(() => undefined),
      ],
      "betas the user set": [(c) => c().invoke("x"), (c) => c({ betas: ["context-1m-2025-08-07"] }).invoke("x")],
      "image bytes": [image(IMAGE), image(PNG_B)],
      "model name": [(c) => c().invoke("x"), (c) => c({ model: "claude-sonnet-4-5" }).invoke("x")],
    },
    {
      "two API keys (apiKey, anthropicApiKey)": [(c) => c().invoke("x"), (c) => c({ apiKey: undefined, anthropicApiKey: "sk-ant-api03-another-key-bbbbbbbbbbbbbbbbbbbb" }).invoke("x")],
      "base URL and port, headers, clientOptions": [(c) => c().invoke("x"), (c) => c({ clientOptions: { defaultHeaders: { "x-team": "a" }, timeout: 5000 } }).invoke("x")],
    },
  );
  it("the key holds the default max_tokens (it is sent and it matters), never the default `betas: []`", async () => {
    const request = await recordedRequest(spec, (c) => c().invoke("x"));
    expect(request.max_tokens).to.be.a("number");
    expect(request).not.to.have.property("betas");
  });
});
