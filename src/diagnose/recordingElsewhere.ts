/**
 * A miss about to be recorded into a fixture directory that did not exist when the run first looked,
 * while another directory holds this very request's fixture at the same relative path: a relative
 * `dir` resolved against a working directory the suite is not usually run from.
 *
 * - Run from a directory inside a package (`cd test && node --test …`, `cd src`), whose package holds
 *   the fixture: every call of the run would go to the provider and every tool body run again, into a
 *   second copy of the fixtures; with a real key, a whole suite billed and its side effects run after
 *   one warning line (trial 45; trial 36a had it warn and go on). So the call is not made: a
 *   `VcrConfigError` says where the fixture is and how to anchor `dir`.
 * - Run from a package's own root, while another workspace package (or the workspace's root) holds
 *   it: said once per directory, and the call goes, since two packages may well ask the same (a shared
 *   prompt), each recording into its own directory.
 *
 * Whether the directory existed when the run began decides (its birth time against the run's start,
 * which a runner hands its test processes; where the file system keeps no birth time, what this process
 * first saw): one a recording of a new request created since, in this process or another worker, is
 * still not the one meant. Creating the directory before the run records there on purpose.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { VcrConfigError } from "../errors";
import { log } from "../log";
import { pathFrom } from "../pathFrom";
import { processWide } from "../processWide";
import { runStartedAt } from "../runner/runStart";
import { shellWord } from "./commandEnv";
import { anchorFix, packageHolding } from "./messages";

/** Each fixture directory asked about → whether it existed when the run began (`existedAtRunStart`). */
const existed = processWide("diagnose.recordingElsewhere.v2", () => new Map<string, boolean>());
const said = processWide("diagnose.recordingElsewhere.v1", () => new Set<string>());

/** The error that stops recording `file` into `dir`, or undefined when the call may go (warned when another package holds it). */
export function recordingElsewhere(dir: string, file: string, kind: string): VcrConfigError | undefined {
  let there = existed.get(dir);
  if (there === undefined) existed.set(dir, (there = existedAtRunStart(dir)));
  if (there) return undefined;
  const cwd = process.cwd();
  const own = heldByOwnPackage(file, cwd);
  if (own) {
    return new VcrConfigError(
      `this ${kind} request would be recorded into ${dir}, which did not exist when this run began, while ${own.there} holds this very request's fixture: ` +
        `a relative dir is resolved against the working directory (${cwd}), a directory inside the package at ${own.pkg}.\n` +
        `  The call was not made: recording there, every call of this run would go to the provider (and every tool body run) again, into a second copy of the fixtures.\n` +
        anchorFix(own, file, true) +
        ` Or run the tests from ${own.pkg}.\n  To record a second copy there on purpose, create the directory before the run: mkdir -p ${shellWord(path.relative(cwd, dir) || ".")}.`,
    );
  }
  const held = packageHolding(file, cwd);
  if (held && !said.has(dir)) {
    said.add(dir);
    log.warn(
      `recording into ${dir}, which does not exist yet, while ${held.there} holds this very request's fixture: a relative dir is resolved against the working directory (${cwd}).\n` +
        `  This run's calls go to the provider (and tool bodies run) again, into a second copy of the fixtures, unless that is meant (two packages asking the same).\n` +
        anchorFix(held, file, true),
    );
  }
  return undefined;
}

/**
 * Where the package a working directory inside it (not its root) holds `file` at the same path below
 * its own root, or the directories between: `src/cassettes/x.json` asked, `cassettes/x.json` there.
 */
function heldByOwnPackage(file: string, cwd: string): { there: string; pkg: string } | undefined {
  const below = path.relative(cwd, file);
  if (below.startsWith("..") || path.isAbsolute(below) || fs.existsSync(path.join(cwd, "package.json"))) return undefined;
  for (let d = path.dirname(path.resolve(cwd)); d !== path.dirname(d); d = path.dirname(d)) {
    const at = path.join(d, below);
    if (fs.existsSync(at)) return { there: pathFrom(cwd, at), pkg: pathFrom(cwd, d) || "." };
    if (fs.existsSync(path.join(d, "package.json"))) return undefined;
  }
  return undefined;
}

/** Whether `dir` existed when the run began: born before it, or, where no birth time is kept, there now (asked first before anything of this process recorded). */
function existedAtRunStart(dir: string): boolean {
  let born: number;
  try {
    born = fs.statSync(dir).birthtimeMs;
  } catch {
    return false;
  }
  return !(born > 0) || born < runStartedAt();
}
