/**
 * What `langchain-vcr diff` reads from git, with git's own plumbing only (no checkout, no
 * temporary work tree): the work tree's top level, a ref's fixture files (`git ls-tree`)
 * and their bytes (`git cat-file --batch`). Blob ids let unchanged files be skipped unread.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { UsageError } from "./args";
import { isDirectory } from "../fsProbe";

const MAX_BUFFER = 1024 * 1024 * 1024;

/** A command line or a place `diff` cannot work with (exit 2). */
export class DiffUsageError extends UsageError {}

/** `git ...args` in `cwd`; paths are literal (a directory named ":odd" is not pathspec magic for "odd"). */
export function gitOut(cwd: string, args: string[]): string {
  return execFileSync("git", ["--literal-pathspecs", ...args], { cwd, encoding: "utf8", maxBuffer: MAX_BUFFER, stdio: ["ignore", "pipe", "pipe"] });
}

/** The top level of the git work tree holding `dir` (its nearest existing ancestor when `dir` is gone). */
export function workTreeOf(dir: string): string {
  let probe = dir;
  while (!isDirectory(probe) && path.dirname(probe) !== probe) probe = path.dirname(probe);
  try {
    const top = gitOut(probe, ["rev-parse", "--show-toplevel"]).trim();
    if (top) return fs.realpathSync(top);
  } catch {
    // not a work tree, or no git: reported below
  }
  throw new DiffUsageError(
    `${dir} is not inside a git work tree, so there is no base to compare with.\n` +
      `  Run it inside a git checkout (cd into your project), or pass the fixture directory of one: langchain-vcr diff path/to/cassettes`,
  );
}

/** The commit a ref names; a usage error when it names none. */
export function resolveRef(top: string, ref: string): string {
  // git's "A...B": the merge base of A and B (either side defaults to HEAD), what a pull request is compared with
  const range = /^(.*?)\.\.\.(.*)$/s.exec(ref);
  if (range && (range[1] || range[2])) {
    const [left, right] = [range[1] || "HEAD", range[2] || "HEAD"];
    const side = (r: string) => {
      try {
        return resolveRef(top, r);
      } catch (e) {
        if (!hasCommit(top)) throw e; // resolveRef's own: nothing committed to compare with
        throw new DiffUsageError(
          `--base ${JSON.stringify(ref)}: ${JSON.stringify(r)} is not a commit in ${top} (${branchesHere(top, "...")}).\n${fetchFix(top, r)}`,
          false,
        );
      }
    };
    const [a, b] = [side(left), side(right)];
    try {
      return gitOut(top, ["merge-base", a, b]).trim();
    } catch {
      // a shallow clone (actions/checkout's default) has them both, but not the history that joins them
      if (isShallow(top))
        throw new DiffUsageError(
          `--base ${JSON.stringify(ref)}: no common ancestor of ${left} and ${right} is in this clone, whose history is shallow (actions/checkout's default, fetch-depth: 1).\n` +
            fetchFix(top, left === "HEAD" ? right : left, true),
          false,
        );
      throw new DiffUsageError(`--base ${JSON.stringify(ref)}: ${left} and ${right} have no common ancestor in ${top}`);
    }
  }
  try {
    return gitOut(top, ["rev-parse", "--verify", "--quiet", "--end-of-options", `${ref}^{commit}`]).trim();
  } catch {
    if (!hasCommit(top))
      // a new repository: nothing is committed to compare with (review 63: the fix said to fetch a base branch)
      throw new DiffUsageError(
        `--base ${JSON.stringify(ref)}: ${top} has no commit yet, so there is nothing to compare with: every fixture here is new.\n` +
          `  Fix: review the fixtures one by one (npx langchain-vcr show <hash>) and commit them; diff compares the next recording with that commit.`,
        false,
      );
    throw new DiffUsageError(
      `--base ${JSON.stringify(ref)} is not a commit in ${top} (${branchesHere(top, "")}, or a commit hash).\n${fetchFix(top, ref)}`,
      false,
    );
  }
}

/** Whether the repository has any commit (a new one has none: `git init` and nothing committed). */
function hasCommit(top: string): boolean {
  try {
    return gitOut(top, ["rev-list", "-n", "1", "--all"]).trim() !== "";
  } catch {
    return false;
  }
}

function isShallow(top: string): boolean {
  try {
    return gitOut(top, ["rev-parse", "--is-shallow-repository"]).trim() === "true";
  } catch {
    return false;
  }
}

/**
 * How to get `ref` (and, in a shallow clone, the history a merge base needs): for `<remote>/<branch>` of
 * a remote the clone has, the one fetch that makes it, which also works in a single-branch clone, where
 * `git fetch origin main` sets only FETCH_HEAD.
 */
function fetchFix(top: string, ref: string, shallow = isShallow(top)): string {
  const slash = ref.indexOf("/");
  let remotes: string[] = [];
  try {
    remotes = gitOut(top, ["remote"]).split("\n").filter(Boolean);
  } catch {
    // no remotes to name
  }
  const [remote, branch] = slash > 0 ? [ref.slice(0, slash), ref.slice(slash + 1)] : ["", ""];
  const unshallow = shallow ? "--unshallow " : "";
  const ci = "in GitHub Actions, actions/checkout with fetch-depth: 0 does it";
  const history = shallow ? " with the history a merge base needs (this clone is shallow)" : "";
  if (remote && branch && remotes.includes(remote))
    return `  Fix: fetch it${history}: git fetch ${unshallow}--no-tags ${remote} +refs/heads/${branch}:refs/remotes/${remote}/${branch} (${ci}).`;
  // a bare branch name (`main`), which a CI clone has only as the remote's: fetch that, and compare with it
  const only = remotes.length === 1 ? remotes[0] : remotes.includes("origin") ? "origin" : undefined;
  if (only && /^[\w][\w./-]*$/.test(ref) && !/^[0-9a-f]{7,40}$/.test(ref))
    return (
      `  Fix: fetch the remote's ${ref}${history}: git fetch ${unshallow}--no-tags ${only} +refs/heads/${ref}:refs/remotes/${only}/${ref}, ` +
      `then compare with it: --base ${only}/${ref}... (${ci}).`
    );
  if (shallow) return `  Fix: fetch the base branch and the history a merge base needs (this clone is shallow): git fetch --unshallow (${ci}).`;
  return `  Fix: fetch the base branch first (${ci}), or name a commit this clone has.`;
}

/** What the repository has to compare with, as --base values (`suffix`: "..." for a merge base): its branches, local then remote, a few. */
function branchesHere(top: string, suffix: string): string {
  let names: string[] = [];
  try {
    names = gitOut(top, ["for-each-ref", "--format=%(refname:short)", "refs/heads", "refs/remotes"])
      .split("\n")
      .filter((n) => n && !n.endsWith("/HEAD"));
  } catch {
    // no refs to offer
  }
  // the likeliest bases first (main, master, their remotes), then the rest, at most six
  const likely = (n: string) => (/(^|\/)(main|master)$/.test(n) ? 0 : 1);
  const shown = [...names].sort((a, b) => likely(a) - likely(b)).slice(0, 6);
  const more = names.length > shown.length ? `, … (${names.length - shown.length} more)` : "";
  return names.length ? `its branches: ${shown.map((n) => n + suffix).join(", ")}${more}` : "it has no branch yet: commit first";
}

/**
 * The files directly in `rel` (a directory relative to `top`) at `commit`: file name → blob id,
 * and the symbolic links among them (file name → the link's blob id, which holds its target).
 */
export function blobsAt(top: string, commit: string, rel: string): { blobs: Map<string, string>; links: Map<string, string> } {
  const blobs = new Map<string, string>();
  const links = new Map<string, string>();
  const spec = rel === "" ? "." : rel.split(path.sep).join("/") + "/";
  const listing = gitOut(top, ["ls-tree", "-z", "--full-tree", commit, "--", spec]);
  for (const entry of listing.split("\0")) {
    const m = /^(\d+) blob ([0-9a-f]+)\t(.*)$/s.exec(entry);
    if (m) (m[1] === "120000" ? links : blobs).set(path.posix.basename(m[3]), m[2]);
  }
  return { blobs, links };
}

/** The bytes of each blob, read in one `git cat-file --batch`. */
export function readBlobs(top: string, ids: readonly string[]): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (ids.length === 0) return out;
  const r = spawnSync("git", ["cat-file", "--batch"], { cwd: top, input: ids.join("\n") + "\n", maxBuffer: MAX_BUFFER });
  if (r.status !== 0) throw new Error(`git cat-file --batch failed: ${String(r.stderr)}`);
  const buf = r.stdout;
  let at = 0;
  while (at < buf.length) {
    const nl = buf.indexOf(0x0a, at);
    const header = buf.subarray(at, nl).toString("utf8").split(" ");
    at = nl + 1;
    if (header[1] !== "blob") continue; // "<id> missing"
    const size = Number(header[2]);
    out.set(header[0], buf.subarray(at, at + size));
    at += size + 1;
  }
  return out;
}

/** The blob id git would give these bytes. */
function blobId(bytes: Buffer, algorithm: "sha1" | "sha256"): string {
  return createHash(algorithm).update(`blob ${bytes.length}\0`).update(bytes).digest("hex");
}

/** Whether these bytes are the blob `id` (in the repository's hash, SHA-1 or SHA-256 by its length). */
export function sameBlob(bytes: Buffer, id: string): boolean {
  return blobId(bytes, id.length === 64 ? "sha256" : "sha1") === id;
}
