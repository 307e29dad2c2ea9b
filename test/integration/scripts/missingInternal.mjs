// ESM twin of missingInternal.cjs: renames INTERNAL in the ESM copy of @langchain/core, then
// imports the built ESM entry (which patches that copy) and builds a Vcr.
import { BaseLLM } from "@langchain/core/language_models/llms";
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
const classes = { BaseChatModel, BaseLLM };
const [owner, name] = process.env.INTERNAL.split(".");
const proto = classes[owner].prototype;
proto[`${name}Renamed`] = proto[name];
delete proto[name];
const { Vcr } = await import(process.env.VCR_ENTRY);
const report = { steps: [] };
try {
  new Vcr({ dir: process.env.FIXTURE_DIR, mode: "replay_only" });
  report.steps.push("vcr");
} catch (e) {
  report.error = { name: e.name, code: e.code, message: e.message };
}
console.log(JSON.stringify(report));
