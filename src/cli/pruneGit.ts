/**
 * What `prune` may remove when the fixture directory is in a git work tree: only fixtures git
 * can give back, committed and unchanged. A fixture git does not have (untracked, ignored, or
 * changed since the last commit) may be a recording no commit holds yet, and the ledger that
 * calls it unused may be out of date (a run made while its test file was stashed, on another
 * branch): removing it would lose it for good. Only positive evidence counts: a file git lists as
 * tracked (not marked assume-unchanged or skip-worktree) and `git status` does not list.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { gitOut } from "./diffGit";
import { dotGitAbove } from "../dotGit";

/**
 * Whether git holds a file of `dir` as committed and unchanged, and, when git cannot say for a
 * directory inside a work tree, why (then no file counts as committed: git missing, a repository
 * git refuses, a fixture directory linked from outside it). Undefined when `dir` is in no work
 * tree: nothing is known and nothing is kept back.
 */
export function committedTest(dir: string): { committed: (file: string) => boolean; unknown?: string } | undefined {
  const real = fs.realpathSync.native(dir);
  let top: string | undefined;
  let failure = "";
  try {
    top = fs.realpathSync.native(gitOut(dir, ["rev-parse", "--show-toplevel"]).trim());
  } catch (e) {
    failure = ((e as { stderr?: unknown }).stderr ? String((e as { stderr: unknown }).stderr) : (e as Error).message).trim().split("\n")[0];
  }
  const inRepo = dotGitAbove(dir) !== undefined || dotGitAbove(real) !== undefined;
  if (!top) return inRepo ? { committed: () => false, unknown: `git could not answer for ${dir} (${failure || "no answer"})` } : undefined;
  if (path.relative(top, real).startsWith("..")) return { committed: () => false, unknown: `${dir} is a link to a directory outside the git work tree ${top}` };
  const clean = cleanTracked(top, path.relative(top, real) || ".");
  if (!clean) return { committed: () => false, unknown: `git could not list the files of ${dir}` };
  return { committed: (file) => clean.has(path.join(fs.realpathSync.native(path.dirname(file)), path.basename(file))) };
}

/** Files under `rel` that git tracks as they were committed: ls-files' plain entries (tag H) that status does not list. */
function cleanTracked(top: string, rel: string): Set<string> | undefined {
  const clean = new Set<string>();
  let tracked: string;
  let changed: string;
  try {
    tracked = gitOut(top, ["ls-files", "-z", "-v", "--", rel]);
    changed = gitOut(top, ["status", "--porcelain=v1", "-z", "--untracked-files=no", "--", rel]);
  } catch {
    return undefined;
  }
  // ls-files -v: "<tag> <path>", H for a cached file (lower case: assume-unchanged; S: skip-worktree)
  for (const entry of tracked.split("\0")) if (entry.startsWith("H ")) clean.add(path.join(top, entry.slice(2)));
  // status: "XY <path>" (from the top level); a rename or copy is followed by its source path
  const entries = changed.split("\0");
  for (let i = 0; i < entries.length; i++) {
    const e = entries[i];
    if (e.length <= 3) continue;
    clean.delete(path.join(top, e.slice(3)));
    if (e[0] === "R" || e[0] === "C") clean.delete(path.join(top, entries[++i] ?? ""));
  }
  return clean;
}
