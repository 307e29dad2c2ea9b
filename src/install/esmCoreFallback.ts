/**
 * What `install()` does when `require()` could not load the ESM copy of @langchain/core that
 * string models (`initChatModel`, `createAgent({ model: "openai:…" })`) are built on: under
 * jest's module loader with --experimental-vm-modules, or on a Node before 20.19.
 *
 * - It wraps langchain's ConfigurableModel in every copy of `langchain` the project has
 *   (`configurableModel.ts`): every string model is built through it, and the wrapper loads and
 *   patches the ESM copy with `import()` first, or fails the call.
 * - Outside jest it also starts that `import()` at once, for ESM models built some other way
 *   (an `import()` of a provider or of langchain's own ESM build). Not under jest: a test file
 *   that ends before the import would make jest report an import after its environment was torn
 *   down; ESM test files under jest's VM modules are not supported.
 * - A langchain copy that cannot be wrapped (it lacks the method) is a VcrConfigError: install()
 *   refuses rather than leave that copy's string models live, and every install() after it too.
 * - Under jest, the fresh copies of langchain a module registry reset brings are wrapped as they
 *   are required (`jestRegistry.ts`).
 * - A note when neither route can work (under jest, with no copy of langchain to wrap).
 */
import { isVcrError } from "../errors";
import { log } from "../log";
import { nodeRequiresEsm, type UnloadedEsmCore } from "./esmCore";
import { underJest } from "./jestWhen";
import { patchEsmCoreLater } from "./esmCoreLater";
import { processWide } from "../processWide";
import { unwrappableError, wrapConfigurableModels } from "./configurableModel";
import { followStringModels } from "./jestRegistry";
import { jestCannotImport } from "./jestWhen";
import { inLoaderHooksThread } from "./hooksThread";

/** What the first call decided, in this process (under jest: this test file): every install() after it refuses too. */
const reached = processWide("esmCoreFallback.v1", () => ({ done: false, refusal: undefined as Error | undefined }));

export function reachEsmCoreLater(unloaded: UnloadedEsmCore): void {
  if (reached.done) {
    if (reached.refusal) throw reached.refusal;
    return;
  }
  reached.done = true;
  // no import() works there: initChatModel fails with jest's own error, no string model calls out
  if (jestCannotImport()) return;
  const { wrapped, problems } = wrapConfigurableModels(unloaded.coreDir);
  if (problems.length) throw (reached.refusal = unwrappableError(problems)); // a copy left unwrapped would build live string models
  if (wrapped && underJest()) followStringModels(unloaded.coreDir); // the copies of langchain a registry reset brings
  if (!underJest()) {
    patchEsmCoreLater(unloaded.coreDir).catch((e: Error) => {
      const text = isVcrError(e) ? e.message : esmCoreNote(e.message.split("\n")[0], process.version, process.env, process.execArgv);
      if (text) log.warn(text);
    });
    return;
  }
  if (wrapped) return;
  const note = esmCoreNote(unloaded.cause, process.version, process.env, process.execArgv);
  if (note) log.warn(note);
}

/**
 * What to say when the ESM copy of core can be reached by neither route: the cause is Node (before
 * 20.19 or 22.12, `require()` cannot load ES modules) or the module loader in use (jest's). Nothing
 * under jest without `--experimental-vm-modules`: there jest cannot `import()` a provider package
 * either, so initChatModel fails with jest's own error and no string model can call out.
 */
export function esmCoreNote(cause: string, nodeVersion: string, env: NodeJS.ProcessEnv, execArgv: readonly string[]): string | undefined {
  const jest = underJest(env);
  if (jestCannotImport(env, execArgv) || inLoaderHooksThread()) return undefined;
  const nodeCan = nodeRequiresEsm(nodeVersion);
  const where = nodeCan ? `under ${jest ? "jest's module loader" : "this process's module loader (not Node's own require)"}` : `on this Node (${nodeVersion})`;
  const fix = nodeCan ? "pass the model object itself" : "use Node 20.19+ (or 22.12+ on Node 22), or pass the model object itself";
  return (
    `note: vcr.install() could not load the ESM copy of @langchain/core (${cause}).\n` +
    `  Models that providers build from ES modules (initChatModel, createAgent with a "provider:model" string) are not recorded ${where}.\n` +
    `  Fix it: ${fix}: createAgent({ model: new ChatOpenAI({ …, cache: vcr.cache }) }).\n`
  );
}
