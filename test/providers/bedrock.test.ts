/** ChatBedrockConverse and BedrockEmbeddings against a loopback Bedrock Runtime (HTTP/2, Converse JSON, binary event-stream). */
import { expect } from "chai";
import { HumanMessage } from "@langchain/core/messages";
import { IMAGE, WEATHER, CITY } from "./ops";
import { recordedRequest } from "./request";
import { bedrockClient, spec } from "./specs/bedrock";
import { describeErrors, describeKey, describeRecordReplay, type KeyCall } from "./suite";

const PNG_B = "data:image/png;base64," + Buffer.from("other-image-bytes").toString("base64");
const image = (url: string): KeyCall => (c) => c().invoke([new HumanMessage({ content: [{ type: "text", text: "?" }, { type: "image_url", image_url: { url } }] })]);
const thinking = (budget: number) => ({ additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: budget } }, maxTokens: 4096 });
const OTHER_CREDENTIALS = { accessKeyId: "AKIAOTHEROTHEROTHER1", secretAccessKey: "otherSecretKey/otherSecretKey+otherSecr1", sessionToken: "anotherSessionTokenValue0000" };

describe("ChatBedrockConverse (Converse JSON, ConverseStream event-stream, over HTTP/2)", () => {
  describeRecordReplay(spec);
  describeErrors(spec);
  describeKey(
    spec,
    {
      temperature: [(c) => c({ temperature: 0 }).invoke("x"), (c) => c({ temperature: 0.5 }).invoke("x")],
      topP: [(c) => c({ topP: 0.5 }).invoke("x"), (c) => c({ topP: 0.9 }).invoke("x")],
      "top_k (additionalModelRequestFields)": [(c) => c({ additionalModelRequestFields: { top_k: 5 } }).invoke("x"), (c) => c({ additionalModelRequestFields: { top_k: 50 } }).invoke("x")],
      maxTokens: [(c) => c({ maxTokens: 100 }).invoke("x"), (c) => c({ maxTokens: 200 }).invoke("x")],
      "stop sequences": [(c) => c().invoke("x", { stop: ["a"] }), (c) => c().invoke("x", { stop: ["b"] })],
      "thinking budget": [(c) => c(thinking(1024)).invoke("x"), (c) => c(thinking(2048)).invoke("x")],
      "tool choice": [(c) => c().bindTools!([WEATHER], { tool_choice: "auto" }).invoke("x"), (c) => c().bindTools!([WEATHER], { tool_choice: "any" }).invoke("x")],
      "response schema": [
        (c) => c().withStructuredOutput(CITY, { name: "city_answer" }).invoke("x").catch(() => undefined),
        (c) => c().withStructuredOutput(CITY.extend({ country: CITY.shape.city }), { name: "city_answer" }).invoke("x").catch(() => undefined),
      ],
      "guardrail config": [(c) => c({ guardrailConfig: { guardrailIdentifier: "g1", guardrailVersion: "1" } }).invoke("x"), (c) => c({ guardrailConfig: { guardrailIdentifier: "g2", guardrailVersion: "1" } }).invoke("x")],
      "image bytes": [image(IMAGE), image(PNG_B)],
      "model id": [(c) => c().invoke("x"), (c) => c({ model: "anthropic.claude-3-5-sonnet-20240620-v1:0" }).invoke("x")],
    },
    {
      "other AWS credentials and session token, another region and endpoint": [
        (c) => c().invoke("x"),
        (c, url) => c({ region: "eu-west-1", client: bedrockClient(url, "eu-west-1", OTHER_CREDENTIALS) }).invoke("x"),
      ],
    },
  );
  it("an empty stop list is not in the key; maxTokens is, under inferenceConfig", async () => {
    const request = await recordedRequest(spec, (c) => c({ maxTokens: 64 }).invoke("x", { stop: [] }));
    expect(request.inferenceConfig).to.deep.equal({ maxTokens: 64 });
  });
});
