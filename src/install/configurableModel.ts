/**
 * langchain's `ConfigurableModel`, wrapped where `require()` could not load the ESM copy of
 * @langchain/core (`esmCoreFallback.ts`). Every model `initChatModel` builds (and so every
 * `createAgent({ model: "openai:…" })` model) is built by one async method of it,
 * `_getModelInstance`, on each call (invoke, stream, batch, streamEvents, the agent's calls).
 * Wrapped, it first loads and patches the ESM copy with `import()` (`esmCoreLater.ts`); when
 * that fails and the model can still be built, the call fails with a VcrConfigError instead of
 * reaching the provider unrecorded.
 */
import { VcrConfigError, isVcrError } from "../errors";
import { nodeRequiresEsm, quietly } from "./esmCore";
import { underJest } from "./jestWhen";
import { patchEsmCoreLater } from "./esmCoreLater";
import { testedVersion } from "../internals/version";
import { exportedFile } from "./packageJson";
import { dirResolvedFrom, packageDirs } from "./packageDirs";

/** On a wrapped prototype: registered, so both builds of langchain-vcr see it. */
const WRAPPED = Symbol.for("langchain-vcr.configurableModel.v1");

/** The langchain internal relied on (listed in `internals/table.ts`). */
const METHOD = "_getModelInstance";

type Proto = Record<string | symbol, unknown>;

/**
 * Wraps ConfigurableModel in every copy of `langchain` the project has, loaded with `require()`
 * (through the runner's registry, if it has one), each over the copy of core it resolves
 * (`coreDir` when it resolves none). `problems`: the copies that could not be wrapped, and why.
 */
export function wrapConfigurableModels(coreDir: string): { wrapped: number; problems: string[] } {
  const problems: string[] = [];
  let wrapped = 0;
  for (const dir of packageDirs("langchain")) {
    const file = exportedFile(dir, "./chat_models/universal", "require");
    let proto: Proto | undefined;
    try {
      proto = file ? (quietly(() => require(file)) as { ConfigurableModel?: { prototype?: Proto } }).ConfigurableModel?.prototype : undefined;
    } catch (e) {
      problems.push(`${file}: ${(e as Error).message.split("\n")[0]}`);
      continue;
    }
    if (!wrapConfigurableModel(proto, dirResolvedFrom(dir, "@langchain/core") ?? coreDir)) {
      problems.push(`langchain in ${dir} has no ConfigurableModel.prototype.${METHOD}`);
      continue;
    }
    wrapped++;
  }
  return { wrapped, problems };
}

/** Wraps one copy's ConfigurableModel (`proto`, its prototype) over the ESM copy of core in `coreDir`; false when it has no `_getModelInstance`. */
export function wrapConfigurableModel(proto: Proto | undefined, coreDir: string): boolean {
  if (typeof proto?.[METHOD] !== "function") return false;
  if (proto[WRAPPED]) return true; // by the other build of langchain-vcr, or an install() before
  const build = proto[METHOD] as (this: unknown, ...args: unknown[]) => Promise<unknown>;
  const wrapped = async function (this: unknown, ...args: unknown[]): Promise<unknown> {
    const failed = await patchEsmCoreLater(coreDir).then(
      () => undefined,
      (e: Error) => e,
    );
    // not loadable: as a rule the model cannot be built either, and that error is the one to see
    const model = await build.apply(this, args);
    if (failed) throw isVcrError(failed) ? failed : unreachedError(failed, coreDir, model);
    return model;
  };
  Object.defineProperty(proto, METHOD, { value: wrapped, writable: true, configurable: true });
  Object.defineProperty(proto, WRAPPED, { value: true });
  return true;
}

/**
 * A copy of `langchain` whose ConfigurableModel could not be wrapped (no `_getModelInstance`, or
 * its module failed to load): its string models would be built on an unpatched ESM copy of core
 * and reach the provider unrecorded, so install() refuses.
 */
export function unwrappableError(problems: readonly string[]): VcrConfigError {
  const where = underJest() ? "under jest's module loader" : `in this process (Node ${process.version})`;
  return new VcrConfigError(
    `vcr.install() cannot cover string models (initChatModel, createAgent with a "provider:model" string) with this langchain: ${problems.join("; ")}.\n` +
      `  require() cannot load the ESM copy of @langchain/core ${where}, so install() reaches it through ConfigurableModel.prototype.${METHOD}, which builds every initChatModel model; without it a string model could reach the provider unrecorded, so nothing is installed.\n` +
      `  Nearest: a model object passed itself with \`cache: vcr.cache\` is built on the CommonJS copy, which langchain-vcr has patched; it needs no install().\n` +
      `  Fix it: install the langchain langchain-vcr is tested with: npm install langchain@${testedVersion("langchain")} (\`npm ls langchain\` shows every copy)${nodeRequiresEsm() ? "" : ", or use Node 20.19+ (22.12+ on Node 22)"}.`,
  );
}

function unreachedError(cause: Error, coreDir: string, model: unknown): VcrConfigError {
  const name = (model as { constructor?: { name?: string } } | null)?.constructor?.name ?? "a model";
  return new VcrConfigError(
    `a ${name} from initChatModel (createAgent with a "provider:model" string) cannot be recorded or replayed: the ESM copy of @langchain/core it is built on could not be loaded, so langchain-vcr could not patch it, and the call was not made.\n` +
      `  copy: ${coreDir} (ES modules); loading it failed: ${cause.message.split("\n")[0]}; Node ${process.version}${underJest() ? ", under jest" : ""}.\n` +
      `  Nearest: a model object passed itself is built on the CommonJS copy, which langchain-vcr has patched.\n` +
      `  Fix it: pass the model object: createAgent({ model: new ChatOpenAI({ model: "gpt-4o-mini" }) }) (install() records it)${nodeRequiresEsm() ? "" : ", or use Node 20.19+ (22.12+ on Node 22)"}.`,
    { cause },
  );
}
