/**
 * Child for install.esmCore.test.ts: a CommonJS process, `vcr.install()` under the mode in MODE,
 * then a string model from initChatModel (an ESM provider model, built on the ESM copy of
 * @langchain/core) asked one question. BREAK=1 first renames one relied-on internal of the ESM
 * copy (the CommonJS copy stays intact, so `new Vcr()` works). NO_BUILDER=1 first renames langchain's
 * `ConfigurableModel.prototype._getModelInstance` (what install() wraps where `require()` cannot
 * load the ESM copy), and calls install() twice. ESM=1 takes initChatModel from
 * langchain's ESM build, by `import()`, after `await uninstall.ready`. CALLS: the model's calls, in order (invoke, stream, batch;
 * default invoke). BLOCK=1 registers a loader hook that fails an `import()`
 * of core's ESM outputs file by its file URL (how langchain-vcr loads it), not by its package
 * name (how a provider imports it). Run with
 * --no-experimental-require-module, `require()` cannot load ES modules, as on a Node before
 * 20.19. Prints a JSON report.
 */
import { register } from "node:module";
import { pathToFileURL } from "node:url";
import { esmFile } from "../../../src/install/esmCore";

const BLOCKING_HOOK = `export async function resolve(specifier, context, next) {
  if (specifier.startsWith("file:") && specifier.includes("/@langchain/core/") && specifier.endsWith("/outputs.js")) {
    throw new Error("blocked by the test's loader: " + specifier);
  }
  return next(specifier, context);
}`;

async function main(): Promise<void> {
  const report: { steps: string[]; error?: { name: string; code?: string; message: string } } = { steps: [] };
  try {
    if (process.env.BLOCK) register(`data:text/javascript,${encodeURIComponent(BLOCKING_HOOK)}`);
    if (process.env.BREAK) {
      const url = pathToFileURL(esmFile("@langchain/core", "./language_models/chat_models")).href;
      const { BaseChatModel } = (await import(url)) as { BaseChatModel: { prototype: object } };
      const proto = BaseChatModel.prototype as Record<string, unknown>;
      proto._streamChatModelEventsRenamed = proto._streamChatModelEvents;
      delete proto._streamChatModelEvents;
    }
    if (process.env.NO_BUILDER) {
      const proto = (require("langchain/chat_models/universal") as { ConfigurableModel: { prototype: Record<string, unknown> } }).ConfigurableModel.prototype;
      proto._getModelInstanceRenamed = proto._getModelInstance;
      delete proto._getModelInstance;
    }
    const { Vcr } = require("../../../src/index") as typeof import("../../../src/index");
    const vcr = new Vcr({ dir: process.env.FIXTURE_DIR!, mode: process.env.MODE as "replay_only" });
    report.steps.push("vcr");
    if (process.env.NO_BUILDER) {
      try {
        vcr.install();
      } catch (e) {
        report.steps.push(`refused: ${(e as { code?: string }).code}`); // and again below, or the model goes live
      }
    }
    const uninstall = vcr.install();
    report.steps.push("installed");
    // code outside a test that takes a model from an ES module waits for what install() loads with import() (docs/zero-touch.md):
    // on Node 24 langchain's ESM build was loaded, and its model had answered live, before that import() had resolved
    if (process.env.ESM) await uninstall.ready;
    type Universal = typeof import("langchain/chat_models/universal");
    const { initChatModel } = process.env.ESM
      ? ((await import(pathToFileURL(esmFile("langchain", "./chat_models/universal")).href)) as Universal)
      : (require("langchain/chat_models/universal") as Universal);
    const model = await initChatModel("openai:gpt-4o-mini", { maxRetries: 0 });
    const question = "a question from app code";
    const calls: Record<string, () => Promise<string>> = {
      invoke: async () => String((await model.invoke(question)).content),
      stream: async () => {
        let text = "";
        for await (const chunk of await model.stream(question)) text += String(chunk.content);
        return text;
      },
      batch: async () => (await model.batch([question])).map((m) => String(m.content)).join(),
    };
    for (const name of (process.env.CALLS ?? "invoke").split(",")) {
      await calls[name]().then(
        (text) => report.steps.push(`answered: ${text}`),
        (e: { code?: string; message: string }) => report.steps.push(e.code ?? e.message.split("\n")[0], e.message),
      );
    }
    uninstall();
  } catch (e) {
    const err = e as { name: string; code?: string; message: string };
    report.error = { name: err.name, code: err.code, message: err.message };
  }
  console.log(JSON.stringify(report));
}
void main();
