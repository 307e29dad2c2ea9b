/**
 * Descriptors held open on kept fixture files, so a replay checks its file with an `fstat` instead of
 * a `stat` of its path (`ParsedFileCache.held`, parsedCache.ts): about half the cost on a replay.
 *
 * Only where a descriptor sees every change to the file at its path:
 * - on Linux, on a local file system (`HOLDABLE_FS`), where replacing or deleting a file unlinks the
 *   very inode a descriptor holds, which moves its ctime. Not overlayfs (a container's image layer:
 *   a file written there is copied up to a new inode, and a descriptor opened before keeps the old
 *   one, unchanged), network or FUSE file systems; not other platforms (Windows: an open file can
 *   stand in the way of another process replacing it);
 * - not through a symbolic link (one pointed elsewhere would not show on the descriptor);
 * - in the process's main realm only. jest (and vitest's vm pools) evaluate this module again in a
 *   new context for every test file, and what that context holds would never be closed.
 *
 * Bounded: `MAX_HELD` at most per thread (each worker thread is a realm of its own, and a thread's
 * descriptors close with it), however often the module is evaluated in one realm (vitest with the
 * package inlined evaluates it per test file); a descriptor whose entry is garbage (its cache went
 * with its module) is closed by the finalizer.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { processWide } from "../processWide";

const MAX_HELD = 64;
const HOLDABLE_FS = new Set([
  0xef53, // ext2, ext3, ext4
  0x58465342, // xfs
  0x9123683e, // btrfs
  0x01021994, // tmpfs
]);

/** What a core module's JavaScript makes comes from Node's own realm: an instance of this realm's Object only when this is that realm. */
const IN_MAIN_REALM = path.parse("") instanceof Object;
const CAN_HOLD = process.platform === "linux" && IN_MAIN_REALM;

interface Held {
  count: number;
  readonly closer: FinalizationRegistry<number>;
}
const HELD = processWide<Held>("heldFiles.v1", () => {
  const held: Held = {
    count: 0,
    closer: new FinalizationRegistry((fd) => {
      closeQuietly(fd);
      held.count--;
    }),
  };
  return held;
});

/** Whether the file system holding `file` is one where a descriptor sees a replacement. */
export function onHoldableFs(file: string): boolean {
  return HOLDABLE_FS.has(fs.statfsSync(file).type);
}

/** Whether a kept fixture at `file` (an existing file or its directory) would be checked through a descriptor held open: for tests. */
export function descriptorsCheck(file: string): boolean {
  return CAN_HOLD && onHoldableFs(file);
}

/** `holdFile`'s answer when no descriptor will be held for this file, however often it is asked. */
export const NEVER = -1;

/**
 * Opens a descriptor on `file` for `owner` (an object that lives as long as the descriptor is
 * wanted), if one may be held: the very file the path names is a regular file that `isKept` says is
 * the one kept (nothing replaced it since the stat the caller checked). Undefined when none may be
 * held now (the process holds its most), `NEVER` when none will be for this file.
 */
export function holdFile(owner: object, file: string, holdable: (file: string) => boolean, isKept: (now: fs.Stats) => boolean): number | undefined {
  if (!CAN_HOLD) return NEVER;
  if (HELD.count >= MAX_HELD) return undefined;
  let fd: number | undefined;
  try {
    if (fs.lstatSync(file).isSymbolicLink() || !holdable(file)) return NEVER;
    fd = fs.openSync(file, "r");
    const now = fs.fstatSync(fd);
    if (!now.isFile() || !isKept(now)) return NEVER;
    HELD.count++;
    HELD.closer.register(owner, fd, owner);
    const held = fd;
    fd = undefined;
    return held;
  } catch {
    return NEVER; // not held: checked by path
  } finally {
    if (fd !== undefined) closeQuietly(fd);
  }
}

/**
 * Gives up what `holdFile` opened for `owner`, closing it unless `close` is false: the descriptor no
 * longer names the file held (something else closed it, and the number went to another file).
 */
export function releaseFile(owner: object, fd: number, close = true): void {
  HELD.closer.unregister(owner);
  if (close) closeQuietly(fd);
  HELD.count--;
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // already closed: nothing held
  }
}
