/** ChatBedrockConverse and BedrockEmbeddings against a loopback Bedrock Runtime (HTTP/2, Converse JSON, binary event-stream). */
import { expect } from "chai";
import { fieldPairs, SAMPLING, sharedBusts } from "./keyTables";
import { recordedRequest } from "./request";
import { bedrockClient, spec } from "./specs/bedrock";
import { describeProvider } from "./suite";

const thinking = (budget_tokens: number) => ({ additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens } }, maxTokens: 4096 });
const guardrail = (guardrailIdentifier: string) => ({ guardrailConfig: { guardrailIdentifier, guardrailVersion: "1" } });
const OTHER_CREDENTIALS = {
  accessKeyId: "AKIAOTHEROTHEROTHER1",
  secretAccessKey: "otherSecretKey/otherSecretKey+otherSecr1",
  sessionToken: "anotherSessionTokenValue0000",
};

describeProvider(
  "ChatBedrockConverse (Converse JSON, ConverseStream event-stream, over HTTP/2)",
  spec,
  {
    busts: {
      ...SAMPLING,
      ...fieldPairs({
        "top_k (additionalModelRequestFields)": [{ additionalModelRequestFields: { top_k: 5 } }, { additionalModelRequestFields: { top_k: 50 } }],
        maxTokens: [{ maxTokens: 100 }, { maxTokens: 200 }],
        "thinking budget": [thinking(1024), thinking(2048)],
        "guardrail config": [guardrail("g1"), guardrail("g2")],
        "model id": [{}, { model: "anthropic.claude-3-5-sonnet-20240620-v1:0" }],
      }),
      ...sharedBusts({ stop: true, toolChoices: ["auto", "any"], images: true }),
    },
    same: {
      "other AWS credentials and session token, another region and endpoint": [
        (c) => c().invoke("x"),
        (c, url) => c({ region: "eu-west-1", client: bedrockClient(url, "eu-west-1", OTHER_CREDENTIALS) }).invoke("x"),
      ],
    },
  },
  () => {
    it("an empty stop list is not in the key; maxTokens is, under inferenceConfig", async () => {
      const request = await recordedRequest(spec, (c) => c({ maxTokens: 64 }).invoke("x", { stop: [] }));
      expect(request.inferenceConfig).to.deep.equal({ maxTokens: 64 });
    });
  },
);
