/**
 * What `install()` started that finishes later: ES modules it loads with `import()` where
 * `require()` cannot give them (tsx registered first compiles them to CommonJS copies; vitest's
 * VM pools), whose classes are patched or wrapped when the import resolves. A call made before
 * then runs unrecorded (measured: node:test with tsx in an ES-module project, OpenAIEmbeddings
 * answered live under replay_only, 0 fixtures, the class wrapped 12 ms after the first test
 * began). So the runner plugins wait for it before a file's first test, and `uninstall.ready`
 * lets a setup file wait.
 */
import { processWide } from "../processWide";

const pending = processWide("installPending.v1", () => new Set<Promise<unknown>>());

/** `work` is part of what install() started: waited for until it settles, fulfilled or not (a failure is reported where it happens). */
export function trackInstallWork(work: Promise<unknown>): void {
  pending.add(work);
  const done = () => pending.delete(work);
  work.then(done, done);
}

/** Settles once all install() work started so far, and any it started meanwhile, has; undefined when there is none (nothing to wait for). */
export function installSettled(): Promise<void> | undefined {
  if (pending.size === 0) return undefined;
  return Promise.allSettled([...pending]).then(() => installSettled());
}
