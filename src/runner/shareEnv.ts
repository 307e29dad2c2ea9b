/**
 * The environment variable through which a vitest, jest or node:test main process hands its run
 * to its test processes (`share.ts`), and the one part of it a miss's message reads: the main
 * process's options that choose the config (`commandArgs.ts`), so the command that records a
 * test again runs it with the suite's config, not vitest's or jest's default one.
 */
import { envCommand } from "./runIds";
import { INTERNAL_ENV_PREFIX } from "../internalEnv";

export const SHARE_ENV = `${INTERNAL_ENV_PREFIX}RUN_SHARE`;

/** The config options of `runner`'s main process (undefined outside its run, or from a share without them). */
export function sharedCommandArgs(runner: string, env: NodeJS.ProcessEnv = process.env): readonly string[] | undefined {
  return envCommand(env[SHARE_ENV], (s) => s.runner === runner);
}
