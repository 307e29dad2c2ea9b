/**
 * Where per-run and per-test state lives. `withVcr` scopes use AsyncLocalStorage, so
 * concurrent scopes never see each other. The current mocha test is process-wide state
 * (mocha runs one test at a time per process); it is kept on a global symbol so every copy
 * of this package in the process (ESM and CommonJS) shares it.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { VcrMode, VcrToolMode } from "./modes";

export interface VcrOverride {
  mode?: VcrMode;
  toolMode?: VcrToolMode;
}

/** Bookkeeping for one unit of work: a mocha test, a `withVcr` scope, or the whole process. */
export class Scope {
  /** How many times each tool request has been made in this scope (for ordered replay). */
  readonly occurrences = new Map<string, number>();
  /** Fixture files this scope created (deleted again if the test fails). */
  readonly created = new Set<string>();
  /** Fixture files this scope replaced, with their previous bytes (restored if the test fails). */
  readonly overwritten = new Map<string, Buffer>();
  constructor(readonly title: string | undefined, readonly override: VcrOverride = {}) {}

  nextOccurrence(key: string): number {
    const n = (this.occurrences.get(key) ?? 0) + 1;
    this.occurrences.set(key, n);
    return n;
  }
}

interface GlobalState {
  als: AsyncLocalStorage<Scope>;
  test: Scope | undefined;
  process: Scope;
  /** Every hash used in this process (for the ledger), across tests. */
  listeners: Set<(event: ScopeEvent) => void>;
}

export type ScopeEvent =
  | { type: "used"; hash: string; file: string }
  | { type: "replayed" | "recorded" | "bypassed" | "missed"; kind: string };

const KEY = Symbol.for("langchain-vcr.state.v1");
const g = globalThis as unknown as Record<symbol, GlobalState | undefined>;
const state: GlobalState = (g[KEY] ??= {
  als: new AsyncLocalStorage<Scope>(),
  test: undefined,
  process: new Scope(undefined),
  listeners: new Set(),
});

/** The innermost scope: a `withVcr` scope, else the current test, else the process. */
export function currentScope(): Scope {
  return state.als.getStore() ?? state.test ?? state.process;
}

/** The override in force here, if any (only `withVcr` scopes carry one). */
export function currentOverride(): VcrOverride | undefined {
  return state.als.getStore()?.override;
}

/** The mocha test that is running, if any. */
export function currentTest(): Scope | undefined {
  return state.test;
}

export function runInScope<T>(scope: Scope, fn: () => T): T {
  return state.als.run(scope, fn);
}

export function enterTest(title: string): Scope {
  state.test = new Scope(title);
  return state.test;
}

export function leaveTest(): Scope | undefined {
  const t = state.test;
  state.test = undefined;
  return t;
}

export function onScopeEvent(listener: (event: ScopeEvent) => void): () => void {
  state.listeners.add(listener);
  return () => state.listeners.delete(listener);
}

export function emit(event: ScopeEvent): void {
  for (const l of state.listeners) l(event);
}
