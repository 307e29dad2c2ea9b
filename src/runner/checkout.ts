/**
 * The git checkout a run ran on, so `prune` can tell a ledger written on another branch: the test
 * files may be the same (their digests match) while the code they call asks other requests (a
 * prompt in the app's code), and the fixtures only the checked-out branch uses would go. Read
 * from git's own files when the run ends (no git process in the test run); compared by `prune`,
 * which asks git whether the run's commit is an ancestor of the checkout's (a commit made since the
 * run, or a pull, is the same line of work).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { gitDirAbove } from "../dotGit";

export interface Checkout {
  /** HEAD's commit. */
  head: string;
  /** The branch HEAD names; absent when detached. */
  branch?: string;
}

const SHA = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** The checkout of the git work tree holding `root`, or undefined (no work tree, an unborn branch, files git writes otherwise). */
export function checkoutOf(root: string): Checkout | undefined {
  try {
    const gitDir = gitDirAbove(path.resolve(root));
    if (!gitDir) return undefined;
    const common = commonDir(gitDir);
    const head = fs.readFileSync(path.join(gitDir, "HEAD"), "utf8").trim();
    if (SHA.test(head)) return { head };
    const ref = /^ref: (refs\/heads\/.+)$/.exec(head)?.[1];
    if (!ref) return undefined;
    const sha = refValue(gitDir, ref) ?? refValue(common, ref) ?? packedRef(common, ref);
    return sha ? { head: sha, branch: ref.slice("refs/heads/".length) } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Why the ledgers' checkout is not the work tree's, or undefined: another branch, or a commit that
 * is not a descendant of the run's (a reset, another commit checked out). Ledgers without a
 * checkout (older versions, no git) say nothing.
 */
export function movedCheckout(records: readonly { checkout?: Checkout }[], root: string): string | undefined {
  const ran = records.find((r) => r.checkout?.head)?.checkout;
  if (!ran) return undefined;
  const now = checkoutOf(root);
  if (!now) return undefined;
  const at = (c: Checkout) => `${c.branch ? `branch ${c.branch}` : "a detached HEAD"} (${c.head.slice(0, 7)})`;
  // another branch, even at the same commit: the run's work tree held that branch's uncommitted changes, maybe
  if (ran.branch !== undefined && now.branch !== undefined && ran.branch !== now.branch) {
    return `the run was on ${at(ran)} and the work tree is now on ${at(now)}: that branch's code may ask other requests than its tests did there`;
  }
  if (now.head === ran.head || isAncestor(root, ran.head, now.head)) return undefined; // committed on top, or pulled: the same line of work
  return `the run was on ${at(ran)} and the work tree is now at ${now.head.slice(0, 7)}, which does not follow it (a reset, or another commit checked out): its code may ask other requests`;
}

function isAncestor(root: string, older: string, newer: string): boolean {
  try {
    execFileSync("git", ["merge-base", "--is-ancestor", older, newer], { cwd: root, stdio: "ignore", timeout: 10_000 });
    return true;
  } catch {
    return false; // not an ancestor, or git cannot say (the run's commit gone): the run does not speak for this checkout
  }
}

/** Where a worktree's shared refs live (its `commondir`), else the git directory itself. */
function commonDir(gitDir: string): string {
  const file = path.join(gitDir, "commondir");
  return fs.existsSync(file) ? path.resolve(gitDir, fs.readFileSync(file, "utf8").trim()) : gitDir;
}

function refValue(dir: string, ref: string): string | undefined {
  const file = path.join(dir, ...ref.split("/"));
  if (!fs.existsSync(file)) return undefined;
  const v = fs.readFileSync(file, "utf8").trim();
  return SHA.test(v) ? v : undefined;
}

function packedRef(dir: string, ref: string): string | undefined {
  const file = path.join(dir, "packed-refs");
  if (!fs.existsSync(file)) return undefined;
  for (const line of fs.readFileSync(file, "utf8").split("\n")) {
    const [sha, name] = line.trim().split(" ");
    if (name === ref && SHA.test(sha)) return sha;
  }
  return undefined;
}
