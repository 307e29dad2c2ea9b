/** ChatGoogleGenerativeAI and GoogleGenerativeAIEmbeddings against a loopback Gemini API (JSON, SSE, functionCall, safety ratings). */
import { expect } from "chai";
import { fieldPairs, SAMPLING, sharedBusts } from "./keyTables";
import { recordedRequest } from "./request";
import { spec } from "./specs/google";
import { describeProvider } from "./suite";

const harassment = (threshold: string) => [{ category: "HARM_CATEGORY_HARASSMENT", threshold }];

describeProvider(
  "ChatGoogleGenerativeAI (generateContent, streamGenerateContent?alt=sse, functionCall)",
  spec,
  {
    busts: {
      ...SAMPLING,
      ...fieldPairs({
        topK: [{ topK: 5 }, { topK: 50 }],
        maxOutputTokens: [{ maxOutputTokens: 100 }, { maxOutputTokens: 200 }],
        stopSequences: [{ stopSequences: ["a"] }, { stopSequences: ["b"] }],
        "thinking budget (thinkingConfig)": [{ thinkingConfig: { thinkingBudget: 128 } }, { thinkingConfig: { thinkingBudget: 256 } }],
        "json mode": [{}, { json: true }],
        "safety settings": [{ safetySettings: harassment("BLOCK_ONLY_HIGH") }, { safetySettings: harassment("BLOCK_NONE") }],
        "model name": [{}, { model: "gemini-2.5-pro" }],
      }),
      ...sharedBusts({ stop: false, toolChoices: ["auto", "any"], images: true }),
    },
    same: {
      "two API keys": [(c) => c().invoke("x"), (c) => c({ apiKey: "AIzaANOTHERanotherANOTHERanother0000000" }).invoke("x")],
      "base URL and port, api version": [(c) => c().invoke("x"), (c) => c({ apiVersion: "v1beta" }).invoke("x")],
      "no safety settings vs []": [(c) => c().invoke("x"), (c) => c({ safetySettings: [] }).invoke("x")],
    },
  },
  () => {
    it("safety settings, which the client keeps out of invocationParams(), are in the key; the default `stopSequences: []` is not", async () => {
      const set = await recordedRequest(spec, (c) => c({ safetySettings: harassment("BLOCK_NONE") }).invoke("x"));
      expect(set.safetySettings).to.deep.equal(harassment("BLOCK_NONE"));
      const unset = await recordedRequest(spec, (c) => c().invoke("x"));
      expect(unset).not.to.have.property("safetySettings");
      expect(unset).not.to.have.property("generationConfig");
    });
  },
);
