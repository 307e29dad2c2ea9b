/**
 * The name a vitest test goes by in langchain-vcr's messages, the ledger and the command a miss
 * prints: the one vitest's `-t` matches, which changed in vitest 5.
 */

/**
 * Set by the plugin in vitest's main process (`configureVitest`) to vitest's version, for the
 * test processes it starts.
 */
export const VITEST_VERSION_ENV = "LANGCHAIN_VCR_VITEST_VERSION";

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
 * A test's name as `-t` matches it: vitest 5 matches the full name ("suite > test"), vitest 4
 * the names joined by spaces ("suite test"). Without a version (the plugin's main-process hook
 * did not run), vitest 4's.
 */
export function vitestTitle(task: NamedTask, version = process.env[VITEST_VERSION_ENV]): string {
  if (typeof task.fullTestName === "string" && Number.parseInt(version ?? "", 10) >= 5) return task.fullTestName;
  const names = [task.name];
  for (let s = task.suite; s && s.type !== "file" && s.filepath === undefined && s.name; s = s.suite) names.unshift(s.name);
  return names.join(" ");
}
