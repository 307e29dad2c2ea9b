/**
 * The fixture store: one file per hash in one directory. Reads are one file read by name;
 * writes are atomic (a temp file in the same directory, then link or rename), so a crash
 * never leaves a half-written fixture. Knows nothing about modes.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { requestHash } from "../canonical/json";
import { VcrFixtureError, VcrRecordError } from "../errors";
import { CONFLICT_PROBLEM, conflictFix, readFixtureText, SCHEMA_VERSION, type Fixture } from "./fixture";
import { formatFixture } from "./format";
import { kindSpec } from "../kinds";
import { tempFile } from "./atomic";
import { copyJson, deepFreeze } from "../canonical/copy";
import { isKept, markKept, ParsedFileCache, type FileStat } from "./parsedCache";
import { entryExists, isDirectory, readBytesIfAny } from "../fsProbe";
import { sameUnordered } from "../canonical/sameJson";
import { suiteRerecordCommand } from "../diagnose/suiteCommand";
import { currentTestCommand } from "../diagnose/rerecordCommand";
import { emit } from "../scope";
import { pathFrom } from "../pathFrom";

/** An options object, not "utf8": Node copies a string option into a new object on every read. */
const READ_UTF8 = { encoding: "utf8", flag: "r" } as const;
/** How many file names a store keeps made (`fileFor`). */
const MAX_NAMES = 10_000;
/** What replay parsed and checked, per file, until the file changes. */
const PARSED = new ParsedFileCache<Fixture>();
/** Files this process wrote (under `record_always` a recording reads nothing first), for `metInProcess`; bounded as `PARSED` is. */
const WRITTEN = new Set<string>();

export type WriteResult = { file: string; bytes: number; created: boolean; previous?: Buffer };

export class FixtureStore {
  private dirReady = false;
  private writable = false;
  private readonly prefix: string;
  /**
   * File names by hash, each made once: a replay names its file twice (the lookup and the read),
   * and the read's lookups of the name hash it, which V8 does once per string. Bounded.
   */
  private readonly files = new Map<string, string>();
  constructor(readonly dir: string) {
    this.prefix = path.join(dir, path.sep);
  }

  fileFor(hash: string): string {
    let file = this.files.get(hash);
    if (file === undefined) {
      if (this.files.size >= MAX_NAMES) this.files.clear();
      this.files.set(hash, (file = this.prefix + hash + ".json")); // dir is absolute and normalized; a hash needs no joining
    }
    return file;
  }

  /**
   * The fixture for `hash`, or undefined when there is none. A damaged file throws. Each call but
   * a borrowing one (below) returns its own response objects (its request may be shared and
   * frozen). A file's first read in the process is a plain read; read again, it is kept from then
   * on while its stat stays the same, parsed and checked no more (`parsedCache.ts`). `asked`: the request just hashed to this
   * name, when at hand (a read of the file compares it with the file's instead of hashing the
   * file's again). `borrow`: the caller copies what it hands out of the response and changes
   * none of it, so a kept fixture is handed over as it is kept (`isSharedFixture`: frozen
   * throughout), uncopied.
   */
  read(hash: string, asked?: Asked, { borrow = false }: { borrow?: boolean } = {}): Fixture | undefined {
    const file = this.fileFor(hash);
    if (PARSED.firstRead(file)) return this.readFile(hash, file, asked); // nothing kept to check, nothing to keep yet
    const held = PARSED.held(file);
    if (held) return borrow ? held : { ...held, response: copyJson(held.response) };
    const stat = statOf(file); // before the read: a change made while reading shows at the next stat
    const kept = stat && PARSED.get(file, stat);
    // a borrower copies what it takes; any other caller gets the response to keep and change (the request is only read: frozen)
    if (kept) return borrow ? kept : { ...kept, response: copyJson(kept.response) };
    const fixture = this.readFile(hash, file, asked);
    if (fixture && stat) {
      PARSED.keep(file, stat, () => {
        const request = deepFreeze(copyJson(fixture.request));
        const keptRequest = typeof request === "object" && request !== null ? markKept(request) : request;
        // frozen throughout: a borrower that changed the shared response would throw, not poison every later replay
        return markKept(Object.freeze({ ...fixture, request: keptRequest, response: deepFreeze(copyJson(fixture.response)) }));
      });
    }
    return fixture;
  }

  /**
   * The fixture for `hash` as its file holds it now, or undefined when there is none or it cannot be
   * read: a look that counts, keeps and throws nothing (`record_always`, about to overwrite it,
   * asks whose answer it is).
   */
  peek(hash: string): Fixture | undefined {
    let text: string;
    try {
      text = fs.readFileSync(this.fileFor(hash), READ_UTF8);
    } catch {
      return undefined;
    }
    const read = readFixtureText(text, hash);
    return "fixture" in read ? read.fixture : undefined;
  }

  /** `readFileChecked`, counting a damaged file for the run's summary (`damaged` event) as it throws. */
  private readFile(hash: string, file: string, asked: Asked | undefined): Fixture | undefined {
    try {
      return this.readFileChecked(hash, file, asked);
    } catch (e) {
      if (e instanceof VcrFixtureError) emit({ type: "damaged", file });
      throw e;
    }
  }

  private readFileChecked(hash: string, file: string, asked: Asked | undefined): Fixture | undefined {
    let text: string;
    try {
      text = fs.readFileSync(file, READ_UTF8);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "ENOENT") {
        // a dangling symlink is a damaged fixture, not a miss: recording would not replace it
        const target = symlinkTarget(file);
        if (target === undefined) return undefined;
        throw fixtureFileError(file, `is a symbolic link to ${target}, which does not exist`, e);
      }
      if (code === "ENOTDIR" && !isDirectory(this.dir)) return undefined;
      throw new VcrFixtureError(`cannot read fixture ${file}: ${(e as Error).message}`, file, { cause: e });
    }
    const fixture = parseFixture(text, file, hash);
    // A copied or mis-merged file whose "hash" was set to its name holds another request's
    // answer: never replay it. (A redacted request no longer re-hashes, by design.) Checked on
    // every read of the file (a kept one is not read: it is unchanged), so a file rewritten
    // during the run is checked too. The request just asked (hashed to this name) is compared
    // instead, when it is at hand: the same tree has the same hash.
    if (fixture.redacted !== true && !isAsked(fixture, asked)) {
      const actual = requestHash(fixture.kind, fixture.request, fixture.schemaVersion);
      if (actual !== hash) {
        throw fixtureFileError(file, `has a "request" that does not hash to its name (it hashes to ${actual}): it was edited by hand or merged badly`);
      }
    }
    return fixture;
  }

  /**
   * Whether this process has looked up or written `file` (any store on its directory): a fixture a
   * test of this run replayed or recorded, as far as the bounded cache remembers.
   */
  metInProcess(file: string): boolean {
    return PARSED.met(file) || WRITTEN.has(file);
  }

  /** The raw bytes of the fixture for `hash`, if any (used to restore an overwritten file). */
  readBytes(hash: string): Buffer | undefined {
    return readBytesIfAny(this.fileFor(hash));
  }

  /**
   * Writes atomically. With `overwrite: false` an existing file is left untouched (another
   * test or process recorded it first) and `created` is false.
   */
  write(fixture: Fixture, overwrite: boolean): WriteResult {
    const file = this.fileFor(fixture.hash);
    const text = formatFixture(onDiskForm(fixture));
    this.ensureDir();
    if (WRITTEN.size >= MAX_NAMES) WRITTEN.clear();
    WRITTEN.add(file);
    const tmp = tempFile(this.dir, fixture.hash.slice(0, 16));
    try {
      fs.writeFileSync(tmp, text, { flag: "wx" });
      const previous = overwrite ? this.readBytes(fixture.hash) : undefined;
      if (overwrite) {
        fs.renameSync(tmp, file);
        return { file, bytes: Buffer.byteLength(text), created: previous === undefined, previous };
      }
      try {
        fs.linkSync(tmp, file);
        return { file, bytes: Buffer.byteLength(text), created: true };
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        if (code === "EEXIST") return { file, bytes: Buffer.byteLength(text), created: false };
        // a filesystem without hard links: check, then rename (a narrower race, still atomic)
        if (code === "EPERM" || code === "ENOTSUP" || code === "EOPNOTSUPP" || code === "ENOSYS") {
          if (fs.existsSync(file)) return { file, bytes: Buffer.byteLength(text), created: false };
          fs.renameSync(tmp, file);
          return { file, bytes: Buffer.byteLength(text), created: true };
        }
        throw e;
      } finally {
        fs.rmSync(tmp, { force: true });
      }
    } catch (e) {
      fs.rmSync(tmp, { force: true });
      throw new VcrRecordError(
        `could not write fixture ${file}: ${(e as Error).message}\n` + `  The fixture directory must be a writable directory: ${this.dir}`,
        { cause: e },
      );
    }
  }

  /**
   * Before a call whose answer would be written: the directory, or the nearest part of its path
   * that exists (it is made only when a fixture is written), is a writable directory, so a call
   * whose fixture could not be written is not paid for (or a tool's body run) first. Once per store.
   */
  assertWritable(): void {
    if (this.writable) return;
    let at = this.dir;
    while (!entryExists(at) && path.dirname(at) !== at) at = path.dirname(at); // a dangling link is there, and fails below
    try {
      if (!fs.statSync(at).isDirectory()) throw Object.assign(new Error(`${at} is a file`), { code: "ENOTDIR" });
      fs.accessSync(at, fs.constants.W_OK);
    } catch (e) {
      throw unwritableError(this.dir, e as Error, at === this.dir ? "is not a writable directory" : "cannot be created", true);
    }
    this.writable = true;
  }

  private ensureDir(): void {
    if (this.dirReady) return;
    try {
      makeDirs(this.dir);
    } catch (e) {
      throw unwritableError(this.dir, e as Error, "cannot be created", false);
    }
    this.dirReady = true;
  }
}

/** `before`: the call was not made yet (`assertWritable`), else its answer is what could not be written. */
function unwritableError(dir: string, e: Error, what: string, before: boolean): VcrRecordError {
  const why = (e as NodeJS.ErrnoException).code === "ENOTDIR" ? " (a part of its path is a file)" : "";
  return new VcrRecordError(
    `the fixture directory ${dir} ${what}: ${e.message}${why}.\n` +
      (before ? `  Nothing was sent or run: its answer could not have been recorded.\n` : `  The answer was not recorded.\n`) +
      (why
        ? `  Fix it: give the Vcr a directory whose path is directories all the way (new Vcr({ dir })), or move the file out of the way.`
        : `  Fix it: make the directory writable, or give the Vcr one that is (new Vcr({ dir })); to replay only, run with LANGCHAIN_VCR_MODE=replay_only.`),
    { cause: e },
  );
}

/**
 * `mkdir -p` without `{ recursive: true }`: Node 20's recursive mkdir spins forever on some
 * unwritable parents (seen with /proc), and a test harness must fail, not hang.
 */
function makeDirs(dir: string): void {
  const missing: string[] = [];
  let d = dir;
  while (!fs.existsSync(d)) {
    missing.push(d);
    const parent = path.dirname(d);
    if (parent === d) break;
    d = parent;
  }
  for (const m of missing.reverse()) {
    try {
      fs.mkdirSync(m);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
  if (!isDirectory(dir)) throw new Error(`${dir} exists and is not a directory`);
}

/** Where `p` points when it is a symbolic link, else undefined. */
function symlinkTarget(p: string): string | undefined {
  try {
    return fs.readlinkSync(p);
  } catch {
    return undefined;
  }
}

/** The fixture as its file holds it: the response in its kind's on-disk form. */
export function onDiskForm(fixture: Fixture): Fixture {
  const toDisk = kindSpec(fixture.kind)?.toDisk;
  return toDisk ? { ...fixture, response: toDisk(fixture.response) } : fixture;
}

/**
 * Whether `fixture` is one the store keeps, handed as it is to a borrowing read: its response
 * is shared with every later replay, so it is copied before any of it is changed or handed out.
 * Any other fixture a read returns is the caller's own.
 */
export function isSharedFixture(fixture: Fixture): boolean {
  return isKept(fixture); // a fixture read from the kept one is a new object; only the kept one is marked
}

/** The request a lookup asked, hashed (under this version's canonical form) to the name being read. */
export interface Asked {
  kind: string;
  request: unknown;
}

/** Whether `fixture` holds exactly the request asked: then it hashes to the name it was read by. */
function isAsked(fixture: Fixture, asked: Asked | undefined): boolean {
  return asked !== undefined && fixture.schemaVersion === SCHEMA_VERSION && fixture.kind === asked.kind && sameUnordered(fixture.request, asked.request);
}

/** The file's stat, or undefined when it cannot be had (the read then says why). */
function statOf(file: string): FileStat | undefined {
  try {
    return PARSED.stat(file);
  } catch {
    return undefined;
  }
}

/** Parses and checks one fixture file's text. Never returns a damaged fixture. */
export function parseFixture(raw: string, file: string, expectedHash?: string): Fixture {
  const read = readFixtureText(raw, expectedHash);
  if ("problem" in read) throw fixtureFileError(file, read.problem, read.cause);
  return read.fixture;
}

/** The fix for a fixture file that cannot be read (a replay's error, validate's line under a file that is not JSON): `mend` it, or record it again. */
export function restoreOrRecord(
  file: string,
  command: string,
  mend = `restore it from git (git checkout -- ${JSON.stringify(pathFrom(process.cwd(), file))})`,
): string {
  return `${mend}, or delete it and re-record (${command})`;
}

/**
 * The error for a fixture file that cannot be read as a fixture at all (its envelope); a
 * damaged response is src/kinds/damaged.ts's. `replaying: false`: a command only reading it
 * (`show`), where "not treated as a miss" would mean nothing.
 */
export function fixtureFileError(file: string, problem: string, cause?: unknown, { replaying = true }: { replaying?: boolean } = {}): VcrFixtureError {
  // in a test, that test's own command (the runner plugin knows it); else the suite's
  const command = replaying ? currentTestCommand() : suiteRerecordCommand();
  return new VcrFixtureError(
    `the fixture ${file} ${problem}.\n` +
      (replaying ? `  It was not treated as a miss and was not overwritten.\n` : "") +
      `  Fix it: ${restoreOrRecord(file, command, problem === CONFLICT_PROBLEM ? conflictFix(file) : undefined)}.`,
    file,
    cause === undefined ? undefined : { cause },
  );
}
