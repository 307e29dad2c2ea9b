/**
 * What replay parsed and checked for a fixture file, kept until the file changes, so a hit
 * costs one `stat` (and the caller's copy) instead of a read, a parse and the checks. One per process,
 * keyed by file path (every Vcr on a directory shares it).
 *
 * Never stale: a file counts as unchanged only while its inode, size, mtime and ctime (to
 * the fraction of a microsecond Node's millisecond floats keep) are all the same — a rewrite by rename (langchain-vcr's own writes, git)
 * changes the inode; one in place changes the times. The stat is taken before the read, so a
 * change made while reading shows at the next stat. A file whose mtime is within
 * `RACY_MS` of the read is not kept (file times can be coarser than a tick: a rewrite of
 * the same size in the same tick would otherwise look unchanged), so it is read again.
 *
 * Kept from the second read of a file: the first is a plain read, with no stat (nothing is
 * kept yet to check against) and no copies, since a file read once (in a suite whose every
 * test replays its own fixture, each one) needs neither; one read again is kept from then on.
 *
 * What is kept is the store's to hand out (`FixtureStore.read`): frozen, and copied for every
 * caller but one that copies what it takes itself (a borrowing read). Bounded: past
 * `MAX_ENTRIES` files (kept, or only read once, a miss included) the entry first made goes.
 */
import * as fs from "node:fs";
import { realNow } from "../clock";

const STAT = { throwIfNoEntry: false } as const;
const RACY_MS = 1000;
const MAX_ENTRIES = 10_000;

interface Entry<T> {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  value: T;
}
/** A file read once, with nothing kept for it. */
const SEEN = null;

export type FileStat = fs.Stats;

function sameStat(e: Entry<unknown>, stat: FileStat): boolean {
  return e.ino === stat.ino && e.size === stat.size && e.mtimeMs === stat.mtimeMs && e.ctimeMs === stat.ctimeMs;
}

export class ParsedFileCache<T> {
  private readonly entries = new Map<string, Entry<T> | typeof SEEN>();
  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  /**
   * True the first time `file` is asked about (then nothing is kept for it, and the caller
   * reads it without a stat); false from then on, until its entry is evicted. A miss takes an
   * entry too: a file recorded after it is then kept from its first replay (unless written
   * within the last second).
   */
  firstRead(file: string): boolean {
    if (this.entries.has(file)) return false;
    this.set(file, SEEN);
    return true;
  }

  /** Whether `file` was asked about (read, or looked up and missing) in this process, as far as the bounded entries remember. */
  met(file: string): boolean {
    return this.entries.has(file);
  }

  /** The file's stat (undefined when there is no such file, and from Node 22 when the path goes through a file); other errors (ENOTDIR on Node 20, EACCES) throw. */
  stat(file: string): FileStat | undefined {
    return fs.statSync(file, STAT);
  }

  /** The value kept for `file` while `stat` shows it unchanged, else undefined. */
  get(file: string, stat: FileStat): T | undefined {
    const e = this.entries.get(file);
    if (!e) return undefined;
    if (sameStat(e, stat)) return e.value;
    this.entries.set(file, SEEN);
    return undefined;
  }

  /** Keeps what `make` gives, parsed from `file` as it was at `stat` (taken before the read). */
  keep(file: string, stat: FileStat, make: () => T): void {
    if (stat.mtimeMs > realNow() - RACY_MS) return; // a test's fake clock set ahead would keep a file just written
    this.set(file, { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, value: make() });
  }

  private set(file: string, entry: Entry<T> | typeof SEEN): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(file)) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(file, entry);
  }

  /** How many files have a value kept. */
  get size(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e) n++;
    return n;
  }
}

/**
 * Values a store keeps and shares between replays (a kept fixture, and its frozen request, which
 * a copied read shares too): one WeakSet for the process, so a check made once for a kept value
 * answers for every replay that is handed it (src/kinds/damaged.ts), and a borrowing read knows
 * what it must copy (`isSharedFixture`). Weak: it holds nothing alive.
 */
const KEPT = new WeakSet<object>();

/** Marks `value` as kept and shared (it must be frozen: no replay may change it). */
export function markKept<T extends object>(value: T): T {
  KEPT.add(value);
  return value;
}

export function isKept(value: unknown): boolean {
  return typeof value === "object" && value !== null && KEPT.has(value);
}
