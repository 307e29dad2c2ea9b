/** git in a test's temporary repository, as a committer of its own (no user config, no signing). */
import { execFileSync } from "node:child_process";

/** Runs `git ...args` in `cwd` and returns its stdout; a failing command throws with git's stderr. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false", ...args], {
    cwd,
    encoding: "utf8",
    stdio: "pipe",
  });
}
