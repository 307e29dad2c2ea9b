/** Mode resolution, highest first: scoped override > env > options > CI default. */
import { VcrConfigError } from "./errors";
import { VCR_MODES, VCR_TOOL_MODES, isVcrMode, isVcrToolMode, type VcrMode, type VcrToolMode } from "./modes";
import { currentOverride } from "./scope";

export const MODE_ENV = "LANGCHAIN_VCR_MODE";
export const TOOL_MODE_ENV = "LANGCHAIN_VCR_TOOL_MODE";

export function checkMode(value: unknown, where: string): VcrMode {
  if (isVcrMode(value)) return value;
  throw new VcrConfigError(
    `langchain-vcr: ${JSON.stringify(value)} is not a valid mode (${where}). Valid modes are: ${VCR_MODES.join(", ")}.`,
  );
}

export function checkToolMode(value: unknown, where: string): VcrToolMode {
  if (isVcrToolMode(value)) return value;
  throw new VcrConfigError(
    `langchain-vcr: ${JSON.stringify(value)} is not a valid tool mode (${where}). Valid tool modes are: ${VCR_TOOL_MODES.join(", ")}.`,
  );
}

function isCi(): boolean {
  const ci = process.env.CI;
  return ci !== undefined && ci !== "" && ci !== "false" && ci !== "0";
}

export function defaultMode(): VcrMode {
  return isCi() ? "replay_only" : "record_or_replay";
}

/** The mode in force for a call made here, for a Vcr whose `options.mode` is `optionMode`. */
export function resolveMode(optionMode?: VcrMode): VcrMode {
  const scoped = currentOverride()?.mode;
  if (scoped !== undefined) return scoped;
  const env = process.env[MODE_ENV];
  if (env !== undefined && env !== "") return checkMode(env, `env ${MODE_ENV}`);
  return optionMode ?? defaultMode();
}

export function resolveToolMode(optionToolMode?: VcrToolMode): VcrToolMode {
  const scoped = currentOverride()?.toolMode;
  if (scoped !== undefined) return scoped;
  const env = process.env[TOOL_MODE_ENV];
  if (env !== undefined && env !== "") return checkToolMode(env, `env ${TOOL_MODE_ENV}`);
  return optionToolMode ?? "replay";
}

/** Where the mode in force came from, for summaries and error messages. */
export function modeSource(optionMode?: VcrMode): string {
  if (currentOverride()?.mode !== undefined) return "withVcr";
  if (process.env[MODE_ENV]) return `env ${MODE_ENV}`;
  if (optionMode !== undefined) return "options.mode";
  return isCi() ? "default (CI is set)" : "default";
}
