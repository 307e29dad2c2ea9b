/**
 * The name a vitest test goes by in langchain-vcr's messages, the ledger and the command a miss
 * prints: the one vitest's `-t` matches, which changed in vitest 5.
 */
import { INTERNAL_ENV_PREFIX } from "../internalEnv";

/**
 * Set by the plugin in vitest's main process (`configureVitest`) to vitest's version, for the
 * test processes it starts.
 */
export const VITEST_VERSION_ENV = `${INTERNAL_ENV_PREFIX}VITEST_VERSION`;

/** The parts of a vitest task its name is made of. */
export interface NamedTask {
  name: string;
  /** "suite > test" (vitest 4.1 and later). */
  fullTestName?: string;
  type?: string;
  suite?: NamedTask;
  filepath?: string;
}

/**
 * A test's name as `-t` matches it: from vitest 5.0.0-rc.1 the full name ("suite > test"),
 * before it the names joined by spaces ("suite test"). Without a version (the plugin's
 * main-process hook did not run), vitest 4's.
 */
export function vitestTitle(task: NamedTask, version = process.env[VITEST_VERSION_ENV]): string {
  if (typeof task.fullTestName === "string" && matchesFullName(version)) return task.fullTestName;
  const names = [task.name];
  for (let s = task.suite; s && s.type !== "file" && s.filepath === undefined && s.name; s = s.suite) names.unshift(s.name);
  return names.join(" ");
}

/** Whether this vitest's `-t` matches the full name: 5.0.0-rc.1 and later (5.0.0's betas did not). */
export function matchesFullName(version: string | undefined): boolean {
  const m = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?/.exec(version ?? "");
  if (!m) return false;
  const [major, minor, patch] = [m[1], m[2], m[3]].map(Number);
  if (major !== 5 || minor > 0 || patch > 0) return major >= 5;
  const pre = m[4];
  if (pre === undefined) return true;
  const rc = /^rc\.(\d+)/.exec(pre);
  return rc !== null && Number(rc[1]) >= 1;
}
