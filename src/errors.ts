/**
 * Errors thrown by langchain-vcr. Every error has a stable `code`; messages follow
 * one shape: what happened, the facts, the nearest recorded thing, the command that fixes it.
 * Every message begins with `PREFIX`, which `VcrError` adds: no thrower types it.
 */

/** What each of langchain-vcr's messages begins with. */
export const PREFIX = "langchain-vcr: ";

/**
 * What the error of a request stopped before it was made says (diagnose/recordingElsewhere.ts), and what tells a test
 * that failed on it (runner/caughtMisses.ts: it needs no note, user trial 46).
 */
export const NOT_MADE_TEXT = "was not made: it would be recorded into";

/**
 * `text` with the prefix, exactly once. A text that has it already (a VcrError's message passed
 * on, or a caller written before the prefix had an owner) is left as it is, never doubled.
 */
export function prefixed(text: string): string {
  return text.startsWith(PREFIX) ? text : PREFIX + text;
}

const BRAND = Symbol.for("langchain-vcr.error");

export type VcrErrorCode = "VCR_MISS" | "VCR_FIXTURE" | "VCR_CONFIG" | "VCR_SECRET" | "VCR_RECORD";

export class VcrError extends Error {
  readonly code: VcrErrorCode;
  constructor(code: VcrErrorCode, message: string, options?: { cause?: unknown }) {
    super(prefixed(message), options);
    this.name = new.target.name;
    this.code = code;
    Object.defineProperty(this, BRAND, { value: true });
  }
}

/** One field that differs between the nearest recorded request and the one asked. */
export interface VcrDifference {
  path: string;
  recorded: unknown;
  requested: unknown;
}

export interface VcrNearest {
  hash: string;
  file: string;
  differences: VcrDifference[];
}

export class VcrMissError extends VcrError {
  readonly hash: string;
  readonly kind: string;
  /** Not enumerable, as `nearest`: the message shows both, and a runner that prints an error's own fields (vitest) would print them again, whole. */
  declare readonly request: unknown;
  declare readonly nearest?: VcrNearest;
  constructor(message: string, details: { hash: string; kind: string; request: unknown; nearest?: VcrNearest }) {
    super("VCR_MISS", message);
    this.hash = details.hash;
    this.kind = details.kind;
    Object.defineProperty(this, "request", { value: details.request, enumerable: false, configurable: true });
    if (details.nearest) Object.defineProperty(this, "nearest", { value: details.nearest, enumerable: false, configurable: true });
  }
}

export class VcrFixtureError extends VcrError {
  readonly file: string;
  constructor(message: string, file: string, options?: { cause?: unknown }) {
    super("VCR_FIXTURE", message, options);
    this.file = file;
  }
}

/**
 * A wrong option, setup or use: the message says what to change, and the stack keeps only the caller's own
 * frames (none of node_modules, langchain-vcr's and LangChain's among them, nor Node's). A runner that prints
 * a setup file's error whole (mocha's `✖ ERROR:` for a `--require`) then shows the message and the user's line,
 * not 17 frames of mocha and Node; vitest's code frame points at the same line.
 */
export class VcrConfigError extends VcrError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("VCR_CONFIG", message, options);
    if (typeof this.stack === "string") this.stack = callerFrames(this.stack);
  }
}

/**
 * A stack's lines but the frames outside the caller's own code (node_modules, Node's internals, native frames); the
 * stack as it was when none is left (an error raised deep in a LangChain call: its frames are what a report needs).
 */
export function callerFrames(stack: string): string {
  const lines = stack.split("\n");
  const frame = (line: string) => /^\s+at /.test(line);
  const kept = lines.filter((line) => !frame(line) || !/[\\/]node_modules[\\/]|\(node:|^\s+at node:|\(<anonymous>\)$/.test(line));
  return kept.some(frame) ? kept.join("\n") : stack;
}

/** A fixture about to be written holds something shaped like a credential. */
export class VcrSecretError extends VcrError {
  readonly path: string;
  readonly pattern: string;
  constructor(message: string, details: { path: string; pattern: string }) {
    super("VCR_SECRET", message);
    this.path = details.path;
    this.pattern = details.pattern;
  }
}

/** Recording failed for a reason of ours (unwritable directory, unrecordable value, redactor). */
export class VcrRecordError extends VcrError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("VCR_RECORD", message, options);
  }
}

/** True for any langchain-vcr error, even one thrown by another copy (ESM vs CommonJS) of the package. */
export function isVcrError(e: unknown): e is VcrError {
  return typeof e === "object" && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}
