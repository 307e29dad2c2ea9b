/**
 * The packages of an npm or yarn workspace (`"workspaces"` in the package.json of the working
 * directory or a directory above it), or of a pnpm workspace (`packages:` in its
 * pnpm-workspace.yaml): each may resolve a copy of a LangChain package of its own
 * (`packages/legacy/node_modules/@langchain/core`, a version the root does not hold), which
 * neither langchain-vcr nor the working directory resolves. `packageDirs` adds what each one
 * resolves (measured: an ES-module workspace package over a nested core 1.2.0 answered live
 * under replay_only, in vitest and in plain Node, before). A pnpm workspace with
 * `shared-workspace-lockfile=false` gives each package a store of its own
 * (`packages/app/node_modules/.pnpm`), which only that package resolves (measured in a user trial:
 * the app's ChatOpenAI and OpenAIEmbeddings answered live under CI=true, before).
 *
 * Patterns: literal paths and `*` within a segment (`packages/*`, `apps/*-service`); `**` matches
 * any depth (node_modules and dot directories skipped); `!` patterns exclude. What matches and
 * holds a package.json is a workspace package. Read once per process and directory asked from.
 */
import * as fs from "node:fs";
import { isDirectory } from "../fsProbe";
import * as path from "node:path";
import { processWide } from "../processWide";

/** Per process (under jest, per test file: jest gives each its own globals and `process`; the walk is a readdir per pattern segment). */
const byCwd = processWide("workspaceDirs.v1", () => new Map<string, string[]>());

/** The workspace package directories of the nearest workspace root at or above `cwd` (none when there is no such root). */
export function workspaceDirs(cwd: string): string[] {
  let dirs = byCwd.get(cwd);
  if (!dirs) {
    const root = workspaceRoot(cwd);
    byCwd.set(cwd, (dirs = root ? expand(root.dir, root.patterns) : []));
  }
  return dirs;
}

/** The packages of the workspace at or above `cwd` that hold `below` (a path inside a package): each package's directory, and the path there. */
export function packagesHolding(cwd: string, below: string): { pkg: string; at: string }[] {
  return workspaceDirs(cwd)
    .map((pkg) => ({ pkg, at: path.join(pkg, below) }))
    .filter(({ at }) => fs.existsSync(at));
}

/**
 * The directories above `cwd` that a relative fixture `dir` may have been meant against, nearest
 * first: up to the package `cwd` is inside (a test run from its `test/` directory) and, when that
 * package is in a workspace, on up to the workspace's root (`packages/a/src`: `packages/a`, then
 * the root); from a workspace package's root, up to the workspace's root. None from a package that
 * is not in a workspace.
 */
export function enclosingDirs(cwd: string): string[] {
  const start = path.resolve(cwd);
  const inPackage = fs.existsSync(path.join(start, "package.json"));
  const root = inPackage ? workspaceRoot(path.dirname(start))?.dir : undefined;
  if (inPackage && !root) return [];
  const out: string[] = [];
  for (let d = path.dirname(start); d !== path.dirname(d); d = path.dirname(d)) {
    out.push(d);
    if (inPackage && d === root) return out;
    if (!inPackage && fs.existsSync(path.join(d, "package.json"))) return [...out, ...enclosingDirs(d)]; // the package's root: on as from it
  }
  return inPackage ? out : [];
}

/** The directory of the workspace at or above `cwd` (its package.json names workspaces, or a pnpm-workspace.yaml), if any. */
export function workspaceRootDir(cwd: string): string | undefined {
  return workspaceRoot(cwd)?.dir;
}

function workspaceRoot(cwd: string): { dir: string; patterns: string[] } | undefined {
  for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
    const patterns = workspacePatterns(path.join(dir, "package.json")) ?? pnpmWorkspacePatterns(path.join(dir, "pnpm-workspace.yaml"));
    if (patterns) return { dir, patterns };
    if (path.dirname(dir) === dir) return undefined;
  }
}

function workspacePatterns(file: string): string[] | undefined {
  let pkg: { workspaces?: unknown };
  try {
    pkg = JSON.parse(fs.readFileSync(file, "utf8")) as { workspaces?: unknown };
  } catch {
    return undefined;
  }
  const w = pkg.workspaces;
  const list = Array.isArray(w) ? w : Array.isArray((w as { packages?: unknown })?.packages) ? (w as { packages: unknown[] }).packages : undefined;
  return list?.filter((p): p is string => typeof p === "string");
}

/**
 * The `packages:` globs of a pnpm-workspace.yaml: a block list (`- "packages/*"`, quoted or not)
 * or a flow list (`packages: ["a/*", "b"]`). Only that key is read (not YAML at large: no anchors).
 * A file without it is a workspace of the root package alone, as pnpm reads it.
 */
export function pnpmWorkspacePatterns(file: string): string[] | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  const unquote = (s: string) => s.trim().replace(/^(['"])(.*)\1$/, "$2");
  const lines = text.split(/\r?\n/).map((l) => l.replace(/\s+#.*$/, ""));
  const at = lines.findIndex((l) => /^packages\s*:/.test(l));
  if (at < 0) return [];
  const inline = lines[at].replace(/^packages\s*:/, "").trim();
  if (inline.startsWith("["))
    return inline
      .replace(/^\[|\]$/g, "")
      .split(",")
      .map(unquote)
      .filter(Boolean);
  const out: string[] = [];
  for (const line of lines.slice(at + 1)) {
    if (line.trim() === "" || line.trim().startsWith("#")) continue;
    const item = /^\s*-\s*(.+)$/.exec(line);
    if (!item) break; // the next key
    out.push(unquote(item[1]));
  }
  return out;
}

function expand(root: string, patterns: string[]): string[] {
  const excluded = patterns.filter((p) => p.startsWith("!")).map((p) => matcher(p.slice(1)));
  const found = new Set<string>();
  for (const p of patterns.filter((q) => !q.startsWith("!"))) {
    for (const dir of matches(root, segments(p))) {
      const rel = path.relative(root, dir).split(path.sep).join("/");
      if (!excluded.some((m) => m(rel)) && fs.existsSync(path.join(dir, "package.json"))) found.add(dir);
    }
  }
  return [...found];
}

function segments(pattern: string): string[] {
  return pattern.split("/").filter((s) => s !== "" && s !== ".");
}

/** The directories under `dir` that the pattern's `rest` segments match (`**` at most 6 levels down, never into a directory it is already in: a link back up). */
function matches(dir: string, rest: string[], depth = 0, within: ReadonlySet<string> = new Set()): string[] {
  if (rest.length === 0) return [dir];
  const [first, ...more] = rest;
  if (first === "**") {
    const real = realOrSelf(dir);
    if (depth > 6 || within.has(real)) return [];
    const inside = new Set(within).add(real);
    const deeper = subdirs(dir).flatMap((d) => matches(path.join(dir, d), rest, depth + 1, inside));
    return [...matches(dir, more, depth, within), ...deeper];
  }
  if (!first.includes("*")) return fs.existsSync(path.join(dir, first)) ? matches(path.join(dir, first), more, depth, within) : [];
  const re = segmentRegExp(first);
  return subdirs(dir)
    .filter((d) => re.test(d))
    .flatMap((d) => matches(path.join(dir, d), more, depth, within));
}

/** The directories in `dir`, links to directories included (a workspace package may be one), but not node_modules or dot directories. */
function subdirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((e) => e.name !== "node_modules" && !e.name.startsWith("."))
      .filter((e) => e.isDirectory() || (e.isSymbolicLink() && isDirectory(path.join(dir, e.name))))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

function realOrSelf(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return p;
  }
}

function segmentRegExp(segment: string): RegExp {
  return new RegExp("^" + segment.split("*").map(escape).join("[^/]*") + "$");
}

/** A whole-path matcher for an exclusion pattern (`**` any depth, `*` within a segment). */
function matcher(pattern: string): (rel: string) => boolean {
  const source = segments(pattern)
    .map((s) => (s === "**" ? ".*" : s.split("*").map(escape).join("[^/]*")))
    .join("/");
  const re = new RegExp("^" + source + "$");
  return (rel) => re.test(rel);
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
