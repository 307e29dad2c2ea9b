/**
 * When the run this process belongs to started: the runner's main process hands it to its test
 * processes (vitest, jest, node:test: the run share, with each watch-mode rerun's start; mocha
 * `--parallel`: the run context); a process on its own started its run itself. A test process a
 * watch session reuses across reruns (vitest's threads without isolation) keeps the start it was given.
 */
import { processStartedAt } from "../clock";
import { CONTEXT_ENV } from "../mocha/contextEnv";
import { parseEnvJson } from "./runIds";
import { SHARE_ENV } from "./shareEnv";

/** The last answer, for the environment text it was read from (asked on each recording of a fixture with a near miss). */
let last: { share: string | undefined; context: string | undefined; at: number } | undefined;

/** Whether a fixture's `recordedAt` is this run's: at or after the run started (another test of it, another worker's included). */
export function recordedThisRun(recordedAt: string): boolean {
  const at = Date.parse(recordedAt);
  return Number.isFinite(at) && at >= runStartedAt();
}

/** Milliseconds since the epoch. */
export function runStartedAt(env: NodeJS.ProcessEnv = process.env): number {
  const share = env[SHARE_ENV];
  const context = env[CONTEXT_ENV];
  if (last && last.share === share && last.context === context) return last.at;
  last = { share, context, at: readRunStart(env) };
  return last.at;
}

function readRunStart(env: NodeJS.ProcessEnv): number {
  for (const name of [SHARE_ENV, CONTEXT_ENV]) {
    const run = parseEnvJson<{ startedAt: string; testsStartedAt?: string }>(env[name], (v) => typeof v.startedAt === "string");
    const at = run && Date.parse(run.testsStartedAt ?? run.startedAt); // a watch session's rerun: when its tests started
    if (typeof at === "number" && Number.isFinite(at)) return at;
  }
  return processStartedAt();
}
