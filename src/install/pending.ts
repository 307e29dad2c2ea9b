/**
 * What `install()` started that finishes later: ES modules it loads with `import()` where
 * `require()` cannot give them (tsx registered first compiles them to CommonJS copies; vitest's
 * VM pools), whose classes are patched or wrapped when the import resolves. A call made before
 * then runs unrecorded (measured: node:test with tsx in an ES-module project, OpenAIEmbeddings
 * answered live under replay_only, 0 fixtures, the class wrapped 12 ms after the first test
 * began). So the runner plugins wait for it before tests, and `uninstall.ready` lets a setup file
 * wait. The wait is bounded: an import that has not settled after `WAIT_MS` is a warning naming
 * it, and the tests go on (node:test's hooks have no timeout of their own).
 */
import { log } from "../log";
import { processWide } from "../processWide";

/** How long the plugins wait; their hooks are given longer (a runner's own hook timeout would say less). */
export const WAIT_MS = 10_000;
export const HOOK_TIMEOUT_MS = WAIT_MS + 5_000;

/** Each piece of work under way, and what it loads (for the warning). */
const pending = processWide("installPending.v2", () => new Map<Promise<unknown>, string>());

/** `work` (loading `what`) is part of what install() started: waited for until it settles, fulfilled or not (a failure is reported where it happens). */
export function trackInstallWork(work: Promise<unknown>, what: string): void {
  pending.set(work, what);
  const done = () => pending.delete(work);
  work.then(done, done);
}

/** Whether install() work is under way. */
export function installPending(): boolean {
  return pending.size > 0;
}

/**
 * Settles (never rejects) once all install() work started so far, and any started meanwhile, has,
 * or after `limitMs` with a warning; undefined when there is none (nothing to wait for).
 */
export function installSettled(limitMs = WAIT_MS): Promise<void> | undefined {
  if (pending.size === 0) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), limitMs);
    timer.unref?.();
  });
  const all = (async () => {
    while (pending.size) await Promise.allSettled([...pending.keys()]);
  })();
  return Promise.race([all, late]).then((outcome) => {
    clearTimeout(timer);
    if (outcome === "late") log.warn(stillLoading([...pending.values()], limitMs));
  });
}

function stillLoading(what: string[], limitMs: number): string {
  return (
    `vcr.install() is still loading ${what.join(", ")} with import() after ${limitMs / 1000} s; the tests go on without waiting longer.\n` +
    `  Until it has loaded, calls on those classes are not recorded or replayed: they reach the provider, under replay_only too.\n` +
    `  An import() that never settles is usually a module-loader hook (tsx, a custom --import) that hangs, or a module whose top-level await does.\n` +
    `  Fix it: find what hangs with NODE_DEBUG=langchain-vcr and node --trace-warnings; or load LangChain without that loader, or wire those models explicitly (cache: vcr.cache, vcr.embeddings()).`
  );
}
