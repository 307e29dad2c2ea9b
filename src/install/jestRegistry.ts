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
import * as nodeModule from "node:module"; // a namespace import: the bundle reads the module itself (jest hands its own shim)
import { installedVcr } from "../internals/state";
import { log } from "../log";
import { patchCoreCopy, type PatchableCore } from "../patches";
import { processWide } from "../processWide";
import { scanExports } from "./embeddings";
import { FILES, underJest } from "./esmCore";

type RequireModule = (this: RuntimeLike, from: string, moduleName?: string, ...rest: unknown[]) => unknown;
interface RuntimeLike {
  requireModule: RequireModule;
}

/** The CommonJS copies of core seen here (their BaseChatModel), each patched once. */
const followed = processWide("jestRegistry.v1", () => ({ runtime: undefined as object | undefined, copies: new WeakSet<object>() }));

/** Under jest, follows this test file's runtime from now on; `core` is the copy patched at import. */
export function followJestRegistry(core: { BaseChatModel: object }): void {
  if (!underJest() || followed.runtime) return;
  followed.copies.add(core.BaseChatModel);
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
  const original = runtime.requireModule;
  let busy = false;
  Object.defineProperty(runtime, "requireModule", {
    configurable: true,
    writable: true,
    value: function (this: RuntimeLike, from: string, moduleName?: string, ...rest: unknown[]): unknown {
      const exports = original.call(this, from, moduleName, ...rest);
      if (!busy && typeof moduleName === "string") {
        busy = true;
        try {
          afterLoad((name) => original.call(this, from, name), moduleName, exports);
        } finally {
          busy = false;
        }
      }
      return exports;
    },
  });
}

/** `load`: requires a module by name as the requiring file would. */
function afterLoad(load: (name: string) => unknown, moduleName: string, exports: unknown): void {
  if (moduleName.startsWith("@langchain/core")) {
    const chatModel = (load("@langchain/core/language_models/chat_models") as { BaseChatModel?: object } | undefined)?.BaseChatModel;
    if (chatModel && !followed.copies.has(chatModel)) {
      followed.copies.add(chatModel);
      patchCoreCopy(
        Object.fromEntries(
          FILES.map(([name, subpath]) => [name, (load(`@langchain/core${subpath.slice(1)}`) as Record<string, unknown>)[name]]),
        ) as unknown as PatchableCore,
      );
    }
  }
  if (installedVcr()) scanExports(exports);
}

/**
 * This test file's jest runtime: jest's `module` shim copies Node's `Module._cache` (which holds
 * jest-runtime, loaded outside the test's sandbox); for a moment `Runtime.prototype.requireModule`
 * notes the object it is called on, while this module requires a built-in.
 */
function currentRuntime(): RuntimeLike | undefined {
  const cache = (nodeModule as unknown as { _cache?: Record<string, { exports?: unknown } | undefined> })._cache ?? {};
  const file = Object.keys(cache).find((k) => /[\\/]jest-runtime[\\/]build[\\/]index\.js$/.test(k));
  const exported = file ? (cache[file]?.exports as { default?: unknown } | undefined) : undefined;
  const proto = ((exported?.default ?? exported) as { prototype?: RuntimeLike } | undefined)?.prototype;
  if (!proto || typeof proto.requireModule !== "function") return undefined;
  const original = proto.requireModule;
  const seen: RuntimeLike[] = [];
  proto.requireModule = function (this: RuntimeLike, ...args: Parameters<RequireModule>) {
    seen.push(this);
    return original.apply(this, args);
  };
  try {
    require("node:os");
  } finally {
    proto.requireModule = original;
  }
  return seen[0];
}
