/**
 * The environment variable through which the main mocha process hands its run to its workers
 * (`runContext.ts`), and the one part of it a miss's message reads: the main process's own mocha
 * arguments, so the command that records a test again runs it the way the suite ran (its
 * `--require` setup files, `--config`, spec files), not as a plain `npx mocha`.
 */
import { envCommand } from "../runner/runIds";
import { INTERNAL_ENV_PREFIX } from "../internalEnv";

export const CONTEXT_ENV = `${INTERNAL_ENV_PREFIX}RUN_CONTEXT`;

/** The main mocha process's arguments, without its name filters and watch options (undefined outside a mocha run). */
export function mochaCommandArgs(env: NodeJS.ProcessEnv = process.env): readonly string[] | undefined {
  return envCommand(env[CONTEXT_ENV]);
}
