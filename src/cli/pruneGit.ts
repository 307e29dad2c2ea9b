/**
 * What `prune` may remove when the fixture directory is in a git work tree: only fixtures git
 * can give back, committed and unchanged. A fixture git does not have (untracked, ignored, or
 * changed since the last commit) may be a recording no commit holds yet, and the ledger that
 * calls it unused may be out of date (a run made while its test file was stashed, on another
 * branch): removing it would lose it for good.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { gitOut } from "./diffGit";

/**
 * Whether git holds a file of `dir` as committed and unchanged; undefined when `dir` is not in a
 * git work tree (or git is missing): then nothing is known and nothing is kept back.
 */
export function committedTest(dir: string): ((file: string) => boolean) | undefined {
  const listed = notInGit(dir);
  if (!listed) return undefined;
  return (file) => {
    const real = path.join(fs.realpathSync(path.dirname(file)), path.basename(file));
    return !listed.files.has(real) && !listed.dirs.some((d) => real.startsWith(d));
  };
}

/** What `git status` lists under `dir`: files, and whole directories (an ignored or untracked directory is listed as one). */
function notInGit(dir: string): { files: Set<string>; dirs: string[] } | undefined {
  let top: string;
  try {
    top = fs.realpathSync(gitOut(dir, ["rev-parse", "--show-toplevel"]).trim());
  } catch {
    return undefined;
  }
  let out: string;
  try {
    const rel = path.relative(top, fs.realpathSync(dir)) || ".";
    out = gitOut(top, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=matching", "--no-renames", "--", rel]);
  } catch {
    return undefined;
  }
  const files = new Set<string>();
  const dirs: string[] = [];
  // each entry: two status letters, a space, the path from the top level; NUL-terminated
  for (const entry of out.split("\0")) {
    if (entry.length <= 3) continue;
    const p = entry.slice(3);
    if (p.endsWith("/")) dirs.push(path.join(top, p.slice(0, -1)) + path.sep);
    else files.add(path.join(top, p));
  }
  return { files, dirs };
}
