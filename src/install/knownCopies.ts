/**
 * Each installed copy of the packages `install()` reaches by name (`knownPackages.ts`, found by
 * `packageDirs`) and, with `workspaces`, each package of an npm or yarn workspace: the places whose
 * copy of @langchain/core is patched, and whose integrations' Embeddings are wrapped, where nothing
 * sees what a module loads (ES modules: `integrations.ts`; jest's ES-module registry: `jestEsm.ts`).
 */
import { CORE_USERS, KNOWN_INTEGRATIONS } from "./knownPackages";
import { packageDirs } from "./packageDirs";
import { workspaceDirs } from "./workspaces";

export interface KnownCopy {
  /** The package's name (or "the workspace package"), for an error that names who uses a copy of core. */
  name: string;
  dir: string;
  /** One of KNOWN_INTEGRATIONS: its entry exports Embeddings classes. */
  integration: boolean;
}

/** The core users' copies, then the workspace packages, then the integrations' copies. */
export function knownCopies({ workspaces }: { workspaces: boolean }): KnownCopy[] {
  const copies: KnownCopy[] = [];
  for (const name of CORE_USERS) for (const dir of packageDirs(name, { workspaces })) copies.push({ name, dir, integration: false });
  // a workspace package's own models (its own subclass of core's classes) over a copy of core nested under it
  if (workspaces) for (const dir of workspaceDirs(process.cwd())) copies.push({ name: "the workspace package", dir, integration: false });
  for (const name of KNOWN_INTEGRATIONS) for (const dir of packageDirs(name, { workspaces })) copies.push({ name, dir, integration: true });
  return copies;
}
