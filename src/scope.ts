/**
 * Where per-run and per-test state lives. `withVcr` scopes use AsyncLocalStorage, so
 * concurrent scopes never see each other. A test that runs concurrently with others (vitest
 * `test.concurrent`, node:test `concurrency`) lives in a second AsyncLocalStorage; any other
 * test in one process-wide slot, since the runner runs one such test at a time per process
 * (a store costs every promise of the test a little once AsyncLocalStorage is in use, so
 * sequential tests do without). All of it is kept on a global symbol so every copy of this package in the
 * process (ESM and CommonJS) shares it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { VcrMode, VcrToolMode } from "./modes";
import { processWide } from "./processWide";
import type { Unanswered } from "./runner/caughtMisses";
import type { ToolFromOther } from "./runner/toolsFromOthers";
import type { MissedTest } from "./diagnose/rerecordCommand";

export interface VcrOverride {
  mode?: VcrMode;
  toolMode?: VcrToolMode;
}

/** A live recording call that has not answered yet. */
export interface LiveCall {
  describe: string;
  kind: string;
  hash: string;
  file: string;
}

/** The runners whose re-record hint langchain-vcr knows. */
export type RunnerName = "mocha" | "vitest" | "jest" | "node-test";

/** A tool error a fixture replayed, as that tool's later message may quote it (`Scope.replayedToolErrors`). */
export interface ReplayedError {
  /** The tool whose fixture replayed it. */
  tool: string;
  name: string;
  /** Its class's name (`constructor.name`): the name `instanceof` tests, when it is not `name` (a class that sets no `this.name`). */
  className: string;
  message: string;
}

/** Bookkeeping for one unit of work: a test, a `withVcr` scope, or the whole process. */
export class Scope {
  /** How many times each tool request has been made in this scope (for ordered replay). */
  readonly occurrences: Map<string, number>;
  /** Occurrences given back (a call that interrupted a LangGraph graph runs again on resume), smallest first. */
  readonly returned: Map<string, number[]>;
  /** Fixture files this scope created (deleted again if the test fails). */
  readonly created: Set<string>;
  /** Fixture files this scope replaced, with their previous bytes (restored if the test fails). */
  readonly overwritten: Map<string, Buffer>;
  /** How many recordings this scope wrote (a file written twice counts twice), for the summary when a failed test's are undone. */
  readonly tally: { recorded: number };
  /** Live recording calls in flight, by hash. */
  readonly live: Map<string, LiveCall>;
  /** The name the runner's name filter matches, when it is not `title` (node:test matches a test's own name). */
  filterTitle?: string;
  /** The test's file, as its runner plugin names it: the usage ledger keeps each test under it (else its process's file, `runner/usage.ts`), and a miss's command names it (vitest, jest). */
  specFile?: string;
  /** The test has ended: a store of it that AsyncLocalStorage still carries into later code no longer counts. */
  ended = false;
  /** How the test ended, when its runner said (`runner/lifecycle.ts`). */
  outcome?: "passed" | "failed";
  /** Fixtures another running test had just recorded that this one replayed (`runner/sharedRecordings.ts`). */
  usedFromOthers?: Set<string>;
  /** Of `created`, the recordings a failed test beside it handed over (not this test's own: `runner/sharedRecordings.ts`). */
  received?: Set<string>;
  /**
   * langchain-vcr's errors that tool calls of this test threw (a miss, a refused secret), and its
   * model calls' misses: a caller may have passed one on to the model as text (createAgent's
   * ToolNode does for a tool's, summarizationMiddleware for a model's), and a model request that
   * misses because it carries one throws it instead (recorder.ts).
   */
  toolErrors?: Error[];
  /**
   * The errors tool fixtures of this test replayed (a recorded throw), by name and message: code that told the real
   * error apart with instanceof or an object field handles these otherwise, which a miss then says (diagnose/diff.ts).
   */
  replayedToolErrors?: ReplayedError[];
  /** The runner runs the test again after this failed attempt (vitest's `retry`, `jest.retryTimes`): the clean-up and the summary say so. */
  retried?: boolean;
  /** Tool calls of the test answered by fixtures other tests of this process recorded (`runner/toolsFromOthers.ts`). */
  toolsFromOthers?: ToolFromOther[];
  /** Requests of the test no fixture answered whose error it may have caught (`runner/caughtMisses.ts`). */
  unanswered?: Unanswered[];
  /**
   * `shares`: a scope whose bookkeeping this one uses (a `withVcr` scope inside a test keeps
   * the test's call numbering and fixture list; only the override is its own).
   */
  constructor(
    readonly title: string | undefined,
    readonly override: VcrOverride = {},
    shares?: Scope,
  ) {
    this.occurrences = shares?.occurrences ?? new Map();
    this.returned = shares?.returned ?? new Map();
    this.created = shares?.created ?? new Set();
    this.overwritten = shares?.overwritten ?? new Map();
    this.tally = shares?.tally ?? { recorded: 0 };
    this.live = shares?.live ?? new Map();
  }

  nextOccurrence(key: string): number {
    const back = this.returned.get(key);
    if (back?.length) return back.shift()!;
    const n = (this.occurrences.get(key) ?? 0) + 1;
    this.occurrences.set(key, n);
    return n;
  }

  /** Gives occurrence `n` of `key` back: the next `nextOccurrence` of `key` takes the smallest number given back. */
  returnOccurrence(key: string, n: number): void {
    const back = this.returned.get(key) ?? [];
    back.push(n);
    back.sort((a, b) => a - b);
    this.returned.set(key, back);
  }
}

interface GlobalState {
  als: AsyncLocalStorage<Scope>;
  tests?: AsyncLocalStorage<Scope>;
  test: Scope | undefined;
  process: Scope;
  listeners: Set<(event: ScopeEvent) => void>;
  runner?: RunnerName;
  /** How many Vcr objects this process has built, by either copy of langchain-vcr (`vcrCreated`). */
  vcrs?: number;
  /** The runner plugin's way to find a test neither store above holds (jest's `test.concurrent`: `setTestFinder`). */
  finder?: () => Scope | undefined;
}

export type ScopeEvent =
  | { type: "used"; hash: string; file: string }
  | { type: "replayed" | "recorded"; kind: string; mode?: VcrMode }
  /** `ownCache`: a call of a model with a cache of its own, which `vcr.install()` leaves unrecorded (stopped under replay_only). */
  | { type: "bypassed"; kind: string; mode?: VcrMode; ownCache?: boolean }
  /**
   * `cause`: the request's first difference from its nearest fixture, as the miss error words it (the summary rolls shared
   * ones up); `hash`: the request's, so a request missed again on a retried attempt counts once there; `dir`: the fixture
   * directory it was looked for in (the summary names it, though no fixture there was used); `test`: the test, when its
   * miss's fix is to record it again (the summary's one command for every such test).
   */
  | { type: "missed"; kind: string; mode?: VcrMode; cause?: string; hash?: string; dir?: string; test?: MissedTest }
  /** A `record_or_replay` miss went to the provider to be recorded, and that call failed. */
  | { type: "failedLive"; kind: string; mode?: VcrMode }
  /** A request whose fixture would have held a secret: refused (a VcrSecretError), nothing written. */
  | { type: "refused"; kind: string; mode?: VcrMode }
  /**
   * A failed test's recordings were taken back (`restoreFailedTest`): they no longer count as recorded.
   * `retried`: a failed attempt's, which its runner runs again (vitest's `retry`, `jest.retryTimes`).
   */
  | { type: "undone"; count: number; retried?: boolean }
  /**
   * A lookup met a damaged fixture file (a `VcrFixtureError` was thrown): the summary points at
   * `validate`. `replayed`: the lookup had found it, and was counted as replayed (a response that
   * fails its kind's rule).
   */
  | { type: "damaged"; file: string; replayed?: boolean };

const state: GlobalState = processWide<GlobalState>("state.v1", () => ({
  als: new AsyncLocalStorage<Scope>(),
  test: undefined,
  process: new Scope(undefined),
  listeners: new Set(),
}));
const tests: AsyncLocalStorage<Scope> = (state.tests ??= new AsyncLocalStorage<Scope>());

/** Run as each test's scope begins: what `vcr.install()` must find in place at every test (moderation/fetch.ts). */
const testStarts = processWide("scope.testStarts.v1", () => new Set<() => void>());

/** Adds `hook` to what runs as each test begins; returns the function that removes it. */
export function onTestStart(hook: () => void): () => void {
  testStarts.add(hook);
  return () => void testStarts.delete(hook);
}

/** A test's scope, as every runner plugin makes one when the test begins: the `onTestStart` hooks run first. */
export function testScope(title: string): Scope {
  for (const hook of testStarts) hook();
  return new Scope(title);
}

/** The innermost scope: a `withVcr` scope, else the current test, else the process. */
export function currentScope(): Scope {
  return state.als.getStore() ?? currentTest() ?? state.process;
}

/** The override in force here, if any (only `withVcr` scopes carry one). */
export function currentOverride(): VcrOverride | undefined {
  return state.als.getStore()?.override;
}

/** The test that is running here, if any. */
export function currentTest(): Scope | undefined {
  const concurrent = tests.getStore();
  if (concurrent && !concurrent.ended) return concurrent;
  return state.finder?.() ?? state.test;
}

/**
 * Sets how the test is found where a runner runs tests concurrently without hooks around each one
 * to enter it (jest's `test.concurrent`, whose bodies run in jest's own async context): asked
 * before the process-wide slot, which a sequential test may hold meanwhile (jest 29 starts the
 * concurrent bodies as their file starts). It must answer undefined outside such a test. Undefined: none.
 */
export function setTestFinder(finder: (() => Scope | undefined) | undefined): void {
  state.finder = finder;
}

export function runInScope<T>(scope: Scope, fn: () => T): T {
  return state.als.run(scope, fn);
}

/** A test starts, in a runner that runs one test at a time per process (mocha, jest). */
export function enterTest(title: string, specFile?: string): Scope {
  state.test = testScope(title);
  if (specFile !== undefined) state.test.specFile = specFile;
  return state.test;
}

export function leaveTest(): Scope | undefined {
  const t = state.test;
  state.test = undefined;
  return t;
}

/** A test that runs alone starts: it takes the process-wide slot. */
export function enterTestSlot(scope: Scope): void {
  state.test = scope;
}

/** That test ends: the slot is freed (unless another test took it since). */
export function leaveTestSlot(scope: Scope): void {
  if (state.test === scope) state.test = undefined;
}

/** Runs `fn` as the test `scope` (its async continuations included): concurrent tests each see their own. */
export function runAsTest<T>(scope: Scope, fn: () => T): T {
  return tests.run(scope, fn);
}

/** Makes `scope` the test for the rest of this synchronous call and what it starts (vitest's `beforeEach`). */
export function enterTestContext(scope: Scope): void {
  tests.enterWith(scope);
}

/** Keeps `e` in the test's `toolErrors`, once: a model miss inside a tool body is kept by the recorder and by the tool. */
export function keepPassableError(test: Scope, e: Error): void {
  const kept = (test.toolErrors ??= []);
  if (!kept.includes(e)) kept.push(e);
}

/** Which runner's plugin is loaded (for the re-record hint). */
export function setRunner(name: RunnerName): void {
  state.runner = name;
}

export function currentRunner(): RunnerName | undefined {
  return state.runner;
}

/**
 * Called by the Vcr constructor: a count, not an event, which another copy of langchain-vcr's listeners (another version
 * in the same process) would not know. A test file's report reads it when written (`Usage.noteVcrs`).
 */
export function vcrCreated(): void {
  state.vcrs = (state.vcrs ?? 0) + 1;
}

/** How many Vcr objects this process has built so far. */
export function vcrsCreated(): number {
  return state.vcrs ?? 0;
}

export function onScopeEvent(listener: (event: ScopeEvent) => void): () => void {
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

export function emit(event: ScopeEvent): void {
  for (const l of state.listeners) l(event);
}
