/**
 * What `install()` started that finishes later: ES modules it loads with `import()` where
 * `require()` cannot give them (tsx registered first compiles them to CommonJS copies; vitest's
 * VM pools), whose classes are patched or wrapped when the import resolves. A call made before
 * then runs unrecorded (measured: node:test with tsx in an ES-module project, OpenAIEmbeddings
 * answered live under replay_only, 0 fixtures, the class wrapped 12 ms after the first test
 * began). So the runner plugins wait for it before tests, and `uninstall.ready` lets a setup file
 * wait. The wait is bounded (node:test's hooks have no timeout of their own): a piece of work
 * not settled after `WAIT_MS` is a warning naming it, once, and is not waited for again.
 */
import { log } from "../log";
import { processWide } from "../processWide";

/** How long a piece of work is waited for (loading core and the integrations under tsx on a busy 2-core machine: 2.3–4.4 s). */
export const WAIT_MS = 30_000;
/** The runners' hook timeout while waiting: longer than the wait, whose warning says more than theirs. */
export const HOOK_TIMEOUT_MS = WAIT_MS + 5_000;

/** Each piece of work under way, what it loads, and whether it has already outlived a wait. */
const pending = processWide("installPending.v3", () => new Map<Promise<unknown>, { what: string; late: boolean }>());

/** `work` (loading `what`) is part of what install() started: waited for until it settles, fulfilled or not (a failure is reported where it happens). */
export function trackInstallWork(work: Promise<unknown>, what: string): void {
  pending.set(work, { what, late: false });
  const done = () => pending.delete(work);
  work.then(done, done);
}

/** Whether install() work is under way that a wait would wait for. */
export function installPending(): boolean {
  return pending.size > 0 && [...pending.values()].some((p) => !p.late); // asked before every node:test test: nothing built when nothing is under way
}

/**
 * Settles (never rejects) once all install() work started so far, and any started meanwhile, has,
 * or after `limitMs`, with a warning naming what is still loading (work that outlived a wait
 * before is not waited for again); undefined when there is nothing to wait for.
 */
export function installSettled(limitMs = WAIT_MS): Promise<void> | undefined {
  if (!installPending()) return undefined;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<"late">((resolve) => (timer = setTimeout(() => resolve("late"), limitMs))); // not unref'd: a runner with nothing else pending must wait for it
  const all = (async () => {
    let waiting: Promise<unknown>[];
    while ((waiting = [...pending].filter(([, p]) => !p.late).map(([work]) => work)).length) await Promise.allSettled(waiting);
  })();
  return Promise.race([all, late]).then((outcome) => {
    clearTimeout(timer);
    if (outcome !== "late") return;
    const still = [...pending.values()].filter((p) => !p.late);
    for (const p of still) p.late = true;
    if (still.length)
      log.warn(
        stillLoading(
          still.map((p) => p.what),
          limitMs,
        ),
      );
  });
}

function stillLoading(what: string[], limitMs: number): string {
  return (
    `vcr.install() is still loading ${what.join(", ")} with import() after ${limitMs / 1000} s; the tests go on without waiting for it again.\n` +
    `  Until it has loaded, calls on those classes are not recorded or replayed: a provider's model or embeddings may then be called, under replay_only too.\n` +
    `  An import() that never settles is usually a module-loader hook (tsx, a custom --import) or a module's top-level await that hangs; a very busy machine can also be this slow.\n` +
    `  Fix it: find what hangs (NODE_DEBUG=langchain-vcr shows what install() loads); or load LangChain without that loader, or wire those models explicitly (cache: vcr.cache, vcr.embeddings()).`
  );
}
