/**
 * Which loaded modules are the project's own code (outside node_modules): the embeddings scan
 * reads their getters too (`embeddings.ts`), since tsx, esbuild and SWC compile every export of a
 * module to one. Decided from the file a module was loaded from wherever that is known, so a
 * module reached through an alias (tsconfig `paths` with tsx or tsconfig-paths, jest's
 * moduleNameMapper) counts as what it is, not as the bare name it was required by.
 */
import { createRequire } from "node:module";
import * as path from "node:path";

const NODE_MODULES = `${path.sep}node_modules${path.sep}`;

/** Whether `file` is a module of the project itself: an absolute path outside node_modules. */
export function isOwnFile(file: unknown): boolean {
  return typeof file === "string" && path.isAbsolute(file) && !file.includes(NODE_MODULES);
}

/**
 * Whether `request`, required by the file `from`, names a module of the project when the file it
 * was loaded from is not known (jest's registry): a path outside node_modules, a path relative to
 * a module of the project, or a bare name that resolves to one. Under jest, `createRequire` is
 * jest's own, which resolves as its registry does (moduleNameMapper included).
 */
export function isOwnRequest(request: string, from: unknown): boolean {
  if (path.isAbsolute(request)) return isOwnFile(request);
  if (!isOwnFile(from)) return false;
  if (request.startsWith(".")) return !request.includes("node_modules");
  try {
    return isOwnFile(createRequire(from as string).resolve(request));
  } catch {
    return false; // not resolvable from there: not a module the project can load by that name
  }
}
