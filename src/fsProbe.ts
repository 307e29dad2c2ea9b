/** Questions to the filesystem that must not throw: one answer for the store and the CLI. */
import * as fs from "node:fs";

export function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

export function isFile(p: string): boolean {
  try {
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** Whether there is an entry at `p` (a symbolic link counts, whatever it points to). */
export function entryExists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/** The file's bytes, or undefined when it cannot be read (there is none). */
export function readBytesIfAny(file: string): Buffer | undefined {
  try {
    return fs.readFileSync(file);
  } catch {
    return undefined;
  }
}

/** Why `dir` cannot take new files (not a directory, not writable), or undefined when it can. */
export function unwritableDirectory(dir: string): string | undefined {
  try {
    if (!fs.statSync(dir).isDirectory()) return "it is not a directory";
    fs.accessSync(dir, fs.constants.W_OK);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}
