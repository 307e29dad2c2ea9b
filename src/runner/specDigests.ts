/**
 * What each test file of a run held, so `prune` can tell a ledger that no longer speaks for the
 * tests on disk: a branch switched, a test edited since the run, a pull of someone else's
 * changes. The digest is of the file's bytes (mtimes differ between a CI shard and the machine
 * that prunes); a test file that is gone since is a test deleted, whose fixtures prune may remove.
 * The files named like the run's test files beside them are listed too (excluded ones included),
 * so a test file added since (another branch's, a stash popped) is told from one the suite leaves out.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

/** What a ledger records of a run's test files (`files`, relative to `root`): their digests and the test-named files beside them. */
export function specFacts(root: string, files: readonly string[]): { specDigests: Record<string, string>; specSiblings: string[] } {
  return { specDigests: digestSpecFiles(root, files), specSiblings: specSiblings(root, files) };
}

/** Test file (as the ledger names it, relative to `root`) → the start of the SHA-256 of its bytes; a file that cannot be read is left out. */
export function digestSpecFiles(root: string, files: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files) {
    const digest = runDigestOf(path.resolve(root, f));
    if (digest !== undefined) Object.defineProperty(out, f, { value: digest, enumerable: true, writable: true, configurable: true });
  }
  return out;
}

/** The test files whose bytes differ from what the run saw (sorted); files since deleted are not among them. */
export function changedSpecFiles(records: readonly { specDigests?: Record<string, string> }[], root: string): string[] {
  const changed = new Set<string>();
  for (const r of records) {
    for (const [file, seen] of Object.entries(r.specDigests ?? {})) {
      const now = digestOf(path.resolve(root, file));
      if (now !== undefined && now !== seen) changed.add(file);
    }
  }
  return [...changed].sort();
}

/** The digest of a file's text with its line endings as LF (a checkout with autocrlf is the same test file). */
function digestOf(file: string): string | undefined {
  try {
    return createHash("sha256").update(fs.readFileSync(file, "latin1").replace(/\r\n/g, "\n"), "latin1").digest("hex").slice(0, 16);
  } catch {
    return undefined;
  }
}

/** A run's own digests, by file: a mocha --parallel worker writes its ledger after every test file, and each write names every file so far. */
const runDigests = new Map<string, string | undefined>();

/**
 * A new run starts in this process (a watch mode's rerun, `recordRunStart`): its test files are read again. Kept, the
 * session's first digests went into every rerun's ledger, and prune called a file edited and rerun "changed since the run"
 * (trial 58 L1).
 */
export function forgetRunDigests(): void {
  runDigests.clear();
  runSiblings.clear();
}

function runDigestOf(file: string): string | undefined {
  if (!runDigests.has(file)) runDigests.set(file, digestOf(file));
  return runDigests.get(file);
}

/** How a test file's name ends (`.spec.ts`, `.test.mjs`, `_test.js`): what names the files beside it that count as test files. */
const TEST_SUFFIX = /[._-](?:spec|test)\.[cm]?[jt]sx?$/;

/** Whether `file` is named as a test file (`refund.spec.ts`, `a.test.mjs`) and is not a package's (under node_modules). */
export function namedAsTestFile(file: string): boolean {
  return TEST_SUFFIX.test(file) && !file.split(/[\\/]/).includes("node_modules");
}

/** The files beside the run's test files named as they are (relative to `root`, sorted): the run's test files and those its config leaves out. */
export function specSiblings(root: string, files: readonly string[]): string[] {
  const out = new Set<string>();
  for (const [dir, suffixes] of suffixesByDir(root, files)) {
    const key = `${dir}\0${[...suffixes].sort().join("\0")}`;
    let names = runSiblings.get(key);
    if (!names) runSiblings.set(key, (names = testNamesIn(dir, suffixes)));
    for (const name of names) out.add(relative(root, path.join(dir, name)));
  }
  return [...out].sort();
}

/** The run's sibling lists, by directory and suffixes (see runDigests). */
const runSiblings = new Map<string, string[]>();

/** Test files named like the run's, beside them, that were not there when it ran (sorted): a test added since, on another branch, popped from a stash. */
export function addedSpecFiles(records: readonly { specFiles: string[]; specSiblings?: string[] }[], root: string): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  for (const r of records) {
    if (!r.specSiblings) return []; // a ledger of an older version: nothing to compare with
    for (const f of [...r.specFiles, ...r.specSiblings]) seen.add(f);
    files.push(...r.specFiles);
  }
  const added = new Set<string>();
  for (const [dir, suffixes] of suffixesByDir(root, files)) {
    for (const name of testNamesIn(dir, suffixes)) {
      const rel = relative(root, path.join(dir, name));
      if (!seen.has(rel)) added.add(rel);
    }
  }
  return [...added].sort();
}

function suffixesByDir(root: string, files: readonly string[]): Map<string, Set<string>> {
  const byDir = new Map<string, Set<string>>();
  for (const f of files) {
    const suffix = TEST_SUFFIX.exec(f)?.[0];
    if (!suffix) continue;
    const dir = path.dirname(path.resolve(root, f));
    const set = byDir.get(dir) ?? new Set<string>();
    set.add(suffix);
    byDir.set(dir, set);
  }
  return byDir;
}

function testNamesIn(dir: string, suffixes: ReadonlySet<string>): string[] {
  try {
    return fs.readdirSync(dir).filter((n) => [...suffixes].some((s) => n.endsWith(s)));
  } catch {
    return [];
  }
}

function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join("/");
}
