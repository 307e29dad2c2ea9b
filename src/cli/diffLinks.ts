/**
 * Symbolic links among a ref's fixture files, for `langchain-vcr diff`: git stores a link as a
 * blob (mode 120000) holding its target path, which is no fixture. Each is followed at the ref
 * itself (the target resolved from the link's directory in that tree, through up to 8 links) to
 * the blob it names, or to a sentence saying why it cannot be (said as a damaged base file).
 */
import * as path from "node:path";
import { gitOut, readBlobs } from "./diffGit";

const MAX_HOPS = 8;

export type Followed = { id: string; problem?: undefined } | { id?: undefined; problem: string };

/**
 * `links`: file name → the link's blob id, for the links directly in `relPosix` (relative to
 * `top`, "/" separators, "" for the top) at `commit`; `base` names the ref in messages.
 */
export function followLinks(top: string, commit: string, base: string, relPosix: string, links: Map<string, string>): Map<string, Followed> {
  const out = new Map<string, Followed>();
  const firstTargets = readBlobs(top, [...new Set(links.values())]);
  for (const [name, linkId] of links) {
    const first = firstTargets.get(linkId)?.toString("utf8");
    out.set(
      name,
      first === undefined
        ? { problem: `is a symbolic link ${base} cannot give (git cat-file found no blob ${linkId})` }
        : follow(top, commit, base, relPosix, first),
    );
  }
  return out;
}

/** The blob that the link `target`, in the tree directory `from`, names at `commit`. */
function follow(top: string, commit: string, base: string, from: string, target: string): Followed {
  const said = `is a symbolic link to ${target}`;
  let [dir, to] = [from, target];
  for (let hop = 0; hop < MAX_HOPS; hop++) {
    const p = path.posix.normalize(path.posix.join(dir, to));
    if (path.posix.isAbsolute(to) || p === ".." || p.startsWith("../")) {
      return { problem: `${said}, outside the repository, so ${base} cannot be read through it` };
    }
    const m = /^(\d+) (\w+) ([0-9a-f]+)\t/.exec(gitOut(top, ["ls-tree", "-z", "--full-tree", commit, "--", p]).split("\0")[0]);
    if (!m || m[2] !== "blob") return { problem: `${said}, which ${base} does not have (${p} is not a file there), so the base cannot be read` };
    if (m[1] !== "120000") return { id: m[3] };
    const next = readBlobs(top, [m[3]]).get(m[3]);
    if (next === undefined) return { problem: `${said}, through ${p}, which ${base} cannot give` };
    [dir, to] = [path.posix.dirname(p), next.toString("utf8")];
  }
  return { problem: `${said}, through more than ${MAX_HOPS} links (a loop?), so the base cannot be read` };
}
