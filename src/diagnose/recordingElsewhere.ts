/**
 * A miss about to be recorded into a fixture directory that does not exist yet, while the package
 * the run is in (or a workspace package) holds this very request's fixture at the same relative
 * path: a relative `dir` resolved against a working directory the suite is not usually run from
 * (`cd test && node --test …`, a package's tests run from the workspace's root). Every call of the
 * run would go to the provider and every tool body run again, into a second copy of the fixtures,
 * with nothing said. Said once per directory, before the first such call; the call still goes.
 */
import * as fs from "node:fs";
import { log } from "../log";
import { processWide } from "../processWide";
import { anchorFix, packageHolding } from "./messages";

const said = processWide("diagnose.recordingElsewhere.v1", () => new Set<string>());

export function warnRecordingElsewhere(dir: string, file: string): void {
  if (said.has(dir) || fs.existsSync(dir)) return;
  const held = packageHolding(file, process.cwd());
  if (!held) return;
  said.add(dir);
  log.warn(
    `recording into ${dir}, which does not exist yet, while ${held.there} holds this very request's fixture: a relative dir is resolved against the working directory (${process.cwd()}).\n` +
      `  This run's calls go to the provider (and tool bodies run) again, into a second copy of the fixtures.\n` +
      anchorFix(held, file, true),
  );
}
