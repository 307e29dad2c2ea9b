/**
 * Whether the LangChain packages installed are not the ones the lock file names. A pull of an
 * upgrade (a new package.json, lock file and re-recorded fixtures) without an install keeps the
 * old packages, whose requests miss the new fixtures; recording them again then writes fixtures
 * for packages the lock file no longer holds, and `prune` removes the upgrade's (a user trial:
 * the miss said "record them again", and a plain local run recorded 7 fixtures, all green). The
 * miss, the summary's roll-up and the first recording of a process say so, with the fix.
 *
 * npm's package-lock.json (lockfile versions 2 and 3, npm 7 on) is read, at or above the working
 * directory, once per process; pnpm's and Yarn's lock files are not.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { log } from "../log";
import { dotGitAbove } from "../dotGit";

let memo: { cwd: string; line: string | undefined } | undefined;

/** The sentence that says which packages differ from the lock file, or undefined (they match, or no npm lock file is found). */
export function staleInstall(cwd: string = process.cwd()): string | undefined {
  if (memo?.cwd !== cwd) memo = { cwd, line: read(cwd) };
  return memo.line;
}

function read(cwd: string): string | undefined {
  const lock = lockFileAbove(cwd);
  if (!lock) return undefined;
  let packages: Record<string, { version?: unknown; link?: unknown }>;
  try {
    packages = (JSON.parse(fs.readFileSync(lock, "utf8")) as { packages?: typeof packages }).packages ?? {};
  } catch {
    return undefined; // a lock file in a merge conflict: npm says so itself
  }
  const differ: string[] = [];
  for (const [key, entry] of Object.entries(packages)) {
    if (!/^node_modules\/(?:@langchain\/[^/]+|langchain)$/.test(key) || typeof entry?.version !== "string" || entry.link) continue;
    let installed: unknown;
    try {
      installed = (JSON.parse(fs.readFileSync(path.join(path.dirname(lock), key, "package.json"), "utf8")) as { version?: unknown }).version;
    } catch {
      continue; // not installed (an optional package): nothing to compare
    }
    if (typeof installed === "string" && installed !== entry.version)
      differ.push(`${key.slice("node_modules/".length)} ${installed} (the lock file: ${entry.version})`);
  }
  if (differ.length === 0) return undefined;
  return `the installed LangChain packages are not the ones ${path.relative(cwd, lock) || "package-lock.json"} names: ${differ.slice(0, 3).join(", ")}${differ.length > 3 ? `, and ${differ.length - 3} more` : ""}.`;
}

/** What to do about `staleInstall`, where nothing else follows it (a recording's warning). */
export const STALE_INSTALL_ADVICE =
  "A pull without an install? Install from the lock file (npm ci) and run the tests again before recording anything: these packages may ask other requests than the ones the fixtures were recorded for.";

/**
 * A miss's fix while `staleInstall` says something: install first, record only what still misses (trial 54 L2: the miss said
 * to install before recording anything, then "To record it, run …"). `how`: how to record it; `command`: the command that does.
 */
export function staleInstallFix(how: string, command: string): string {
  return (
    `  Fix it: a pull without an install? Install from the lock file (npm ci) and run the tests again: these packages may ask other requests ` +
    `than the ones the fixtures were recorded for. Only what still misses then is to record ${how}: ${command}, then review and commit the new fixtures.`
  );
}

/** The nearest package-lock.json at or above `dir`, not above its git work tree's top. */
function lockFileAbove(dir: string): string | undefined {
  const dotGit = dotGitAbove(dir);
  const top = dotGit ? path.dirname(dotGit.path) : undefined;
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    const file = path.join(d, "package-lock.json");
    if (fs.existsSync(file)) return file;
    if (d === top || path.dirname(d) === d) return undefined;
  }
}

let warnedOf: string | undefined;

/** At a process's first recording (and again only if what differs changes): the fixtures it writes are for packages the lock file does not hold. */
export function warnStaleInstall(file: string): void {
  const line = staleInstall();
  if (line === undefined || line === warnedOf) return;
  warnedOf = line;
  log.warn(`recorded ${file}, but ${line} ${STALE_INSTALL_ADVICE}\n`);
}
