/**
 * The `.git` at or above a directory: a repository's git directory, or the file a worktree or a
 * submodule has in its place, which names its git directory (`gitdir: …`). Found by walking up
 * the file system, with no git process: the run's checkout (`runner/checkout.ts`) and whether
 * `prune`'s fixture directory is in a repository git may not answer for (`cli/pruneGit.ts`).
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** The nearest `.git` at or above `dir` (a directory or a file), or undefined. */
export function dotGitAbove(dir: string): { path: string; isFile: boolean } | undefined {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const dotGit = path.join(d, ".git");
    const stat = fs.statSync(dotGit, { throwIfNoEntry: false });
    if (stat) return { path: dotGit, isFile: !stat.isDirectory() };
    if (path.dirname(d) === d) return undefined;
  }
}

/** The git directory of the work tree holding `dir`: the `.git` directory, or the one a `.git` file names; undefined when none. */
export function gitDirAbove(dir: string): string | undefined {
  const found = dotGitAbove(dir);
  if (!found?.isFile) return found?.path;
  const to = /^gitdir: (.+)$/m.exec(fs.readFileSync(found.path, "utf8"))?.[1]?.trim();
  return to ? path.resolve(path.dirname(found.path), to) : undefined;
}
