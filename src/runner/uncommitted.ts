/**
 * The summary's note on fixtures a run used that git does not track (trial 58 M1): a test whose
 * fixture was recorded and never `git add`ed passes on the machine that recorded it, and misses on
 * a clean checkout, CI's, whose error can only say to record it; run there, that command replays the
 * untracked file and changes nothing. A run that uses such a file says so, in a git work tree only.
 */
import { execFileSync } from "node:child_process";
import * as path from "node:path";
import { dotGitAbove } from "../dotGit";
import { pathFrom } from "../pathFrom";
import { shellWord } from "../diagnose/commandEnv";

/** How many of the files the note names. */
const NAMED = 3;

/** The note for the files of `used` (absolute, or from the working directory) that git lists as untracked (not ignored); undefined when there are none (or no git). */
export function uncommittedNote(used: Iterable<string>): string | undefined {
  const byDir = new Map<string, string[]>();
  for (const f of used) {
    const file = path.resolve(f);
    const dir = path.dirname(file);
    const files = byDir.get(dir);
    if (files) files.push(file);
    else byDir.set(dir, [file]);
  }
  const untracked: string[] = [];
  for (const [dir, files] of byDir) {
    const others = untrackedIn(dir);
    if (others) untracked.push(...files.filter((f) => others.has(path.basename(f))));
  }
  if (untracked.length === 0) return undefined;
  const shown = untracked.sort().map((f) => pathFrom(process.cwd(), f));
  const dirs = [...new Set(shown.map((f) => path.dirname(f)))].map(shellWord).join(" ");
  const one = untracked.length === 1;
  return (
    `langchain-vcr: ${one ? "1 fixture" : `${untracked.length} fixtures`} this run used ${one ? "is" : "are"} not committed to git: ` +
    `${shown.slice(0, NAMED).join(", ")}${shown.length > NAMED ? ` and ${shown.length - NAMED} more` : ""}. ` +
    `A clean checkout (CI's) does not have ${one ? "it" : "them"}, so ${one ? "its test misses" : "their tests miss"} there: ` +
    `commit ${one ? "it" : "them"} with the tests (git add ${dirs}).`
  );
}

/**
 * The names of the files directly in `dir` that git lists as untracked and not ignored (a fixture ignored on purpose is
 * not nagged about; a staged one is the index's); undefined outside a work tree, or when git cannot say. One git call per
 * fixture directory, at the end of a run.
 */
function untrackedIn(dir: string): Set<string> | undefined {
  if (dotGitAbove(dir) === undefined) return undefined;
  try {
    const out = execFileSync("git", ["ls-files", "-z", "--others", "--exclude-standard", "--", "."], {
      cwd: dir,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      maxBuffer: 64 * 1024 * 1024,
    });
    return new Set(out.split("\0").filter((f) => f !== "" && !f.includes("/")));
  } catch {
    return undefined; // a directory git refuses, or no git: nothing is known
  }
}
