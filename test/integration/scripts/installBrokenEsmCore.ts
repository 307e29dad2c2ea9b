/**
 * Child for install.brokenEsmCore.test.ts: a CommonJS process whose ESM copy of @langchain/core
 * lacks one relied-on internal (renamed before langchain-vcr loads; the CommonJS copy is
 * intact, so `new Vcr()` works), then `vcr.install()` and a string model from initChatModel
 * (an ESM provider model, built on the ESM copy) under replay_only. Prints a JSON report.
 */
import { esmFile, quietly } from "../../../src/install/esmCore";

const { BaseChatModel } = quietly(() => require(esmFile("@langchain/core", "./language_models/chat_models"))) as { BaseChatModel: { prototype: object } };
const proto = BaseChatModel.prototype as Record<string, unknown>;
proto._streamChatModelEventsRenamed = proto._streamChatModelEvents;
delete proto._streamChatModelEvents;

async function main(): Promise<void> {
  const report: { steps: string[]; error?: { name: string; code?: string; message: string } } = { steps: [] };
  try {
    const { Vcr } = require("../../../src/index") as typeof import("../../../src/index");
    const vcr = new Vcr({ dir: process.env.FIXTURE_DIR!, mode: "replay_only" });
    report.steps.push("vcr");
    const uninstall = vcr.install();
    report.steps.push("installed");

    const { initChatModel } = require("langchain/chat_models/universal") as typeof import("langchain/chat_models/universal");
    const model = await initChatModel("openai:gpt-4o-mini", { maxRetries: 0 });
    await model.invoke("hi").then(
      () => report.steps.push("answered"),
      (e: { code?: string; message: string }) => report.steps.push(e.code ?? e.message.split("\n")[0]),
    );
    uninstall();
  } catch (e) {
    const err = e as { name: string; code?: string; message: string };
    report.error = { name: err.name, code: err.code, message: err.message };
  }
  console.log(JSON.stringify(report));
}
void main();
