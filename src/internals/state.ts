/**
 * What the patches of every copy of @langchain/core share in this process: the first copy
 * that could not be patched (its error is thrown by every `new Vcr()`), and the Vcr that
 * `vcr.install()` made the default for models, embeddings and tools with none of their own.
 */
import type { ModerateFn } from "../adapters/moderation/fetch";
import type { VcrConfigError } from "../errors";
import { processWide } from "../processWide";

/** The parts of an installed Vcr the patches use (kept free of the Vcr class: no import cycle). */
export interface InstalledVcr {
  /** A VcrCache: the cache every model without one of its own uses. */
  cache: object;
  /** Wraps a tool as `vcr.tool()` does. */
  tool(t: object): object;
  /** Wraps embeddings as `vcr.embeddings()` does. */
  embeddings(inner: object): { embedQuery(text: string): Promise<number[]>; embedDocuments(texts: string[]): Promise<number[][]> };
  /** Records or replays one call of OpenAI's moderation endpoint (src/adapters/moderation/). */
  moderation?: ModerateFn;
}

/** One per process: the CommonJS and ESM builds of langchain-vcr share it. */
const state = processWide("internals.v1", () => ({
  broken: undefined as VcrConfigError | undefined,
  esmCore: false,
}));

/**
 * The installed Vcr lives in one slot per process, not per copy of this module: core's
 * prototypes are patched once (by the first copy of langchain-vcr to load, when a process
 * holds two installed versions over the one @langchain/core they share), and those patches
 * must see an `install()` made through any copy — else its models would go live unrecorded.
 */
const INSTALLED = Symbol.for("langchain-vcr.installed.v1");
const slot = globalThis as unknown as Record<symbol, InstalledVcr | undefined>;

export function noteBrokenCore(error: VcrConfigError): void {
  state.broken ??= error;
}

/** Throws the error of a copy of core that could not be patched, if there is one. */
export function assertCoreUsable(): void {
  if (state.broken) throw state.broken;
}

export function installedVcr(): InstalledVcr | undefined {
  return slot[INSTALLED];
}

export function setInstalledVcr(vcr: InstalledVcr | undefined): void {
  slot[INSTALLED] = vcr;
}

/** Called when the ESM entry patched the ESM copy of core at import: the process loads LangChain as ES modules. */
export function noteEsmCore(): void {
  state.esmCore = true;
}

export function esmCoreLoadedByEntry(): boolean {
  return state.esmCore;
}

/**
 * How many test files have begun in this process, as a runner plugin that runs files one after
 * another in one worker counts them (vitest's setup file, which runs before each test file).
 */
const testFiles = processWide("testFiles.v1", () => ({ begun: 0 }));

/** A runner plugin: a test file begins. */
export function noteTestFileBegins(): void {
  testFiles.begun++;
}

/** How many test files have begun (0 where no runner plugin counts them). */
export function testFilesBegun(): number {
  return testFiles.begun;
}
