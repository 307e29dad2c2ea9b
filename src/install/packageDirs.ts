/**
 * Where a project has a package installed, for `install()` to load an integration that no test
 * has handed it: as langchain-vcr resolves it, as the working directory resolves it (a strict
 * layout such as pnpm's with `hoist=false` lets a package resolve only what it declares, and
 * langchain-vcr declares no integration), with `workspaces`, as each package of an npm or yarn
 * workspace resolves it (`workspaces.ts`: a workspace package may hold a copy of its own; only where
 * nothing else reaches what a module loads: ES modules), and every copy in the pnpm store that langchain-vcr or
 * one of those copies lives in (a workspace whose packages use different versions has one copy per version
 * there; with shared-workspace-lockfile=false each workspace package has a store of its own). Only
 * those stores: never one that merely sits in a directory above the project.
 */
import { createRequire } from "node:module";
import * as fs from "node:fs";
import * as path from "node:path";
import { workspaceDirs } from "./workspaces";

const STORE_SEGMENT = `${path.sep}node_modules${path.sep}.pnpm${path.sep}`;

export function packageDirs(name: string, { cwd = process.cwd(), workspaces = false }: { cwd?: string; workspaces?: boolean } = {}): string[] {
  const found = new Set<string>();
  const own = realDir(resolvedDir(name, (s) => require.resolve(s))); // written out: the ESM build defines require where it sees one called
  const local = dirResolvedFrom(cwd, name);
  const workspace = workspaces ? workspaceDirs(cwd).map((ws) => dirResolvedFrom(ws, name)) : [];
  for (const d of [own, local, ...workspace]) if (d) found.add(d);
  // a pnpm workspace package's own store, too (shared-workspace-lockfile=false: each package has one)
  const stores = new Set([ownDir(), own, local, ...workspace].map(storeOf).filter((s): s is string => s !== undefined));
  for (const store of stores) for (const d of storeCopies(store, name)) found.add(d);
  return [...found];
}

/** The real directory of package `name` as a package (or project) in `fromDir` resolves it. */
export function dirResolvedFrom(fromDir: string, name: string): string | undefined {
  return realDir(resolvedDir(name, (s) => createRequire(path.join(fromDir, "package.json")).resolve(s)));
}

let self: { dir: string | undefined } | undefined;

/** langchain-vcr's own real directory, found once: a package resolves its own name through its "exports". */
function ownDir(): string | undefined {
  self ??= { dir: realDir(resolvedDir("langchain-vcr", (s) => require.resolve(s))) };
  return self.dir;
}

function resolvedDir(name: string, resolve: (specifier: string) => string): string | undefined {
  try {
    return path.dirname(resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** `dir`'s real path, if it exists. */
export function realDir(dir: string | undefined): string | undefined {
  if (dir === undefined) return undefined;
  try {
    return fs.realpathSync(dir);
  } catch {
    return undefined;
  }
}

/** The `node_modules/.pnpm` directory a real path lies in, if it does. */
export function storeOf(real: string | undefined): string | undefined {
  const at = real?.lastIndexOf(STORE_SEGMENT) ?? -1;
  return at < 0 ? undefined : real!.slice(0, at + STORE_SEGMENT.length - 1);
}

/** Each store's entries, read once per process. */
const listings = new Map<string, string[]>();

/** `<store>/<name with + for />@<version>[_<peers>]/node_modules/<name>` for each entry of `name`. */
function storeCopies(store: string, name: string): string[] {
  let entries = listings.get(store);
  if (entries === undefined) {
    try {
      entries = fs.readdirSync(store);
    } catch {
      entries = [];
    }
    listings.set(store, entries);
  }
  const prefix = name.replace("/", "+") + "@";
  return entries
    .filter((e) => e.startsWith(prefix))
    .map((e) => realDir(path.join(store, e, "node_modules", name)))
    .filter((d): d is string => d !== undefined && fs.existsSync(path.join(d, "package.json")));
}
