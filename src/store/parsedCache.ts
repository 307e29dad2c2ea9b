/**
 * What replay parsed and checked for a fixture file, kept until the file changes, so a hit
 * costs one `stat` or `fstat` (and the caller's copy) instead of a read, a parse and the checks. One per process,
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
 * Replayed again after it was kept, a file last changed more than a second before (up to 64 per
 * thread, on a local Linux file system: heldFiles.ts) is checked through a descriptor held open on
 * it (`held`): an `fstat`, which costs a replay about half what a `stat` of the path does. The inode
 * is the one held; it sees every change to the file itself: written in place, replaced by a rename
 * over it, deleted or moved (its ctime moves with any change to its links). Not a
 * directory above it renamed away with another put at its path, or a symbolic link above it
 * pointed elsewhere, while the process runs: those are read again only once the file itself
 * changes or its entry goes (docs/guarantees.md).
 *
 * What is kept is the store's to hand out (`FixtureStore.read`): frozen, and copied for every
 * caller but one that copies what it takes itself (a borrowing read). Bounded: past
 * `MAX_ENTRIES` files (kept, or only read once, a miss included) the entry first made goes.
 */
import * as fs from "node:fs";
import { realNow } from "../clock";
import { holdFile, NEVER, onHoldableFs, releaseFile } from "./heldFiles";

const STAT = { throwIfNoEntry: false } as const;
const RACY_MS = 1000;
const MAX_ENTRIES = 10_000;
/** When no descriptor is left, one unused over a whole sweep of this length goes to a kept file that wants one. */
const IDLE_MS = 1000;

/** What tests set apart from the defaults. */
export interface ParsedCacheOptions {
  /** Descriptors this cache holds at most (besides the process's bound, heldFiles.ts). */
  maxHeld?: number;
  /** Whether the file system holding a file is one where a descriptor sees a replacement. */
  holdable?: (file: string) => boolean;
  /** The real time now, in milliseconds since the epoch. */
  now?: () => number;
}

interface Entry<T> {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  value: T;
  /** A descriptor open on the file, once it was kept and replayed again (`held`); `NEVER` when none will be. */
  fd?: number;
  /** Whether a replay used the descriptor since the last sweep (`reclaim`). */
  used?: boolean;
}
/** A file read once, with nothing kept for it. */
const SEEN = null;

export type FileStat = fs.Stats;

function sameStat(e: Entry<unknown>, stat: FileStat): boolean {
  return e.ino === stat.ino && e.size === stat.size && e.mtimeMs === stat.mtimeMs && e.ctimeMs === stat.ctimeMs;
}

export class ParsedFileCache<T> {
  private readonly entries = new Map<string, Entry<T> | typeof SEEN>();
  /** The entries holding a descriptor, first held first. */
  private readonly heldEntries = new Set<Entry<T>>();
  private lastSweep = -Infinity;
  private readonly maxHeld: number;
  private readonly holdable: (file: string) => boolean;
  private readonly now: () => number;
  constructor(
    private readonly maxEntries = MAX_ENTRIES,
    options: ParsedCacheOptions = {},
  ) {
    this.maxHeld = options.maxHeld ?? Infinity;
    this.holdable = options.holdable ?? onHoldableFs;
    this.now = options.now ?? realNow;
  }

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
    if (sameStat(e, stat)) {
      if (e.fd === undefined) this.hold(file, e);
      return e.value;
    }
    this.drop(file, e);
    return undefined;
  }

  /**
   * The value kept for `file`, checked through the descriptor held open on it (no path lookup: half
   * the cost of a `stat` on a replay), else undefined (then the caller stats the path). Unchanged
   * while its size, mtime and ctime are: a write in place moves them, and a rename over the file,
   * a delete or a move of it (any change to its links) moves its ctime.
   */
  held(file: string): T | undefined {
    const e = this.entries.get(file);
    if (!e || e.fd === undefined || e.fd === NEVER) return undefined;
    let now: fs.Stats;
    try {
      now = fs.fstatSync(e.fd);
    } catch {
      this.drop(file, e);
      return undefined;
    }
    if (sameStat(e, now)) {
      e.used = true;
      return e.value;
    }
    // another inode: the descriptor is no longer the one opened (something closed it, and its number went to another file)
    if (now.ino !== e.ino) this.release(e, false);
    this.drop(file, e);
    return undefined;
  }

  /** Keeps what `make` gives, parsed from `file` as it was at `stat` (taken before the read). */
  keep(file: string, stat: FileStat, make: () => T): void {
    if (stat.mtimeMs > this.now() - RACY_MS) return; // realNow: a test's fake clock set ahead would keep a file just written
    this.set(file, { ino: stat.ino, size: stat.size, mtimeMs: stat.mtimeMs, ctimeMs: stat.ctimeMs, value: make() });
  }

  private set(file: string, entry: Entry<T> | typeof SEEN): void {
    if (this.entries.size >= this.maxEntries && !this.entries.has(file)) {
      const oldest = this.entries.keys().next().value!;
      this.release(this.entries.get(oldest));
      this.entries.delete(oldest);
    }
    this.release(this.entries.get(file));
    this.entries.set(file, entry);
  }

  /** Forgets what was kept for `file` (it changed): read again, and kept again, from its next replay. */
  private drop(file: string, e: Entry<T>): void {
    this.release(e);
    this.entries.set(file, SEEN);
  }

  /**
   * Holds a descriptor open on a kept file just found unchanged by path, for `held` (heldFiles.ts
   * says where it may). Not while its ctime is within the last second: before Linux 6.13 a file's
   * times move with a coarse clock, and a replacement in the same tick as its last change would
   * leave them all the same (the path's inode shows it; the descriptor's would not). When none is
   * left, one no replay used for a second goes (a fixture deleted, or not replayed since).
   */
  private hold(file: string, e: Entry<T>): void {
    if (e.ctimeMs > this.now() - RACY_MS) return;
    let fd = this.heldEntries.size < this.maxHeld ? holdFile(e, file, this.holdable, (now) => sameStat(e, now)) : undefined;
    if (fd === undefined && this.reclaim()) fd = holdFile(e, file, this.holdable, (now) => sameStat(e, now));
    if (fd === undefined) return;
    e.fd = fd;
    if (fd === NEVER) return;
    e.used = true;
    this.heldEntries.add(e);
  }

  /**
   * Releases a descriptor no replay used since the last sweep, at least `IDLE_MS` ago, and starts a
   * new sweep; whether one was released. At most one sweep per `IDLE_MS`, so a replay marks its use
   * with a flag, not a clock.
   */
  private reclaim(): boolean {
    const now = this.now();
    if (now - this.lastSweep < IDLE_MS) return false;
    const first = this.lastSweep === -Infinity;
    this.lastSweep = now;
    let idle: Entry<T> | undefined;
    for (const h of this.heldEntries) {
      if (!h.used && !idle && !first) idle = h;
      h.used = false;
    }
    if (!idle) return false;
    this.release(idle);
    return true;
  }

  private release(e: Entry<T> | typeof SEEN | undefined, close = true): void {
    if (!e || e.fd === undefined || e.fd === NEVER) return;
    releaseFile(e, e.fd, close);
    e.fd = undefined;
    this.heldEntries.delete(e);
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
