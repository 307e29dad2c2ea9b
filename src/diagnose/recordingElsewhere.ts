/**
 * A request about to be recorded into a fixture directory given as a relative `dir`, while another
 * directory holds this very request's fixture at the same relative path: `dir` resolved against a
 * working directory the suite is not usually run from.
 *
 * - Resolved against a directory inside a package (`cd test && node --test …`, `cd src`), whose package
 *   (or, in a workspace, the workspace's root) holds the fixture: every call of the run would go to the provider and every tool body run again,
 *   into a second copy of the fixtures; with a real key, a whole suite billed and its side effects run
 *   after one warning line (trial 45; trial 36a had it warn and go on). So the call is not made: a
 *   `VcrConfigError` says where the fixture is, and how to anchor `dir` or move the fixture.
 * - Resolved against a package's own root, while another workspace package (or the workspace's root)
 *   holds it: said once per directory that does not exist yet, and the call goes, since two packages
 *   may well ask the same (a shared prompt), each recording into its own directory.
 *
 * An absolute `dir` is where its author put it: nothing is said.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { NOT_MADE_TEXT, VcrConfigError } from "../errors";
import { log } from "../log";
import { pathFrom } from "../pathFrom";
import { processWide } from "../processWide";
import { shellWord } from "./commandEnv";
import { anchorFix, packageHolding } from "./messages";
import { enclosingDirs } from "../install/workspaces";

const said = processWide("diagnose.recordingElsewhere.v1", () => new Set<string>());

/**
 * The error that stops recording `file` into `dir`, or undefined when the call may go (warned when another package holds
 * it). `relativeTo`: the working directory a relative `dir` was resolved against, undefined for an absolute one;
 * `what`: the request, as a miss names it (`chat request from ChatOpenAI (model "gpt-4o-mini")`), asked only when it
 * is stopped; `test`: its test.
 */
export function recordingElsewhere(
  relativeTo: string | undefined,
  dir: string,
  file: string,
  what: () => string,
  test: string | undefined,
): VcrConfigError | undefined {
  if (relativeTo === undefined || fs.existsSync(file)) return undefined;
  const own = heldByOwnPackage(file, relativeTo);
  if (own) {
    const given = path.relative(relativeTo, dir) || ".";
    return new VcrConfigError(
      `this ${what()} ${NOT_MADE_TEXT} ${dir}, while ${own.there} holds this very request's fixture.\n` +
        (test !== undefined ? `  test:     ${test}\n` : "") +
        `  The relative dir ${JSON.stringify(given)} was resolved against the working directory (${relativeTo}), a directory inside the package at ${own.pkg}: ` +
        `recording there, every call of this run would go to the provider (and every tool body run) again, into a second copy of the fixtures.\n` +
        anchorFix(own, file, true, relativeTo) +
        ` Or run the tests from ${own.pkg}. If ${given} is the directory you mean, move the fixtures there: mv ${shellWord(path.dirname(own.there))}/*.json ${shellWord(given)}/`,
    );
  }
  if (said.has(dir) || fs.existsSync(dir)) return undefined;
  const held = packageHolding(file, relativeTo);
  if (held) {
    said.add(dir);
    log.warn(
      `recording into ${dir}, which does not exist yet, while ${held.there} holds this very request's fixture: a relative dir is resolved against the working directory (${relativeTo}).\n` +
        `  This run's calls go to the provider (and tool bodies run) again, into a second copy of the fixtures, unless that is meant (two packages asking the same).\n` +
        anchorFix(held, file, true, relativeTo),
    );
  }
  return undefined;
}

/**
 * Where the package a working directory inside it (not its root) holds `file` at the same path below
 * its own root, or the directories between, or the workspace's root: `src/cassettes/x.json` asked,
 * `cassettes/x.json` there.
 */
function heldByOwnPackage(file: string, cwd: string): { there: string; pkg: string } | undefined {
  const below = path.relative(cwd, file);
  if (below.startsWith("..") || path.isAbsolute(below) || fs.existsSync(path.join(cwd, "package.json"))) return undefined;
  // from a directory that is no package's root: the directories up to the package's root
  const at = enclosingDirs(cwd).find((d) => fs.existsSync(path.join(d, below)));
  return at === undefined ? undefined : { there: pathFrom(cwd, path.join(at, below)), pkg: pathFrom(cwd, at) || "." };
}
