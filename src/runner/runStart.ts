/**
 * When the run this process belongs to started: the runner's main process hands it to its test
 * processes (vitest, jest, node:test: the run share; mocha `--parallel`: the run context); a
 * process on its own started its run itself.
 */
import { processStartedAt } from "../clock";
import { CONTEXT_ENV } from "../mocha/contextEnv";
import { parseEnvJson } from "./runIds";
import { SHARE_ENV } from "./shareEnv";

/** Milliseconds since the epoch. */
export function runStartedAt(env: NodeJS.ProcessEnv = process.env): number {
  for (const name of [SHARE_ENV, CONTEXT_ENV]) {
    const run = parseEnvJson<{ startedAt: string }>(env[name], (v) => typeof v.startedAt === "string");
    const at = run && Date.parse(run.startedAt);
    if (typeof at === "number" && Number.isFinite(at)) return at;
  }
  return processStartedAt();
}
