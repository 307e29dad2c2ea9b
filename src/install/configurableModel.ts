/**
 * The models `initChatModel` builds (and so `createAgent({ model: "openai:…" })`) when
 * `install()` could not load the ESM copy of @langchain/core with `require()`: under jest's
 * module loader with --experimental-vm-modules, or on a Node before 20.19. Their provider
 * package is loaded with `import()`, its classes extend that ESM copy, and left unpatched they
 * would call the provider, unrecorded, even under replay_only.
 *
 * Every such model is reached through one async method of langchain's `ConfigurableModel`,
 * `_getModelInstance`, which builds it (invoke, stream, the agent's calls). Wrapped, it first
 * loads the ESM copy with `import()` (the loader the provider's own `import()` goes through, so
 * the very same classes) and patches it. When that fails and the model can still be built,
 * the call fails with a VcrConfigError instead of going live.
 */
import { VcrConfigError } from "../errors";
import { log } from "../log";
import { esmCoreNote, jestCannotImport, patchEsmCoreLater, quietly, type UnloadedEsmCore } from "./esmCore";
import { exportedFile } from "./packageJson";
import { packageDirs } from "./packageDirs";

/** On a wrapped prototype: registered, so both builds of langchain-vcr see it. */
const WRAPPED = Symbol.for("langchain-vcr.configurableModel.v1");

/** The method of ConfigurableModel that builds its model. */
const METHOD = "_getModelInstance";

/**
 * Wraps ConfigurableModel in every copy of the `langchain` package the project has (loaded with
 * `require()`, through the runner's registry if it has one); the note of old when there is none
 * to wrap or it lacks the method. Nothing under jest without --experimental-vm-modules.
 */
export function reachStringModels(unloaded: UnloadedEsmCore): void {
  // initChatModel cannot load a provider there either: it fails with jest's own error, no call goes out
  if (jestCannotImport()) return;
  const problems: string[] = [];
  let wrapped = 0;
  for (const dir of packageDirs("langchain")) {
    const file = exportedFile(dir, "./chat_models/universal", "require");
    let ConfigurableModel: { prototype: Record<string | symbol, unknown> } | undefined;
    try {
      ConfigurableModel = file ? (quietly(() => require(file)) as { ConfigurableModel?: typeof ConfigurableModel }).ConfigurableModel : undefined;
    } catch (e) {
      problems.push(`${file}: ${(e as Error).message.split("\n")[0]}`);
      continue;
    }
    if (typeof ConfigurableModel?.prototype?.[METHOD] !== "function") {
      problems.push(`langchain in ${dir} has no ConfigurableModel.prototype.${METHOD}`);
      continue;
    }
    wrapConfigurableModel(ConfigurableModel.prototype, unloaded.coreDir);
    wrapped++;
  }
  if (wrapped) return;
  const note = esmCoreNote([unloaded.cause, ...problems].join("; "), process.version, process.env, process.execArgv);
  if (note) log.warn(note);
}

function wrapConfigurableModel(proto: Record<string | symbol, unknown>, coreDir: string): void {
  if (proto[WRAPPED]) return; // by the other build of langchain-vcr, or an install() before
  const build = proto[METHOD] as (this: unknown, ...args: unknown[]) => Promise<unknown>;
  const wrapped = async function (this: unknown, ...args: unknown[]): Promise<unknown> {
    const failed = await patchEsmCoreLater(coreDir).then(
      () => undefined,
      (e: Error) => e,
    );
    // not loadable: the model cannot be built either, as a rule (jest without
    // --experimental-vm-modules), and that error is the one to see
    const model = await build.apply(this, args);
    if (failed) throw failed instanceof VcrConfigError ? failed : unreachedError(failed);
    return model;
  };
  Object.defineProperty(proto, METHOD, { value: wrapped, writable: true, configurable: true });
  Object.defineProperty(proto, WRAPPED, { value: true });
}

function unreachedError(cause: Error): VcrConfigError {
  return new VcrConfigError(
    `vcr.install() could not load the ESM copy of @langchain/core that this model from initChatModel (createAgent with a "provider:model" string) is built on (${cause.message.split("\n")[0]}).\n` +
      `  So langchain-vcr cannot record or replay it, and the call was not made: it would have reached the provider unrecorded.\n` +
      `  Fix it: pass the model object itself: createAgent({ model: new ChatOpenAI({ …, cache: vcr.cache }) }).`,
  );
}
