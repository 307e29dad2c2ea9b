/**
 * State that must be one per process, not one per copy of langchain-vcr. The package ships
 * two builds (dist/cjs for `require`, dist/esm for `import`), and one process can load both:
 * a runner plugin loaded as CommonJS with ESM test files, say. Each build has its own module
 * instances, so module-level state would be split in two; this keeps it on `globalThis` under
 * a registered symbol, found by either copy. `name` includes a version: a layout change is a
 * new name, so two different versions of the package never read each other's state.
 */
export function processWide<T extends object>(name: string, init: () => T): T {
  const g = globalThis as unknown as Record<symbol, T | undefined>;
  return (g[Symbol.for(`langchain-vcr.${name}`)] ??= init());
}

/**
 * False in the CommonJS build; scripts/build.mjs sets it to true in the ESM build. (A runtime
 * test such as `typeof module` would not do: vitest runs ES modules it transforms with
 * `module`, `require` and `exports` defined.)
 */
const ESM_BUILD = false;

/** True in the ESM build, false in the CommonJS one. */
export function isEsmBuild(): boolean {
  return ESM_BUILD;
}
