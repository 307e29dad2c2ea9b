/** The identity of one run (shared by its processes) and how it travels to them in an environment variable. */
import { randomBytes } from "node:crypto";
import { RUN_ID_ENV } from "./ledgerFiles";

/** A new main process's id, and the run id (LANGCHAIN_VCR_RUN_ID when CI shards share one). */
export function newRunIds(pid: number, now: Date, env: NodeJS.ProcessEnv): { mainId: string; runId: string } {
  const mainId = `${pid}-${randomBytes(3).toString("hex")}`;
  const stamp = now.toISOString().replace(/[-:]/g, "").replace(".", "");
  return { mainId, runId: env[RUN_ID_ENV] || `${stamp}-${mainId}` };
}

/** A JSON value from an environment variable, when it parses and `valid` accepts it. */
export function parseEnvJson<T>(text: string | undefined, valid: (v: T) => boolean): T | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as T;
    return v && typeof v === "object" && valid(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The `command` a main process put in the JSON of an environment variable it hands its test
 * processes (mocha's run context, the other runners' run share): the arguments a miss's command to
 * record a test again carries. `also`: what else the JSON must hold (which runner it is from).
 */
export function envCommand(text: string | undefined, also: (v: Record<string, unknown>) => boolean = () => true): readonly string[] | undefined {
  const v = parseEnvJson<Record<string, unknown>>(text, (c) => Array.isArray(c.command) && c.command.every((a) => typeof a === "string") && also(c));
  return v?.command as readonly string[] | undefined;
}
