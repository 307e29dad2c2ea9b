/** ChatGroq against a loopback Groq API (OpenAI-compatible chat completions + SSE, usage in x_groq). */
import { expect } from "chai";
import { fieldPairs, SAMPLING, sharedBusts } from "./keyTables";
import { recordedRequest } from "./request";
import { spec } from "./specs/groq";
import { describeProvider } from "./suite";

describeProvider(
  "ChatGroq (chat completions: JSON, SSE with x_groq usage)",
  spec,
  {
    busts: {
      ...SAMPLING,
      ...fieldPairs({
        "max tokens (max_completion_tokens)": [{ maxTokens: 100 }, { maxTokens: 200 }],
        "stop sequences (stopSequences)": [{ stopSequences: ["a"] }, { stopSequences: ["b"] }],
        "reasoning effort": [{ reasoningEffort: "low" }, { reasoningEffort: "high" }],
        "model name": [{}, { model: "llama-3.1-8b-instant" }],
      }),
      ...sharedBusts({ stop: true, toolChoices: ["auto", "required"], images: true }),
    },
    same: {
      "two API keys": [(c) => c().invoke("x"), (c) => c({ apiKey: "gsk_anotherANOTHERanotherANOTHERanotherANOTHERanother12" }).invoke("x")],
      "base URL and port, headers": [(c) => c().invoke("x"), (c) => c({ defaultHeaders: { "x-team": "a" } }).invoke("x")],
      // ChatGroq 1.3.1 lists reasoningFormat but its constructor never stores it: it is not sent, so it cannot key
      "reasoning format (not sent by ChatGroq 1.3.1)": [
        (c) => c({ reasoningFormat: "parsed" }).invoke("x"),
        (c) => c({ reasoningFormat: "hidden" }).invoke("x"),
      ],
    },
  },
  () => {
    it("the key holds the client's default temperature (it is sent), not the default `stop: []`; max_completion_tokens is keyed as max_tokens", async () => {
      const request = await recordedRequest(spec, (c) => c({ maxTokens: 64 }).invoke("x"));
      expect(request.temperature).to.equal(0.7);
      expect(request.max_tokens).to.equal(64);
      expect(request).not.to.have.property("stop");
    });
  },
);
