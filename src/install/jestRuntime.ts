/**
 * The test file's jest runtime (jest-runtime's `Runtime`, 29 and 30), found without loading
 * LangChain: `jestRegistry.ts` follows its registry resets, and `jestWhen.ts` asks it whether a
 * test file loads as an ES module.
 */
import { processWide } from "../processWide";
import * as nodeModule from "node:module"; // a namespace import: the bundle reads the module itself (jest hands its own shim)

export type RequireModule = (this: RuntimeLike, from: string, moduleName?: string, ...rest: unknown[]) => unknown;
export interface RuntimeLike {
  requireModule: RequireModule;
  resetModules?: (...args: unknown[]) => unknown;
  /** jest's own answer: `.mjs`, `"type": "module"` for `.js`, `extensionsToTreatAsEsm` for the rest. */
  unstable_shouldLoadAsEsm?: (modulePath: string) => boolean;
}

/**
 * This test file's jest runtime: jest's `module` shim copies Node's `Module._cache` (which holds
 * jest-runtime, loaded outside the test's sandbox, maybe more than one copy of it); for a moment
 * every copy's `Runtime.prototype.requireModule` notes the object it is called on, while this
 * module requires a built-in (one a test is unlikely to `jest.mock()`: a mocked module never
 * reaches `requireModule`, so the next is tried).
 */
export function currentRuntime(): RuntimeLike | undefined {
  // probed once per test file (the setup file and jestRegistry.ts both ask): its globals are the file's own
  const found = processWide("jestRuntime.v1", () => ({ runtime: probeRuntime() }));
  return found.runtime;
}

function probeRuntime(): RuntimeLike | undefined {
  const cache = (nodeModule as unknown as { _cache?: Record<string, { exports?: unknown } | undefined> })._cache ?? {};
  const protos = Object.keys(cache)
    .filter((k) => /[\\/]jest-runtime[\\/]build[\\/]index\.js$/.test(k))
    .map((file) => {
      const exported = cache[file]?.exports as { default?: unknown } | undefined;
      return ((exported?.default ?? exported) as { prototype?: RuntimeLike } | undefined)?.prototype;
    })
    .filter((proto): proto is RuntimeLike => typeof proto?.requireModule === "function");
  const seen: RuntimeLike[] = [];
  const originals = protos.map((proto) => {
    const original = proto.requireModule;
    proto.requireModule = function (this: RuntimeLike, ...args: Parameters<RequireModule>) {
      seen.push(this);
      return original.apply(this, args);
    };
    return original;
  });
  try {
    for (const probe of ["node:v8", "node:os", "node:util"]) {
      require(probe);
      if (seen.length) break;
    }
  } finally {
    protos.forEach((proto, i) => (proto.requireModule = originals[i]));
  }
  return seen[0];
}

/**
 * Gives `target` (a test file's runtime, or its ES-module loader) an own `name`, `method`, which
 * jest then calls instead of its class's: an own property, so no other runtime is touched (each
 * test file has its own), and configurable, as jest's own objects are.
 */
export function replaceOwnMethod(target: object, name: string, method: (...args: never[]) => unknown): void {
  Object.defineProperty(target, name, { configurable: true, writable: true, value: method });
}
