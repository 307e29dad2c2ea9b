/**
 * Which module files of an installed integration hold its Embeddings classes, so that a process
 * that reaches them ahead of time (an ES-module process; jest, per test file) loads those files
 * instead of the package's whole entry. Measured: `@langchain/mistralai`'s ESM entry takes ~0.5 s
 * to load (its chat model's SDK), its embeddings module ~2 ms; vitest runs each test file in a
 * process of its own, so a suite that never used Mistral paid that in every test file under
 * `install()` (20 files: 16.7 s against 10.6 s with explicit wiring; BENCHMARKS.md).
 *
 * Learned once per installed copy, in a process that loaded the whole entry: the Embeddings
 * classes it exports are looked for by name in the package's files of the entry's kind, and a
 * file counts only when loading it gives the very same classes (identity, not names). Only when
 * the entry exports such classes (over a copy of core that is patched) and every one is found so
 * is the list kept: in `.cache/langchain-vcr` of the `node_modules` nearest the working directory
 * that holds `@langchain` packages, keyed on the package's version and on the size and time of
 * every file of the entry's kind under its directory (the entry, the listed files, any file in
 * between), so a package updated or patched in place is learned again. Nothing is learned from a
 * package whose files changed less than `SETTLED_MS` before the process started or since: what it
 * loaded may be older than what is on disk (measured in a trial: a patch applied while a vitest run
 * loaded the entry kept the old list under the new stamps, and its new class went live under CI).
 * Anything else (no such directory, an empty list, a class not found, a file added, gone or
 * changed, a listed file that gives no Embeddings class: `integrations.ts`) is the whole entry.
 */
import * as fs from "node:fs";
import { isDirectory } from "../fsProbe";
import * as path from "node:path";
import { createHash } from "node:crypto";
import { performance } from "node:perf_hooks";
import { embeddingsPrototypes } from "./embeddings";
import { log } from "../log";
import { replaceFile } from "../replaceFile";

/** Versioned: a release that changes what counts as an Embeddings class, or what a list means, names a new directory. */
const CACHE = path.join(".cache", "langchain-vcr", "embeddings-files.v1");
/**
 * How long before this process started a package's files must have last changed for a list to be
 * learned from what it loaded (file times can lag the clock: a network filesystem's server).
 */
const SETTLED_MS = 2000;
/** Files of a package looked through for its classes, at most. */
const MAX_FILES = 2000;

interface Kept {
  entry: string;
  version: string;
  stamps: Record<string, string>;
  files: string[];
}

/** The files to load instead of `entry` (the copy of the integration in `dir`), when they were learned for it as it is now. */
export function embeddingsFiles(dir: string, entry: string): string[] | undefined {
  const file = cacheFile(entry);
  if (!file) return undefined;
  let kept: Kept;
  try {
    kept = JSON.parse(fs.readFileSync(file, "utf8")) as Kept;
  } catch {
    return undefined; // not learned yet (or unreadable: learned again)
  }
  if (kept.entry !== entry || kept.version !== versionOf(dir) || !Array.isArray(kept.files) || !kept.files.length) return undefined;
  if (!kept.files.every((f) => typeof f === "string" && f.startsWith(dir + path.sep))) return undefined; // the package's own files only
  return sameStamps(kept.stamps, statsOf(filesOf(entry)).stamps) ? kept.files : undefined;
}

/** Each file's stamp (size, modified and changed times: a change cannot set its ctime back), and the latest ctime among them. */
function statsOf(files: readonly string[]): { stamps: Record<string, string>; newest: number } {
  const stamps: Record<string, string> = {};
  let newest = 0;
  for (const f of files) {
    try {
      const s = fs.statSync(f);
      stamps[f] = `${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
      newest = Math.max(newest, s.ctimeMs);
    } catch {
      stamps[f] = "";
    }
  }
  return { stamps, newest };
}

function sameStamps(a: Record<string, string> | undefined, b: Record<string, string>): boolean {
  if (typeof a !== "object" || a === null) return false;
  const keys = Object.keys(b);
  return keys.length === Object.keys(a).length && keys.every((k) => a[k] === b[k]);
}

/**
 * After `entry` was loaded (`exports`), learns which files hold the Embeddings classes it exports,
 * loading each candidate with `load` as the entry was loaded (already loaded, as a rule: the
 * entry's own modules). Never throws: a file that cannot be loaded only means nothing is kept.
 */
export function learnEmbeddingsFiles(dir: string, entry: string, exports: unknown, load: (file: string) => unknown): void {
  const steps = learning(dir, entry, exports);
  try {
    for (let step = steps.next(); !step.done; step = steps.next(load(step.value)));
  } catch (e) {
    log.debug(`could not learn the Embeddings files of ${entry}: ${(e as Error).message}`);
  }
}

/** `learnEmbeddingsFiles` for a `load` that resolves (`import()`). */
export async function learnEmbeddingsFilesLater(dir: string, entry: string, exports: unknown, load: (file: string) => Promise<unknown>): Promise<void> {
  const steps = learning(dir, entry, exports);
  try {
    for (let step = steps.next(); !step.done; step = steps.next(await load(step.value)));
  } catch (e) {
    log.debug(`could not learn the Embeddings files of ${entry}: ${(e as Error).message}`);
  }
}

/** Yields each candidate file to load, takes its exports back, and keeps the list once every class the entry exports was found. */
function* learning(dir: string, entry: string, exports: unknown): Generator<string, void, unknown> {
  const cache = cacheFile(entry);
  if (!cache) return;
  const left = embeddingsPrototypes(exports);
  if (!left.size) return; // none found (none exported, or over a copy of core not patched): nothing learned, the entry each time
  const files = filesOf(entry);
  const chosen: string[] = [];
  for (const file of candidates(files, left)) {
    if (!left.size) break;
    const found = embeddingsPrototypes(yield file);
    if (![...found].some((p) => left.has(p))) continue;
    chosen.push(file);
    for (const p of found) left.delete(p);
  }
  if (left.size) return; // a class not found in a file of its own: the whole entry each time
  // a file changed since this process started (an install, patch-package or a build under way): what it loaded may be older than what is on disk
  const { stamps, newest } = statsOf(files);
  if (newest >= performance.timeOrigin - SETTLED_MS) return;
  const kept: Kept = { entry, version: versionOf(dir), stamps, files: chosen };
  writeAtomically(cache, JSON.stringify(kept, null, 2) + "\n");
}

/** Those of the package's `files` that define a class of one of `protos`' names, those named like embeddings first. */
function candidates(files: readonly string[], protos: Set<object>): string[] {
  const names = [...protos]
    .map((p) => (p as { constructor?: { name?: unknown } }).constructor?.name)
    .filter((n): n is string => typeof n === "string" && /^[\w$]+$/.test(n));
  if (!names.length) return [];
  const defines = new RegExp(`(\\bclass\\s+(${names.join("|")})\\b|\\b(${names.join("|")})\\s*=\\s*class\\b)`);
  const defining = files.filter((f) => {
    try {
      return defines.test(fs.readFileSync(f, "utf8"));
    } catch {
      return false;
    }
  });
  const embedsFirst = (f: string) => (/embed/i.test(path.basename(f)) ? 0 : 1);
  return defining.sort((a, b) => embedsFirst(a) - embedsFirst(b) || a.localeCompare(b));
}

/** The package's files of the entry's kind (.js, .mjs or .cjs) under the entry's directory, the entry included. */
function filesOf(entry: string): string[] {
  const ext = path.extname(entry);
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (out.length >= MAX_FILES) return;
      const p = path.join(d, e.name);
      if (e.isDirectory() && e.name !== "node_modules") walk(p);
      else if (e.isFile() && e.name.endsWith(ext) && !e.name.endsWith(".d" + ext)) out.push(p);
    }
  };
  try {
    walk(path.dirname(entry));
  } catch {
    return [];
  }
  return out;
}

/** The cache file for `entry`, under the `node_modules` nearest the working directory that holds `@langchain` packages (not an unrelated one above the project); undefined when there is none. */
function cacheFile(entry: string): string | undefined {
  for (let d = process.cwd(); ; d = path.dirname(d)) {
    const nm = path.join(d, "node_modules");
    if (isDirectory(path.join(nm, "@langchain"))) return path.join(nm, CACHE, createHash("sha256").update(entry).digest("hex").slice(0, 32) + ".json");
    if (path.dirname(d) === d) return undefined;
  }
}

function versionOf(dir: string): string {
  try {
    return String((JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version?: unknown }).version);
  } catch {
    return "";
  }
}

/** Written whole or not at all (a temporary file, then renamed): another process may read it meanwhile. */
function writeAtomically(file: string, text: string): void {
  try {
    replaceFile(file, text);
  } catch (e) {
    log.debug(`could not keep ${file}: ${(e as Error).message}`);
  }
}
