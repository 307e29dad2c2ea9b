/**
 * A miss about to be recorded into a fixture directory that does not exist yet, while the package
 * the run is in (or a workspace package) holds this very request's fixture at the same relative
 * path: a relative `dir` resolved against a working directory the suite is not usually run from
 * (`cd test && node --test …`, a package's tests run from the workspace's root). Every call of the
 * run would go to the provider and every tool body run again, into a second copy of the fixtures:
 * with a real key, a whole suite billed and its side effects run after one warning line (trial 45;
 * trial 36a had it warn and go on). So the call is not made: a `VcrConfigError` says where the
 * fixture is and how to anchor `dir`. What the process first saw decides: a directory that did not
 * exist then is still not the one meant after a recording of a new request created it. Creating the
 * directory before the run records there on purpose.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { VcrConfigError } from "../errors";
import { shellWord } from "./commandEnv";
import { anchorFix, packageHolding } from "./messages";
import { processWide } from "../processWide";

/** Each fixture directory asked about → whether it existed when this process first asked. */
const existed = processWide("diagnose.recordingElsewhere.v2", () => new Map<string, boolean>());

/** The error that stops recording `file` into `dir`, or undefined when nothing says it belongs elsewhere. */
export function recordingElsewhere(dir: string, file: string, kind: string): VcrConfigError | undefined {
  let there = existed.get(dir);
  if (there === undefined) existed.set(dir, (there = fs.existsSync(dir)));
  if (there) return undefined;
  const held = packageHolding(file, process.cwd());
  if (!held) return undefined;
  return new VcrConfigError(
    `this ${kind} request would be recorded into ${dir}, which does not exist yet, while ${held.there} holds this very request's fixture: a relative dir is resolved against the working directory (${process.cwd()}).\n` +
      `  The call was not made: recording there, every call of this run would go to the provider (and every tool body run) again, into a second copy of the fixtures.\n` +
      anchorFix(held, file, true) +
      `\n  To record a second copy there on purpose, create the directory first: mkdir -p ${shellWord(path.relative(process.cwd(), dir) || ".")}.`,
  );
}
