/**
 * `langchain-vcr prune [dir] [--dry-run | --check]`: removes the fixtures no test used in the last run,
 * as the usage ledgers of all its processes and shards tell, nor the last run of another suite
 * sharing the directory (`runner/otherSuites.ts`). Refuses when one of those runs was partial
 * or there is no ledger, so a focused run never deletes the fixtures of tests it did not run.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { MISSING_SHARD, RUN_ID_ENV, type RunVerdict } from "../runner/ledgerFiles";
import { suitesSharing, type OtherSuite } from "../runner/otherSuites";
import { leftOutTests } from "../runner/leftOut";
import { filesSkipping, skippedUsers } from "../runner/skipScan";
import { specSiblings } from "../runner/specDigests";
import { flagWords, type ParsedArgs } from "./args";
import { shellWord } from "../diagnose/messages";
import { listFixtures, dirArgOf, resolveDir } from "./fixtureDir";
import { cliVerdicts, ledgerRootOf, suiteLedgers, suiteName } from "./ledgers";
import { display, type Io } from "./io";
import { committedTest } from "./pruneGit";
import { readFixtureFile } from "../store/reader";
import { fixtureTitle } from "../kinds";

export const pruneSpec = { booleans: ["dry-run", "check"], strings: ["ledger-dir"] } as const;

export async function pruneCommand(args: ParsedArgs, io: Io): Promise<number> {
  const dir = resolveDir(io, dirArgOf(args, "prune"));
  const fixtures = listFixtures(dir, `prune${flagWords(args)}`);
  const { ledgerDir, root, verdicts } = cliVerdicts(args, io, dir);
  const verdict = verdicts?.last;
  // another suite sharing this directory: what its last run used stays (each complete run knows only its own tests);
  // from a workspace, each package's own ledger too (one fixture directory at the root for them all)
  const sharingSuites = verdicts ? suitesSharing(verdicts, dir) : [];
  const fix =
    `  Fix: run the whole suite with the langchain-vcr plugin of your test runner (mocha, vitest, jest or node:test: no name filter such as --grep/-t/--test-name-pattern, ` +
    `no .only, no test files named, all tests passing), then run langchain-vcr prune again.\n`;
  if (!verdict) {
    // the workspace's packages ran, not this directory: a package that never ran here has no ledger, so its fixtures would look unused
    const packages = [...new Set(sharingSuites.flatMap((o) => [...o.ledgers].map((run) => ledgerRootOf(path.dirname(run), io))))].map((d) => display(io, d));
    io.err(
      `langchain-vcr: prune refused: there is no usage ledger in ${display(io, ledgerDir)}, so nothing says which fixtures are in use.\n` +
        `  The langchain-vcr runner plugins (langchain-vcr/mocha, /vitest, /jest with its reporter, /node-test) write one per run (CI shards: copy every shard's ledger files there).\n` +
        (packages.length
          ? `  The runs of ${packages.join(", ")} used ${display(io, dir)} and wrote their ledgers there: run prune in one of them (cd ${shellWord(packages[0])} && npx langchain-vcr prune ${shellWord(path.relative(path.resolve(io.cwd, packages[0]), dir) || ".")}),\n` +
            `  which keeps what the other packages' last runs used; every package that uses ${display(io, dir)} must have run its whole suite on this machine first.\n`
          : fix),
    );
    return 1;
  }
  const run = `run ${verdict.runId} (started ${verdict.startedAt})`;
  if (!verdict.complete) {
    io.err(
      `langchain-vcr: prune refused: the last ${run} ${verdict.outdated ? "no longer matches the test files or the git checkout on disk" : "was partial"}, so fixtures it did not use may belong to tests it did not run:\n` +
        verdict.reasons.map((r) => `  - ${r}\n`).join("") +
        // only shards' ledgers missing: the suite ran whole, in shards; the reason says what to do
        (verdict.reasons.every((r) => r.startsWith(MISSING_SHARD))
          ? `  Fix: as said above (run each missing shard with the run's ${RUN_ID_ENV}, or copy its ledger files in), then run langchain-vcr prune again.\n`
          : fix),
    );
    return 1;
  }
  const lastUnused = fixtures.filter((f) => !verdict.used.has(f));
  const sharing = sharingSuites.map((o) => o.run);
  const keptFor = sharing.map((o) => ({ suite: o, files: lastUnused.filter((f) => o.used.has(f)) })).filter((k) => k.files.length > 0);
  const keptForOthers = new Set(keptFor.flatMap((k) => k.files));
  // tests the run before used fixtures in, whose test files are unchanged, and that used none in the last run: left out by the environment?
  const leftOut = leftOutTests(verdict, verdicts?.previous);
  const keptLeftOut = lastUnused.filter((f) => !keptForOthers.has(f) && leftOut.fixtures.has(f));
  const unused = lastUnused.filter((f) => !keptForOthers.has(f) && !leftOut.fixtures.has(f));
  // recorded (or re-recorded) after the run started: the run could not have used it (a run of the suite from another directory, whose ledger is elsewhere)
  const recordedSince = unused.filter((f) => recordedAfter(f, verdict.startedAt));
  const sinceSet = new Set(recordedSince);
  const judged = unused.filter((f) => !sinceSet.has(f));
  if (judged.length > 0 && judged.length === fixtures.length - recordedSince.length) {
    const elsewhere = [...new Set([...verdict.used].map((f) => path.dirname(f)))].slice(0, 3).map((d) => display(io, d));
    io.err(
      `langchain-vcr: prune refused: the last ${run} used none of the ${judged.length} fixtures in ${display(io, dir)}${recordedSince.length ? ` recorded before it started` : ""}.\n` +
        `  Is ${display(io, dir)} the directory your tests use? The run used fixtures in: ${elsewhere.join(", ") || "(none)"}.\n` +
        `  Pass the right directory (langchain-vcr prune <dir>), or delete the fixtures by hand if every test that used them is gone.\n`,
    );
    return 1;
  }
  const partials = unused.length > 0 ? sharingSuites.filter((o) => !o.run.complete) : [];
  if (partials.length > 0) {
    io.err(untrustedSuitesRefusal(io, dir, partials));
    return 1;
  }
  const git = committedTest(dir);
  const notCommitted = git ? judged.filter((f) => !git.committed(f)) : [];
  const kept = new Set(notCommitted);
  const removable = judged.filter((f) => !kept.has(f));
  const check = args.flags.check === true;
  const dry = check || args.flags["dry-run"] === true;
  const verb = dry ? "would remove" : "removed";
  for (const f of removable) {
    const what = requestTitle(f); // read before it goes: the list says what each fixture asked, as diff does
    if (!dry) fs.rmSync(f, { force: true });
    io.out(`  ${verb} ${display(io, f)}${what}\n`);
  }
  for (const f of recordedSince) io.out(`  kept ${display(io, f)} (recorded after that run started)\n`);
  for (const f of notCommitted)
    io.out(`  kept ${display(io, f)} (unused, but ${git?.unknown ? "git cannot say whether it is committed" : "not committed to git, or changed since"})\n`);
  io.out(
    `langchain-vcr: ${verb} ${removable.length} of ${fixtures.length} fixture(s) in ${display(io, dir)}; ` +
      `kept ${fixtures.length - lastUnused.length} used by the last ${run}, ${verdict.processes} process ledger(s)` +
      (verdict.shards ? `, ${verdict.shards} shard(s)` : "") +
      `.\n`,
  );
  const skipped = skippedUsers(removable, verdicts?.previous, verdict, root);
  if (skipped.fixtures.length) {
    // each file by name: the directory would also reset what prune kept as changed since the last commit
    const restore =
      !dry && git && !git.unknown ? `, and put them back: git checkout -- ${skipped.fixtures.map((f) => shellWord(display(io, f))).join(" ")}` : "";
    io.out(
      `langchain-vcr: note: ${skipped.fixtures.length} of the fixtures ${dry ? "it would remove" : "removed"} were used in the run before (${verdicts!.previous!.runId}) by tests in test files that now skip tests (.skip, xit, this.skip(), { skip }): ` +
        `${skipped.tests.slice(0, 3).join(", ")}${skipped.tests.length > 3 ? ", …" : ""}.\n` +
        `  A skipped test uses no fixture, so prune takes its fixtures for unused. If they are to stay, un-skip the tests and run the suite before pruning` +
        `${restore}.\n`,
    );
  }
  for (const k of keptFor) {
    io.out(`langchain-vcr: also kept ${k.files.length} used by another suite sharing this directory: the last ${suiteName(k.suite)}.\n`);
  }
  if (keptLeftOut.length) {
    const keptSet = new Set(keptLeftOut);
    const behind = leftOut.tests.filter((t) => [...t.fixtures].some((f) => keptSet.has(f))); // not those whose fixtures another suite keeps
    const tests = behind.slice(0, 3).map((t) => `${t.spec}: ${JSON.stringify(t.title)}`);
    io.out(
      `langchain-vcr: also kept ${keptLeftOut.length} used in the run before (${verdicts!.previous!.runId}) by ${behind.length} test(s) that used none in the last run, though their test files are unchanged: ` +
        `${tests.join(", ")}${behind.length > 3 ? ", …" : ""}.\n` +
        `  An environment variable may have left them out of the last run (tests defined from a list in the environment), or they no longer call a model. ` +
        `Run the whole suite as CI does; once a second complete run has not used them, prune removes them.\n`,
    );
  }
  if (recordedSince.length) {
    io.out(
      `langchain-vcr: kept ${recordedSince.length} fixture(s) recorded after the last ${run}: it cannot have used them. Its ledger in ${display(io, ledgerDir)} is older than\n` +
        `  they are: a run from another directory (a workspace's root, a package) writes its ledger there. Run prune where the suite last ran, or run the whole suite here first.\n`,
    );
  }
  if (notCommitted.length && git?.unknown) {
    io.out(
      `langchain-vcr: kept all ${notCommitted.length} unused fixture(s): ${git.unknown}, so nothing says which of them git can give back. Fix that, or delete them by hand.\n`,
    );
  } else if (notCommitted.length) {
    io.out(
      `langchain-vcr: kept ${notCommitted.length} unused fixture(s) that git does not hold as committed (new, changed or ignored): prune only removes what git can give back,\n` +
        `  since a run's ledger can be out of date (a test file stashed or on another branch during that run). Commit them, or delete them by hand if no test uses them.\n`,
    );
  }
  if (check && removable.length > 0) {
    const prune = `npx langchain-vcr prune${args.positionals[0] ? ` ${shellWord(args.positionals[0])}` : ""}${flagWords(args, ["check", "dry-run"])}`;
    // trial 58 M2: in a fresh clone (CI's) no run before says which tests used them; a test file that skips tests may be why
    // (the test files beside the run's too: one whose tests were all skipped may have reported none, recheck 68)
    const skipping = skipped.fixtures.length || verdicts?.previous ? [] : filesSkipping(specSiblings(root, verdict.specFiles), root);
    io.err(
      `langchain-vcr: prune --check failed: ${removable.length} fixture(s) no test used in the last run are still in ${display(io, dir)}.\n` +
        (skipped.fixtures.length || skipping.length
          ? `  A skipped test uses no fixture, and ${skipped.fixtures.length ? "some of these are skipped tests' (note above)" : `test files of the run skip tests (${skipping.slice(0, 3).join(", ")}${skipping.length > 3 ? ", …" : ""}): some of these may be theirs`}.\n` +
            `  Fix: if they are to stay, un-skip those tests (a skipped test's fixture counts as unused); else run ${prune} after a whole-suite run, and commit the removals.\n`
          : `  Fix: run ${prune} after a whole-suite run, and commit the removals.\n`),
    );
    return 1;
  }
  return 0;
}

/** Whether the fixture `file` says it was recorded after `startedAt` (a file it cannot be read from says nothing: judged as any other). */
function recordedAfter(file: string, startedAt: string): boolean {
  const at = readFixtureFile(file).fixture?.recordedAt;
  const recorded = at === undefined ? NaN : Date.parse(at);
  return recorded > Date.parse(startedAt);
}

/**
 * The refusal for other suites sharing the directory whose last runs cannot be trusted: every one of them in one
 * message, with one command that deletes all their ledgers (trial 42 M2: one suite per refusal, so a user deleted
 * ledgers and ran prune again, once per ad-hoc run of a single file).
 */
function untrustedSuitesRefusal(io: Io, dir: string, suites: readonly OtherSuite[]): string {
  const why = (v: RunVerdict) => (v.outdated ? "no longer matches its test files on disk" : "was partial");
  const runDirs = suiteLedgers(suites).map((d) => JSON.stringify(display(io, d)));
  const runners = [...new Set(suites.map((s) => s.run.runner))].join(", ");
  if (suites.length === 1) {
    const v = suites[0]!.run;
    return (
      `langchain-vcr: prune refused: another suite uses ${display(io, dir)} too: ${suiteName(v)}. ` +
      `Its last run ${why(v)}, so fixtures no run used may be its tests':\n` +
      v.reasons.map((r) => `  - ${r}\n`).join("") +
      `  Fix: run that suite whole too (${runners}, no filter), then run langchain-vcr prune again. ` +
      `If that suite is gone, delete its ledgers: rm -r ${runDirs.join(" ")}\n`
    );
  }
  return (
    `langchain-vcr: prune refused: ${suites.length} other suites use ${display(io, dir)} too, and the last run of each cannot be trusted, so fixtures no run used may be their tests':\n` +
    suites.map(({ run: v }) => `  - ${suiteName(v)}: its last run ${why(v)}:\n` + v.reasons.map((r) => `      - ${r}\n`).join("")).join("") +
    `  Fix: run each of those suites whole too (${runners}, no filter), then run langchain-vcr prune again. ` +
    `If they are gone (one-off runs of a few files, say), delete their ledgers: rm -r ${runDirs.join(" ")}\n`
  );
}

/** "  chat gpt-4o-mini: \"…\"" for a fixture's line in the list, or "" for a file that cannot be read as one. */
function requestTitle(file: string): string {
  const f = readFixtureFile(file).fixture;
  return f ? `  ${f.kind} ${fixtureTitle(f)}` : "";
}
