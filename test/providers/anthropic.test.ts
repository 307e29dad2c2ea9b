/** ChatAnthropic against a loopback Messages API (JSON + SSE, tool_use, thinking blocks). */
import { expect } from "chai";
import { fieldPairs, SAMPLING, sharedBusts } from "./keyTables";
import { recordedRequest } from "./request";
import { spec } from "./specs/anthropic";
import { describeProvider } from "./suite";

const thinking = (budget_tokens: number) => ({ thinking: { type: "enabled", budget_tokens }, maxTokens: 4096 });

describeProvider(
  "ChatAnthropic (Messages API: JSON, SSE, tool_use, thinking)",
  spec,
  {
    busts: {
      ...SAMPLING,
      ...fieldPairs({
        top_k: [{ topK: 5 }, { topK: 50 }],
        "max_tokens (maxTokens)": [{ maxTokens: 100 }, { maxTokens: 200 }],
        "max_tokens: the default vs a set value": [{}, { maxTokens: 100 }],
        "thinking budget": [thinking(1024), thinking(2048)],
        "thinking on vs off": [{ maxTokens: 4096 }, thinking(1024)],
        "betas the user set": [{}, { betas: ["context-1m-2025-08-07"] }],
        "model name": [{}, { model: "claude-sonnet-4-5" }],
      }),
      ...sharedBusts({ stop: true, toolChoices: ["auto", "any"], images: true }),
    },
    same: {
      "two API keys (apiKey, anthropicApiKey)": [
        (c) => c().invoke("x"),
        (c) => c({ apiKey: undefined, anthropicApiKey: "sk-ant-api03-another-key-bbbbbbbbbbbbbbbbbbbb" }).invoke("x"),
      ],
      "base URL and port, headers, clientOptions": [
        (c) => c().invoke("x"),
        (c) => c({ clientOptions: { defaultHeaders: { "x-team": "a" }, timeout: 5000 } }).invoke("x"),
      ],
    },
  },
  () => {
    it("the key holds the default max_tokens (it is sent and it matters), never the default `betas: []`", async () => {
      const request = await recordedRequest(spec, (c) => c().invoke("x"));
      expect(request.max_tokens).to.be.a("number");
      expect(request).not.to.have.property("betas");
    });
  },
);
