/** ChatGoogleGenerativeAI and GoogleGenerativeAIEmbeddings against a loopback Gemini API (JSON, SSE, functionCall, safety ratings). */
import { expect } from "chai";
import { HumanMessage } from "@langchain/core/messages";
import { recordedRequest } from "./request";
import { IMAGE, WEATHER, CITY } from "./ops";
import { spec } from "./specs/google";
import { describeErrors, describeKey, describeRecordReplay, type KeyCall } from "./suite";

const PNG_B = "data:image/png;base64," + Buffer.from("other-image-bytes").toString("base64");
const image = (url: string): KeyCall => (c) => c().invoke([new HumanMessage({ content: [{ type: "text", text: "?" }, { type: "image_url", image_url: { url } }] })]);
const harassment = (threshold: string) => [{ category: "HARM_CATEGORY_HARASSMENT", threshold }];

describe("ChatGoogleGenerativeAI (generateContent, streamGenerateContent?alt=sse, functionCall)", () => {
  describeRecordReplay(spec);
  describeErrors(spec);
  describeKey(
    spec,
    {
      temperature: [(c) => c({ temperature: 0 }).invoke("x"), (c) => c({ temperature: 0.5 }).invoke("x")],
      topP: [(c) => c({ topP: 0.5 }).invoke("x"), (c) => c({ topP: 0.9 }).invoke("x")],
      topK: [(c) => c({ topK: 5 }).invoke("x"), (c) => c({ topK: 50 }).invoke("x")],
      maxOutputTokens: [(c) => c({ maxOutputTokens: 100 }).invoke("x"), (c) => c({ maxOutputTokens: 200 }).invoke("x")],
      stopSequences: [(c) => c({ stopSequences: ["a"] }).invoke("x"), (c) => c({ stopSequences: ["b"] }).invoke("x")],
      "thinking budget (thinkingConfig)": [(c) => c({ thinkingConfig: { thinkingBudget: 128 } }).invoke("x"), (c) => c({ thinkingConfig: { thinkingBudget: 256 } }).invoke("x")],
      "tool choice": [(c) => c().bindTools!([WEATHER], { tool_choice: "auto" }).invoke("x"), (c) => c().bindTools!([WEATHER], { tool_choice: "any" }).invoke("x")],
      "response schema": [
        (c) => c().withStructuredOutput(CITY).invoke("x").catch(() => undefined),
        (c) => c().withStructuredOutput(CITY.extend({ country: CITY.shape.city })).invoke("x").catch(() => undefined),
      ],
      "json mode": [(c) => c().invoke("x"), (c) => c({ json: true }).invoke("x")],
      "safety settings": [(c) => c({ safetySettings: harassment("BLOCK_ONLY_HIGH") }).invoke("x"), (c) => c({ safetySettings: harassment("BLOCK_NONE") }).invoke("x")],
      "image bytes": [image(IMAGE), image(PNG_B)],
      "model name": [(c) => c().invoke("x"), (c) => c({ model: "gemini-2.5-pro" }).invoke("x")],
    },
    {
      "two API keys": [(c) => c().invoke("x"), (c) => c({ apiKey: "AIzaANOTHERanotherANOTHERanother0000000" }).invoke("x")],
      "base URL and port, api version": [(c) => c().invoke("x"), (c) => c({ apiVersion: "v1beta" }).invoke("x")],
      "no safety settings vs []": [(c) => c().invoke("x"), (c) => c({ safetySettings: [] }).invoke("x")],
    },
  );
  it("safety settings, which the client keeps out of invocationParams(), are in the key; the default `stopSequences: []` is not", async () => {
    const set = await recordedRequest(spec, (c) => c({ safetySettings: harassment("BLOCK_NONE") }).invoke("x"));
    expect(set.safetySettings).to.deep.equal(harassment("BLOCK_NONE"));
    const unset = await recordedRequest(spec, (c) => c().invoke("x"));
    expect(unset).not.to.have.property("safetySettings");
    expect(unset).not.to.have.property("generationConfig");
  });
});
