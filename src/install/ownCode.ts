/**
 * What the embeddings scan (`embeddings.ts`) is told about a module whose exports it considers:
 * - whether it is the project's own code (outside node_modules): its getters are read too, since
 *   tsx, esbuild and SWC compile every export of a module to one. Decided from the file the
 *   module was loaded from wherever that is known, so a module reached through an alias (tsconfig
 *   `paths` with tsx or tsconfig-paths, jest's moduleNameMapper) counts as what it is, not as the
 *   bare name it was required by;
 * - whether it is still loading: a require cycle hands out a module's exports before its body has
 *   run to the end, and the scan looks again once it has.
 */
import { createRequire } from "node:module";
import * as path from "node:path";

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/** What the embeddings scan (`embeddings.ts`) is told about a module whose exports it considers. */
export interface ModuleFacts {
  /** A module of the project (outside node_modules): its enumerable getters are read too. */
  ownCode: boolean;
  /** false: the module is still loading (a require cycle reached it), so its exports are not all there yet. */
  loaded: boolean;
}

/** A module record as Node's and jest's `require.cache` hold it. */
export interface LoadedModule {
  filename?: unknown;
  exports?: unknown;
  loaded?: boolean;
}

/** Whether `file` is a module of the project itself: an absolute path outside node_modules. */
export function isOwnFile(file: unknown): boolean {
  return typeof file === "string" && path.isAbsolute(file) && !file.includes(NODE_MODULES);
}

/** What is known of a module from its record. */
export function factsOfModule(m: LoadedModule): ModuleFacts {
  return { ownCode: isOwnFile(m.filename), loaded: m.loaded !== false };
}

/**
 * The module that `request`, required by the file `from`, loaded, when only the request is known
 * (jest's registry; Node's, for a require with no parent): resolved as the runner resolves it
 * (under jest, `createRequire` is jest's own: moduleNameMapper included) and looked up in `cache`
 * (its `require.cache`). A package's own requires are not resolved (a cost on every module of
 * every package): their modules count as packages', loaded.
 */
export function factsOfRequest(request: string, from: unknown, cache: Record<string, LoadedModule | undefined>): ModuleFacts {
  if (!path.isAbsolute(request) && !isOwnFile(from)) return { ownCode: false, loaded: true };
  let file: string;
  try {
    file = path.isAbsolute(request) ? request : createRequire(from as string).resolve(request);
  } catch {
    return { ownCode: false, loaded: true }; // not resolvable from there: not a module the project can load by that name
  }
  return factsOfModule({ filename: file, loaded: cache[file]?.loaded });
}
