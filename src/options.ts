/** `new Vcr(options)`: the options, their defaults (one constant shared by code, CLI and README), and eager validation. */
import * as path from "node:path";
import type { Normalizer } from "./canonical/normalize";
import { VcrConfigError } from "./errors";
import type { Redactor } from "./redact";
import { checkMode, checkToolMode, type VcrMode, type VcrToolMode } from "./modes";
import { SECRET_PATTERN_NAMES } from "./secrets";

export interface VcrOptions {
  /** Fixture directory, resolved against `process.cwd()`. @default "cassettes" */
  dir?: string;
  /** Mode when neither `withVcr` nor env `LANGCHAIN_VCR_MODE` sets one. @default "replay_only" when env CI is set, else "record_or_replay" */
  mode?: VcrMode;
  /** Tool mode when neither `withVcr` nor env `LANGCHAIN_VCR_TOOL_MODE` sets one. @default "replay" */
  toolMode?: VcrToolMode;
  /** Rewrite volatile text (dates, ids) before hashing, in order. @default [] */
  normalizers?: Normalizer[];
  /** Change what is written to disk (never the hash), in order. @default [] */
  redactors?: Redactor[];
  /** Warn on stderr when a written fixture is at least this many bytes; 0 disables. @default 262144 */
  sizeWarningBytes?: number;
  /** Built-in secret patterns to allow in fixtures (e.g. `["bearer_token"]`). @default [] */
  allowSecretPatterns?: string[];
}

/** The defaults `resolveOptions` applies (frozen: one shared constant that no caller can change for everyone). */
export const DEFAULTS = Object.freeze({
  dir: "cassettes",
  normalizers: Object.freeze([]) as readonly Normalizer[],
  redactors: Object.freeze([]) as readonly Redactor[],
  sizeWarningBytes: 262144,
  allowSecretPatterns: Object.freeze([]) as readonly string[],
});

export interface ResolvedOptions {
  dir: string;
  /** The working directory a relative `dir` was resolved against; undefined for an absolute one. */
  relativeTo?: string;
  mode?: VcrMode;
  toolMode?: VcrToolMode;
  normalizers: Normalizer[];
  redactors: Redactor[];
  sizeWarningBytes: number;
  allowSecretPatterns: Set<string>;
}

const KNOWN = new Set(["dir", "mode", "toolMode", "normalizers", "redactors", "sizeWarningBytes", "allowSecretPatterns"]);

export function resolveOptions(options: VcrOptions = {}): ResolvedOptions {
  if (options === null || typeof options !== "object") throw new VcrConfigError("new Vcr(options) takes an options object.");
  for (const k of Object.keys(options)) {
    if (!KNOWN.has(k)) throw new VcrConfigError(`unknown option "${k}". Valid options are: ${[...KNOWN].join(", ")}.`);
  }
  const dir = options.dir ?? DEFAULTS.dir;
  if (typeof dir !== "string" || dir === "") throw new VcrConfigError(`options.dir must be a non-empty string (got ${JSON.stringify(dir)}).`);
  if (dir.includes("\0"))
    throw new VcrConfigError(
      `options.dir ${JSON.stringify(dir)} contains a NUL character, which no file path may hold.\n  Fix it: pass the fixture directory's path as plain text, e.g. new Vcr({ dir: "cassettes" }).`,
    );
  const fnList = <T>(name: string, v: unknown, fallback: readonly T[]): T[] => {
    if (v === undefined) return [...fallback];
    if (!Array.isArray(v) || v.some((f) => typeof f !== "function")) {
      throw new VcrConfigError(`options.${name} must be an array of functions.`);
    }
    return [...v] as T[];
  };
  const size = options.sizeWarningBytes ?? DEFAULTS.sizeWarningBytes;
  if (typeof size !== "number" || !Number.isFinite(size) || size < 0) {
    throw new VcrConfigError(`options.sizeWarningBytes must be a number ≥ 0 (0 disables; got ${JSON.stringify(size)}).`);
  }
  const allow = options.allowSecretPatterns ?? DEFAULTS.allowSecretPatterns;
  if (!Array.isArray(allow) || allow.some((p) => typeof p !== "string")) {
    throw new VcrConfigError(`options.allowSecretPatterns must be an array of pattern names (${SECRET_PATTERN_NAMES.join(", ")}).`);
  }
  for (const p of allow) {
    if (!SECRET_PATTERN_NAMES.includes(p)) {
      throw new VcrConfigError(`${JSON.stringify(p)} is not a secret pattern name. Valid names are: ${SECRET_PATTERN_NAMES.join(", ")}.`);
    }
  }
  return {
    dir: path.resolve(process.cwd(), dir),
    relativeTo: path.isAbsolute(dir) ? undefined : process.cwd(),
    mode: options.mode === undefined ? undefined : checkMode(options.mode, "options.mode"),
    toolMode: options.toolMode === undefined ? undefined : checkToolMode(options.toolMode, "options.toolMode"),
    normalizers: fnList("normalizers", options.normalizers, DEFAULTS.normalizers),
    redactors: fnList("redactors", options.redactors, DEFAULTS.redactors),
    sizeWarningBytes: size,
    allowSecretPatterns: new Set(allow),
  };
}
