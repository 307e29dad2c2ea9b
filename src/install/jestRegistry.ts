/**
 * jest runs every module in its own registry, one per test file, and can swap it for a fresh
 * one in the middle of a file: `resetModules: true` in the config (before every test),
 * `jest.resetModules()`, `jest.isolateModules()`. What a test requires after that is a fresh
 * copy of @langchain/core and of the provider packages: classes langchain-vcr never patched.
 * With `vcr.install()`, their models would call the provider unrecorded, under `replay_only`
 * too (measured: a test file with `resetModules: true` recorded 0 fixtures and made 2 live calls
 * under `CI=true`).
 *
 * So langchain-vcr follows the test file's jest runtime: every module it loads for a `require`
 * passes through `afterLoad`, which patches a copy of core the first time one of its modules is
 * required by name (a provider's `require("@langchain/core/…")`), and, while a Vcr is installed,
 * hands the module's exports to the embeddings scan, as Node's `Module._load` hook does outside
 * jest (`embeddings.ts`).
 *
 * The runtime is jest's own object (jest-runtime's `Runtime`, 29 and 30), reached through Node's
 * module cache, which jest's `module` shim exposes; its `requireModule(from, name)` is what every
 * `require` of a real module (not a `jest.mock`) ends in. Where it cannot be found, a note says
 * that a registry reset is not followed.
 */
import { installedVcr } from "../internals/state";
import { log } from "../log";
import { knownCopy, patchCoreCopy, type PatchableCore } from "../patches";
import { processWide } from "../processWide";
import * as path from "node:path";
import { unwrappableError, wrapConfigurableModel } from "./configurableModel";
import { otherCopyAt } from "./coreCopies";
import { scanExports } from "./embeddings";
import { forgetEsmCoreLater } from "./esmCoreLater";
import { forgetJestEsm } from "./jestEsmState";
import { FILES } from "./esmCore";
import { underJest } from "./jestWhen";
import { currentRuntime, replaceOwnMethod, type RuntimeLike } from "./jestRuntime";
import { dirResolvedFrom } from "./packageDirs";
import { factsOfRequest } from "./ownCode";

/**
 * The runtime followed; and, once install() has wrapped langchain's ConfigurableModel
 * (`esmCoreFallback.ts`), the ESM copy of core its string models are built on.
 */
const followed = processWide("jestRegistry.v3", () => ({
  runtime: undefined as object | undefined,
  stringModels: undefined as { coreDir: string } | undefined,
  resetsFollowed: false,
}));

/**
 * From now on, a copy of langchain a test requires after a registry reset has its
 * ConfigurableModel wrapped, and a reset forgets the ESM copy of core patched before it: jest's
 * ESM registry is reset too, and the provider a string model then imports extends a fresh one.
 */
export function followStringModels(coreDir: string): void {
  followed.stringModels = { coreDir };
  if (followed.runtime && !followed.resetsFollowed)
    log.warn(
      `note: langchain-vcr could not find jest's Runtime.prototype.resetModules, so it cannot tell when jest resets its ESM registry.\n` +
        `  A string model (createAgent with a "provider:model" string) built after a module registry reset would be built on an unpatched copy of @langchain/core and call the provider.\n` +
        `  Fix it: leave resetModules off for the tests that call string models, or pass createAgent a model object.\n`,
    );
}

/** Under jest, follows this test file's runtime from now on. */
export function followJestRegistry(): void {
  if (!underJest() || followed.runtime) return;
  const runtime = currentRuntime();
  if (!runtime) {
    log.warn(
      `note: langchain-vcr could not find jest's runtime (jest-runtime's Runtime.prototype.requireModule), so a module registry reset (resetModules, jest.resetModules(), jest.isolateModules()) is not followed.\n` +
        `  Models and embeddings from the copies of LangChain loaded after a reset are not recorded, and would call the provider.\n` +
        `  Fix it: leave resetModules off for the tests that call models, or give those models cache: vcr.cache from a copy loaded after the reset.\n`,
    );
    return;
  }
  followed.runtime = runtime;
  followResets(runtime);
  const original = runtime.requireModule;
  let busy = false;
  replaceOwnMethod(runtime, "requireModule", function (this: RuntimeLike, from: string, moduleName?: string, ...rest: unknown[]): unknown {
    const exports = original.call(this, from, moduleName, ...rest);
    if (!busy && typeof moduleName === "string") {
      busy = true;
      try {
        afterLoad((name) => original.call(this, from, name), from, moduleName, exports);
      } finally {
        busy = false;
      }
    }
    return exports;
  });
}

/**
 * `load`: requires a module by name as `from` (the requiring file) would. Throws (the test's
 * `require` fails), every time, for a copy that cannot be patched: what is built on it would
 * reach the provider.
 */
export function afterLoad(load: (name: string) => unknown, from: string, moduleName: string, exports: unknown): void {
  if (moduleName.startsWith("@langchain/core")) {
    const chatModel = (load("@langchain/core/language_models/chat_models") as { BaseChatModel?: object } | undefined)?.BaseChatModel;
    const known = knownCopy(chatModel);
    if (known !== undefined && known !== true) throw known;
    if (chatModel && known === undefined) {
      const coreDir = dirResolvedFrom(path.dirname(from), "@langchain/core");
      const broken = patchCoreCopy(
        Object.fromEntries(
          FILES.map(([name, subpath]) => [name, (load(`@langchain/core${subpath.slice(1)}`) as Record<string, unknown>)[name]]),
        ) as unknown as PatchableCore,
        coreDir ? otherCopyAt(coreDir, from) : undefined,
      );
      if (broken) throw broken;
    }
  }
  const stringModels = followed.stringModels;
  if (stringModels && /^langchain(\/|$)/.test(moduleName)) {
    const proto = (load("langchain/chat_models/universal") as { ConfigurableModel?: { prototype?: Record<string, unknown> } } | undefined)?.ConfigurableModel
      ?.prototype;
    if (!wrapConfigurableModel(proto, stringModels.coreDir))
      throw unwrappableError([`the langchain required as "${moduleName}" has no ConfigurableModel.prototype._getModelInstance`]);
  }
  // require.cache is jest's here (this module runs in the test file's sandbox): its module registry
  if (installedVcr()) scanExports(exports, () => factsOfRequest(moduleName, from, require.cache));
}

/** A reset (`resetModules: true` before each test, `jest.resetModules()`) also resets jest's ESM registry: the next string model imports a fresh ESM copy of core. */
function followResets(runtime: RuntimeLike): void {
  const reset = runtime.resetModules;
  if (typeof reset !== "function") return;
  followed.resetsFollowed = true;
  replaceOwnMethod(runtime, "resetModules", function (this: RuntimeLike, ...args: unknown[]): unknown {
    const out = reset.apply(this, args);
    if (followed.stringModels) forgetEsmCoreLater(followed.stringModels.coreDir);
    forgetJestEsm(); // the ES-module copies an ESM test file's imports get: reached again before the next test
    return out;
  });
}
