/**
 * Whether this is the thread Node runs module-loader hooks in (`module.register()`, `--import tsx`,
 * Yarn PnP's loader). Node 20 runs `--require` preloads there too, so a setup file's install()
 * runs in it, where it loads nothing for a test: what it could not load there is no news for the
 * user (measured under Yarn PnP: a note that string models are not recorded, printed on every run,
 * while the main thread recorded and replayed them). Only for what to say: a thread wrongly
 * taken for it still gets the whole of install().
 */
import * as workerThreads from "node:worker_threads";

export function inLoaderHooksThread(): boolean {
  const wt = workerThreads as typeof workerThreads & { isInternalThread?: boolean };
  if (typeof wt.isInternalThread === "boolean") return wt.isInternalThread; // Node 22.14+
  // Node 20: a worker started with no data and no script of its own
  return !wt.isMainThread && wt.workerData === null && process.argv.length < 2;
}
