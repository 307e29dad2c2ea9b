/** ChatMistralAI against a loopback Mistral API (chat completions + SSE, 9-character tool-call ids). */
import { expect } from "chai";
import { fieldPairs, SAMPLING, sharedBusts } from "./keyTables";
import { recordedRequest } from "./request";
import { spec } from "./specs/mistral";
import { describeProvider } from "./suite";

describeProvider(
  "ChatMistralAI (chat completions: JSON, SSE)",
  spec,
  {
    busts: {
      ...SAMPLING,
      ...fieldPairs({
        "max tokens (maxTokens)": [{ maxTokens: 100 }, { maxTokens: 200 }],
        "random seed": [{ seed: 1 }, { seed: 2 }],
        "safe prompt on": [{}, { safePrompt: true }],
        "presence penalty": [{ presencePenalty: 0.1 }, { presencePenalty: 0.2 }],
        "model name": [{}, { model: "mistral-large-latest" }],
      }),
      ...sharedBusts({ stop: false, toolChoices: ["auto", "any"], images: true }),
    },
    same: {
      "two API keys": [(c) => c().invoke("x"), (c) => c({ apiKey: "another-mistral-key-0123456789abcdef" }).invoke("x")],
      "base URL and port (the second call goes to another server)": [(c) => c().invoke("x"), (c) => c().invoke("x")],
      "stop sequences (ChatMistralAI does not send them)": [(c) => c().invoke("x", { stop: ["a"] }), (c) => c().invoke("x", { stop: ["b"] })],
    },
  },
  () => {
    it("the key holds the client's defaults that are sent (temperature, top_p), not `safePrompt: false`", async () => {
      const request = await recordedRequest(spec, (c) => c().invoke("x"));
      expect(request.temperature).to.equal(0.7);
      expect(request.top_p).to.equal(1);
      expect(request).not.to.have.property("safePrompt");
    });
  },
);
