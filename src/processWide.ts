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

/** True in the ESM build (an ES module has no `module`), false in the CommonJS one. */
export function isEsmBuild(): boolean {
  return typeof module === "undefined";
}
