/**
 * The summary's roll-up of misses that share their first difference from their nearest fixture:
 * a prompt edited for the whole suite, or a LangChain upgrade that changed every request, fails
 * each test with an error of its own, and the roll-up says it is one change. It counts requests,
 * not lookups: a request that a runner's retry (vitest's `retry`, `jest.retryTimes`) made again, and
 * that missed again on each attempt, is one request, so one test retried three times is not "3 of
 * the 3 misses share …". A request is a request hash in a test (test file and title): the same
 * request in another test counts apart. The requests are kept as short digests, so the counts
 * summed over test processes count each request once however many processes reported it.
 */
import { createHash } from "node:crypto";
import { suiteRerecordCommand } from "../diagnose/suiteCommand";
import { inPackage } from "../diagnose/rerecordCommand";
import { staleInstall, staleInstallFix } from "../diagnose/staleInstall";

/** The misses that had one first difference: how many lookups missed, and the distinct requests they were (digests). */
export interface CauseCount {
  misses: number;
  requests: Set<string>;
}

/** A miss's first difference from its nearest fixture (as its error words it) → the misses that had it. */
export type MissCauses = Map<string, CauseCount>;

/** How `MissCauses` travels between processes (JSON). */
export type MissCausesRecord = Record<string, { misses: number; requests: string[] }>;

/** How many different causes a process and a run keep count of (a suite whose misses all differ needs no roll-up). */
const MAX_CAUSES = 200;
/** How many distinct requests must share a cause for the summary to say so. */
const ROLL_UP_AT = 3;
/** How many shared causes the summary lists. */
const CAUSES_LISTED = 3;

/** The digest a request is counted under: its hash in its test (test file and title). */
export function requestKey(specFile: string, title: string, hash: string): string {
  return createHash("sha256").update(`${specFile}\0${title}\0${hash}`).digest("hex").slice(0, 16);
}

/** Counts one miss of `request` (its `requestKey`) under `cause`. */
export function addMiss(into: MissCauses, cause: string, request: string): void {
  addCause(into, cause, 1, [request]);
}

/**
 * Adds another process's causes (its JSON report: anything) to `into`. An entry that is not
 * `{ misses, requests }` of a positive count and a list of strings adds nothing.
 */
export function addCauses(into: MissCauses, from: Iterable<[string, unknown]>): void {
  for (const [cause, value] of from) {
    const v = value as { misses?: unknown; requests?: unknown } | null;
    if (typeof v !== "object" || v === null || !Array.isArray(v.requests)) continue;
    const misses = Number(v.misses);
    if (!(misses > 0)) continue;
    addCause(
      into,
      cause,
      misses,
      v.requests.filter((r): r is string => typeof r === "string"),
    );
  }
}

/** Adds another process's causes when they are already a `MissCauses` (a `Usage` in this process). */
export function addCauseCounts(into: MissCauses, from: MissCauses): void {
  for (const [cause, c] of from) addCause(into, cause, c.misses, c.requests);
}

function addCause(into: MissCauses, cause: string, misses: number, requests: Iterable<string>): void {
  let known = into.get(cause);
  if (!known) {
    if (into.size >= MAX_CAUSES) return;
    into.set(cause, (known = { misses: 0, requests: new Set() }));
  }
  known.misses += misses;
  for (const r of requests) known.requests.add(r);
}

/** `causes` as JSON for another process. */
export function causesRecord(causes: MissCauses): MissCausesRecord {
  const out: MissCausesRecord = {};
  for (const [cause, c] of causes) out[cause] = { misses: c.misses, requests: [...c.requests] };
  return out;
}

/**
 * The lines after the summary when at least `ROLL_UP_AT` distinct requests missed with the same
 * first difference from their nearest fixture; `missed`: every miss of the run (each attempt's).
 */
export function missCausesNote(causes: MissCauses, missed: number): string | undefined {
  const shared = [...causes]
    .filter(([, c]) => c.requests.size >= ROLL_UP_AT)
    .sort((a, b) => b[1].requests.size - a[1].requests.size || b[1].misses - a[1].misses || (a[0] < b[0] ? -1 : 1));
  if (shared.length === 0) return undefined;
  const listed = shared.slice(0, CAUSES_LISTED);
  const rest = shared.slice(CAUSES_LISTED);
  const sum = (causes: [string, CauseCount][]) => causes.reduce((total, [, c]) => total + c.misses, 0);
  // a request that missed more than once (a retried test's attempts) is said, so the count is not read as that many tests
  const requests = (c: CauseCount) => (c.requests.size < c.misses ? ` (${c.requests.size} distinct requests)` : "");
  return [
    `langchain-vcr: ${sum(shared)} of the ${missed} misses share their first difference from the nearest recorded fixture ` +
      `(each test's error shows the rest):`,
    ...listed.map(([cause, c]) => `  ${c.misses}× ${cause}${requests(c)}`),
    ...(rest.length ? [`  … and ${rest.length} more shared difference(s), of ${sum(rest)} misses`] : []),
    ...(staleInstall()
      ? // install first: recording now would key fixtures to packages the lock file does not hold (trial 54 L2)
        [`  ${staleInstall()}`, staleInstallFix("with the real providers configured", inPackage(suiteRerecordCommand()))]
      : [
          `  If the change is meant (a prompt edited; LangChain, a provider package or langchain-vcr upgraded or downgraded), record them again with the real ` +
            `providers configured and review the new fixtures: ${inPackage(suiteRerecordCommand())}; if not, undo it.`,
        ]),
  ].join("\n");
}
