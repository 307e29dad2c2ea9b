/**
 * The record/replay modes: the one table that says what each mode does (as data), and which
 * mode is in force for a call, highest first: scoped override (`withVcr`) > env > options > CI default.
 */
import { VcrConfigError } from "./errors";
import { currentOverride } from "./scope";

export const VCR_MODES = ["record_or_replay", "replay_only", "record_always", "bypass"] as const;
export type VcrMode = (typeof VCR_MODES)[number];

export const VCR_TOOL_MODES = ["replay", "execute"] as const;
export type VcrToolMode = (typeof VCR_TOOL_MODES)[number];

export interface ModePolicy {
  /** Look for a recorded fixture before calling the real thing. */
  readonly readsFixtures: boolean;
  /** What a miss does: call the real thing, or fail. */
  readonly onMiss: "call" | "fail";
  /** Whether a live result is written, and whether an existing file may be replaced. */
  readonly writes: "never" | "new_only" | "always";
}

export const MODE_POLICY: Readonly<Record<VcrMode, ModePolicy>> = {
  record_or_replay: { readsFixtures: true, onMiss: "call", writes: "new_only" },
  replay_only: { readsFixtures: true, onMiss: "fail", writes: "never" },
  record_always: { readsFixtures: false, onMiss: "call", writes: "always" },
  bypass: { readsFixtures: false, onMiss: "call", writes: "never" },
};

export function isVcrMode(v: unknown): v is VcrMode {
  return typeof v === "string" && (VCR_MODES as readonly string[]).includes(v);
}

export function isVcrToolMode(v: unknown): v is VcrToolMode {
  return typeof v === "string" && (VCR_TOOL_MODES as readonly string[]).includes(v);
}

// Resolution: scoped override > env > options > CI default.

export const MODE_ENV = "LANGCHAIN_VCR_MODE";
export const TOOL_MODE_ENV = "LANGCHAIN_VCR_TOOL_MODE";
/** Where an env mode came from, for a bad value's message (made once: every call resolves its mode). */
const MODE_ENV_WHERE = `env ${MODE_ENV}`;
const TOOL_MODE_ENV_WHERE = `env ${TOOL_MODE_ENV}`;

export function checkMode(value: unknown, where: string): VcrMode {
  if (isVcrMode(value)) return value;
  throw new VcrConfigError(`${JSON.stringify(value)} is not a valid mode (${where}). Valid modes are: ${VCR_MODES.join(", ")}.`);
}

export function checkToolMode(value: unknown, where: string): VcrToolMode {
  if (isVcrToolMode(value)) return value;
  throw new VcrConfigError(`${JSON.stringify(value)} is not a valid tool mode (${where}). Valid tool modes are: ${VCR_TOOL_MODES.join(", ")}.`);
}

/** Whether the CI environment variable is set (to anything but "", "false" or "0"): the default mode is then replay_only. */
export function isCi(): boolean {
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
  if (env !== undefined && env !== "") return checkMode(env, MODE_ENV_WHERE);
  return optionMode ?? defaultMode();
}

export function resolveToolMode(optionToolMode?: VcrToolMode): VcrToolMode {
  const scoped = currentOverride()?.toolMode;
  if (scoped !== undefined) return scoped;
  const env = process.env[TOOL_MODE_ENV];
  if (env !== undefined && env !== "") return checkToolMode(env, TOOL_MODE_ENV_WHERE);
  return optionToolMode ?? "replay";
}

/** The sources `modeSource` names when no one set the mode. */
export const DEFAULT_SOURCES = { plain: "default", ci: "default, CI is set" } as const;

/** Where the mode in force came from, for summaries and error messages. */
export function modeSource(optionMode?: VcrMode): string {
  if (currentOverride()?.mode !== undefined) return "withVcr";
  if (process.env[MODE_ENV]) return MODE_ENV_WHERE;
  if (optionMode !== undefined) return "options.mode";
  return isCi() ? DEFAULT_SOURCES.ci : DEFAULT_SOURCES.plain;
}
