/**
 * `langchain-vcr diff [dir] [--base <ref>] [--format text|markdown|json]`: what changed in a
 * fixture directory between a git ref (default HEAD) and the working tree, for review. Reads
 * the base with git plumbing only (no checkout), reads only the files whose blob differs,
 * writes nothing, and exits 0 whatever it finds (it reports; it does not judge); 2 on a
 * usage error or outside a git work tree. Damaged fixtures on either side are listed. A symbolic
 * link at the base is followed there (diffLinks.ts).
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { FIXTURE_FILE_RE } from "../store/fixture";
import { parseFixtureFile, readFixtureFile, type FixtureFile } from "../store/reader";
import { flagWords, UsageError, type ParsedArgs } from "./args";
import { masked, SECRET_FLAG } from "./secretFlag";
import { computeDiff, type DiffReport } from "./diffCompute";
import { blobsAt, DiffUsageError, readBlobs, resolveRef, sameBlob, workTreeOf } from "./diffGit";
import { followLinks } from "./diffLinks";
import { renderJson, renderMarkdown, renderText, WHOLE_RUN_FIX } from "./diffRender";
import { dirArgOf, resolveDir, workspaceHint } from "./fixtureDir";
import type { Io } from "./io";
import { readBytesIfAny } from "../fsProbe";
import { DEFAULTS } from "../options";
import { VcrConfigError } from "../errors";
import { cliVerdicts, ledgerRootOf, suiteLedgers, suiteName } from "./ledgers";
import { display } from "./io";
import { shellWord } from "../diagnose/messages";
import { suitesSharing, type OtherSuite } from "../runner/otherSuites";

export const diffSpec = { strings: ["base", "format", SECRET_FLAG] } as const;
const FORMATS = ["text", "markdown", "json"] as const;

export interface DiffResult {
  report: DiffReport;
  /** The directory relative to the work tree's top level, with "/" separators. */
  dir: string;
  base: string;
}

/** `command`: the command line that asked, for a missing directory's hint. */
/** `inUse`: whether the last complete runs on this machine used a fixture, by its path (`usedByLastRuns`); undefined when no ledger says. */
export function diffFixtures(dirArg: string, base: string, command = "diff", inUse?: (file: string) => boolean, lastRunStartedAt?: string): DiffResult {
  if (fs.existsSync(dirArg) && !fs.statSync(dirArg).isDirectory()) throw new DiffUsageError(`${dirArg} is not a directory (pass the fixture directory)`);
  const top = workTreeOf(dirArg);
  const dir = realPathOf(dirArg);
  const rel = path.relative(top, dir);
  if (rel.startsWith("..") || path.isAbsolute(rel)) throw new DiffUsageError(`${dirArg} is not inside the git work tree ${top}`);
  const commit = resolveRef(top, base);
  const relPosix = rel.split(path.sep).join("/");
  const label = (name: string) => (relPosix ? `${relPosix}/${name}` : name);

  const { blobs, links } = blobsAt(top, commit, rel);
  const allBaseBlobs = new Map(blobs);
  const linkProblems = new Map<string, string>(); // a symbolic link at the base that does not lead to a file there
  for (const [name, f] of followLinks(top, commit, base, relPosix, links)) {
    if (f.problem !== undefined) linkProblems.set(name, f.problem);
    allBaseBlobs.set(name, f.id ?? (links.get(name) as string)); // a link that leads nowhere keeps its own id: never equal to a file's bytes
  }
  const baseBlobs = new Map([...allBaseBlobs].filter(([n]) => FIXTURE_FILE_RE.test(n)));
  if (baseBlobs.size === 0 && !fs.existsSync(dir)) {
    // a mistyped directory would report "0 changed, 0 added, 0 removed", and a review would see nothing to review
    const hint = workspaceHint(dir, command);
    // at a workspace's root, the packages' directories, as the other commands name them (exit 1, no usage text)
    if (hint) throw new VcrConfigError(`the fixture directory ${dirArg} does not exist, and ${base} has no fixtures there either.\n${hint}`);
    throw new DiffUsageError(
      `${dirArg} does not exist, and ${base} has no fixtures there either: pass the directory your Vcr uses (new Vcr({ dir })), e.g. langchain-vcr diff ${DEFAULTS.dir}`,
    );
  }
  const workNames = fs.existsSync(dir) ? fs.readdirSync(dir).filter((n) => FIXTURE_FILE_RE.test(n)) : [];
  const baseFiles = new Map<string, FixtureFile>();
  const workFiles = new Map<string, FixtureFile>();
  const sameName: string[] = [];
  const unchanged: string[] = [];
  const wanted = new Map<string, string>(); // blob id → name, for the base files to read
  for (const name of workNames) {
    const id = baseBlobs.get(name);
    const file = path.join(dir, name);
    if (id === undefined) {
      workFiles.set(name, readFixtureFile(file));
      continue;
    }
    const bytes = readBytesIfAny(file);
    if (bytes && sameBlob(bytes, id)) {
      unchanged.push(name);
      continue;
    }
    workFiles.set(name, bytes ? parseFixtureFile(label(name), bytes.toString("utf8")) : readFixtureFile(file));
    sameName.push(name);
    wanted.set(id, name);
  }
  const workSet = new Set(workNames);
  for (const [name, id] of baseBlobs) if (!workSet.has(name)) wanted.set(id, name);
  const read = readBlobs(top, [...wanted.keys()]);
  for (const [id, name] of wanted) {
    const bytes = read.get(id);
    const problem = linkProblems.get(name);
    if (problem === undefined && bytes) baseFiles.set(name, parseFixtureFile(label(name), bytes.toString("utf8")));
    else baseFiles.set(name, { file: label(name), bytes: 0, problem: problem ?? "cannot be read from git" });
  }
  // read only if an added fixture pairs with no removed one: it may be an edit of one still here
  const unchangedFiles = () => ({ files: new Map(unchanged.sort().map((n) => [n, readFixtureFile(path.join(dir, n))])), label });
  const used = inUse && ((name: string) => inUse(path.join(dirArg, name)) || inUse(path.join(dir, name))); // the ledger's path, or the real one
  const report = computeDiff({ files: baseFiles, label }, { files: workFiles, label }, sameName.sort(), unchangedFiles, used, lastRunStartedAt);
  report.damaged.push(...misnamed(dir, allBaseBlobs, label));
  return { report, dir: relPosix || ".", base };
}

/**
 * JSON files in the working tree's directory, new or changed since the base, whose name is no
 * fixture name (a fixture renamed by hand): no lookup reads them, so a review must see them.
 */
function misnamed(dir: string, baseBlobs: Map<string, string>, label: (name: string) => string): DiffReport["damaged"] {
  if (!fs.existsSync(dir)) return [];
  const out: DiffReport["damaged"] = [];
  for (const name of fs.readdirSync(dir).sort()) {
    if (!name.endsWith(".json") || name.startsWith(".") || FIXTURE_FILE_RE.test(name)) continue;
    const bytes = readBytesIfAny(path.join(dir, name));
    if (!bytes) continue;
    const id = baseBlobs.get(name);
    if (id !== undefined && sameBlob(bytes, id)) continue; // already there at the base
    out.push({
      file: label(name),
      side: "working tree",
      problem: "is not named <sha256>.json, so no lookup reads it (langchain-vcr validate says the name it needs)",
    });
  }
  return out;
}

/** The real path of `p`, which may not exist: its deepest existing ancestor's real path, then the rest. */
function realPathOf(p: string): string {
  if (fs.existsSync(p)) return fs.realpathSync(p);
  const parent = path.dirname(p);
  return parent === p ? p : path.join(realPathOf(parent), path.basename(p));
}

export async function diffCommand(args: ParsedArgs, io: Io): Promise<number> {
  const format = typeof args.flags.format === "string" ? args.flags.format : "text";
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format ${JSON.stringify(format)} is not one of ${FORMATS.join(", ")}`);
  const base = typeof args.flags.base === "string" ? args.flags.base : "HEAD";
  const dirArg = dirArgOf(args, "diff");
  let dir = resolveDir(io, dirArg);
  if (dirArg === undefined && !fs.existsSync(dir)) {
    // run from a subdirectory of the project: the default directory is the one at the work tree's top level
    dir = path.join(workTreeOf(dir), path.basename(dir));
  }
  const used = usedByLastRuns(dir, args, io);
  const r = diffFixtures(dir, base, `diff${flagWords(args)}`, used.inUse, used.startedAt);
  if (r.report.unsureRewrites) r.report.unsureWhy = used.why;
  const header = { dir: r.dir, base: r.base };
  // a credential a fixture holds by mistake (validate reports it) stays out of the report, which a pull-request comment shows
  const report = masked(r.report, args);
  io.out(format === "json" ? renderJson(report) : format === "markdown" ? renderMarkdown(report, header) : renderText(report, header));
  return 0;
}

/** Where suites ran, from their ledgers' directories (a runner's default one names its package: `ledgerRootOf`): "here", or "in <dir>". */
function ranWhere(suites: readonly OtherSuite[], here: string, io: Io): string {
  const roots = new Set(suiteLedgers(suites).map((run) => ledgerRootOf(path.dirname(run), io)));
  const elsewhere = [...roots].filter((r) => path.resolve(r) !== path.resolve(here));
  return elsewhere.length ? `in ${elsewhere.map((r) => shellWord(display(io, r))).join(" and ")}` : "here";
}

/**
 * What the last complete runs on this machine used (the last run of the suite here and of each
 * other suite sharing `dir`), from their ledgers (`inUse`); when one is missing or partial, why not, and what
 * would tell (`why`). A fixture they used is still a test's, not the old form of an added one.
 */
function usedByLastRuns(dir: string, args: ParsedArgs, io: Io): { inUse?: (file: string) => boolean; startedAt?: string; why?: string } {
  const { ledgerDir, verdicts, root } = cliVerdicts(args, io, dir);
  const last = verdicts?.last;
  if (!verdicts || !last) return { why: `there is no usage ledger in ${display(io, ledgerDir)}: ${WHOLE_RUN_FIX}` };
  if (!last.complete) return { why: `the last run ${last.runId} (started ${last.startedAt}) was partial: ${WHOLE_RUN_FIX}` };
  const others = suitesSharing(verdicts, dir);
  const partial = others.filter((o) => !o.run.complete);
  if (partial.length > 0) {
    // a complete run on another branch, or before its test files changed, is not partial: said so, and not to be deleted (trial 52 F1)
    const outdated = partial.filter((o) => o.run.outdated);
    const cut = partial.filter((o) => !o.run.outdated);
    const runs = (suites: OtherSuite[]) => suites.map((o) => `${suiteName(o.run)}${o.run.reasons.length ? `: ${o.run.reasons[0]}` : ""}`).join("; ");
    const notes = [
      ...(outdated.length
        ? [
            `another suite that used ${display(io, dir)} last ran complete, but on what is no longer on disk: ${runs(outdated)}. Run it whole ${ranWhere(outdated, root, io)}, then diff again`,
          ]
        : []),
      ...(cut.length
        ? [
            `another suite that used ${display(io, dir)} last ran partially: ${runs(cut)}. Run it whole, then diff again; if it is gone (a one-off run of a few files), ` +
              `delete its ledgers: rm -r ${suiteLedgers(cut)
                .map((d) => shellWord(display(io, d)))
                .join(" ")}`,
          ]
        : []),
    ];
    return { why: notes.join(". ") };
  }
  const used = new Set([last, ...others.map((o) => o.run)].flatMap((r) => [...r.used]));
  return { inUse: (file) => used.has(file), startedAt: last.startedAt };
}
