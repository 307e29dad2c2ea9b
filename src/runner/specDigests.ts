/**
 * What each test file of a run held, so `prune` can tell a ledger that no longer speaks for the
 * tests on disk: a branch switched, a test edited since the run, a pull of someone else's
 * changes. The digest is of the file's bytes (mtimes differ between a CI shard and the machine
 * that prunes); a test file that is gone since is a test deleted, whose fixtures prune may remove.
 */
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";

/** Test file (as the ledger names it, relative to `root`) → the start of the SHA-256 of its bytes; a file that cannot be read is left out. */
export function digestSpecFiles(root: string, files: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of files) {
    const digest = digestOf(path.resolve(root, f));
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

function digestOf(file: string): string | undefined {
  try {
    return createHash("sha256").update(fs.readFileSync(file)).digest("hex").slice(0, 16);
  } catch {
    return undefined;
  }
}
