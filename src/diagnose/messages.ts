/** The text of miss errors and near-miss notes (VcrMissError and the log sink add the "langchain-vcr: " prefix): what happened, the facts, the nearest, the fix. */
import * as fs from "node:fs";
import * as path from "node:path";
import type { VcrDifference, VcrNearest } from "../errors";
import { isCi, type VcrMode } from "../modes";
import { type ReplayedError, type RunnerName } from "../scope";
import { changesEveryRun, countedNamesOnly, formatChange, formatEdit, hintFor, isEdit, looksEdited, toolFailedOnReplay } from "./diff";
import { shellWord } from "./commandEnv";
import { rerecordCommand, wholeSuiteCommand } from "./rerecordCommand";
import { staleInstall, staleInstallFix } from "./staleInstall";
import type { SecretHit } from "../secrets";
import { pathFrom } from "../pathFrom";
import { isDirectory } from "../fsProbe";
import { enclosingDirs, packagesHolding } from "../install/workspaces";

const MAX_DIFFS = 8;
/** A nearest fixture whose request the redactors leave as they leave this one: what differs is inside a value they mask. */
const MASKED_ALIKE =
  "the same request as the redactors leave both: they differ only inside a value the redactors mask (options.redactors), " +
  "and each value of it is a request of its own (a normalizer, which runs before the hash, would make them one)";
const MAX_REQUEST_CHARS = 2000;

export function formatDifferences(nearest: VcrNearest, indent = "    "): string[] {
  const lines: string[] = [];
  for (const d of nearest.differences.slice(0, MAX_DIFFS)) {
    lines.push(indent + formatDifference(d));
    const edit = editOfLongText(d);
    if (edit) lines.push(`${indent}  the edit: ${edit}`);
  }
  if (nearest.differences.length > MAX_DIFFS) lines.push(`${indent}… and ${nearest.differences.length - MAX_DIFFS} more`);
  return lines;
}

/** Texts this long read alike on both sides of a change: the edit is said on its own line too. */
const LONG_TEXT = 48;

/**
 * A long text's edit alone (`formatEdit`: the changed words, a few characters before them), when the whole texts
 * `formatChange` shows start alike and the reader would have to compare them by eye to find a letter (user trial 47:
 * "Summarise in one sentence: …" → "Summarize in one sentence: …", 110 characters each).
 */
function editOfLongText(d: VcrDifference): string | undefined {
  if (typeof d.recorded !== "string" || typeof d.requested !== "string") return undefined;
  if (d.recorded.length < LONG_TEXT && d.requested.length < LONG_TEXT) return undefined;
  return formatEdit(d.recorded, d.requested);
}

function formatDifference(d: VcrDifference): string {
  return `${d.path}: ${formatChange(d.recorded, d.requested)}`;
}

/**
 * A request's first difference from its nearest fixture, as the summary's roll-up counts it (undefined: the very same
 * request): as its miss error words it, but a changed text as the edit alone (`formatEdit`), so that one edit of a
 * prompt prefix joined to each test's own text is one cause.
 */
export function firstDifference(nearest: VcrNearest): string | undefined {
  const d = nearest.differences[0];
  if (!d) return undefined;
  const edit = formatEdit(d.recorded, d.requested);
  return edit === undefined ? formatDifference(d) : `${d.path}: ${edit}`;
}

/** What a message says about one request that no fixture matched. */
interface Unmatched {
  kind: string;
  hash: string;
  file: string;
  request: unknown;
  mode: VcrMode;
  describe: string;
  test?: string;
  nearest?: VcrNearest;
  runner?: RunnerName;
  /** The name the runner's filter should match, when not the full title. */
  filterTitle?: string;
  /** The test's file, when its runner plugin named it (the command names it for vitest and jest). */
  specFile?: string;
  /** The errors tool fixtures of the test replayed, if any (`Scope.replayedToolErrors`). */
  replayedToolErrors?: readonly ReplayedError[];
  /** The nearest fixture differs by nothing and is of the current form: the requests differ inside what the redactors mask (`NearestIndex.masked`). */
  masked?: boolean;
}

/** A miss's error message. */
export function missMessage(m: MissFacts): string {
  return missReport(m).message;
}

/** What a miss's message is made of. */
type MissFacts = Unmatched & {
  /** How many fixtures in the directory are of an older schema version (never read until migrated). */
  older?: number;
  /** Another request of this run replayed or recorded the nearest fixture: a sibling's, not an old form of this one. */
  nearestUsedThisRun?: boolean;
  /** The fixture of this very request made the other way (streamed, or not), when one is recorded. */
  otherForm?: { kind: string; file: string };
  /** A file holding this very request under another name (renamed or copied by hand): never read. */
  misnamed?: string;
  /** What looks like a secret in the request as the redactors leave it: its fixture would be refused. */
  secret?: SecretHit;
  /** A redactor threw on the request alone: it is not shown, and no recorded fixture was compared with it. */
  hidden?: boolean;
};

/** A miss's error message, and whether its fix is to record the test again (the summary's one command for every such test). */
export function missReport(m: MissFacts): { message: string; recordsTest: boolean } {
  // this very request made the other way, or under another name, says more than the nearest of this kind, another request
  const exact = m.otherForm !== undefined || m.misnamed !== undefined; // this very request, in a file a lookup does not read
  if (exact) m = { ...m, nearest: undefined, nearestUsedThisRun: undefined };
  const never = m.kind === "tool" ? "never runs the tool" : "never calls the real model";
  const held = m.nearest || exact ? undefined : packageHolding(m.file, process.cwd());
  // a request the redactors hid was compared with nothing: "no fixture is recorded yet" would be a guess (review 68 H2)
  const lines = [`no recorded fixture for this ${m.kind} request from ${m.describe}, and mode ${m.mode} ${never}.`, ...facts(m, !exact && !m.hidden, held)];
  if (m.older) {
    const same =
      m.nearest && m.nearest.differences.length === 0 && !m.masked ? ` — this very request is recorded, in the older form, in ${m.nearest.file}` : "";
    lines.push(
      `  ${m.older} fixture(s) in this directory were written by an older langchain-vcr and are never read${same}.`,
      `  Upgrade them offline (no model call): npx langchain-vcr migrate ${JSON.stringify(path.dirname(m.file))}`,
    );
  }
  if (m.nearestUsedThisRun && m.nearest && m.nearest.differences.length > 0 && !held) {
    // a copied test whose fixture stayed on the machine that recorded it misses in CI with a sibling's fixture as its nearest
    lines.push(
      `  ${m.nearest.file} answered another call earlier in this run: if this request is a new test's, not an edit of that call, ` +
        `its fixture was never recorded, or was recorded and not committed (on the machine that recorded it, git status ${shellWord(path.dirname(m.file))} lists it).`,
    );
  } else if (isCi() && !held && !exact && !m.secret && !(m.nearest && (m.nearest.differences.length === 0 || isEdit(m.nearest.differences))))
    // trial 58 M1: a new test whose fixture was recorded and never committed misses only here; recording it again there
    // replays the untracked file and changes nothing
    lines.push(
      `  If this test passes on the machine that recorded it, its fixture is there and not committed: git status ${shellWord(pathFrom(process.cwd(), path.dirname(m.file)))} there lists it.`,
    );
  if (m.otherForm) lines.push(otherFormLine(m.otherForm));
  if (m.misnamed)
    lines.push(`  ${m.misnamed} holds this very request under another name (its "hash" is this one): a fixture is read only from its hash's file name.`);
  let req = JSON.stringify(m.request);
  if (req.length > MAX_REQUEST_CHARS) req = req.slice(0, MAX_REQUEST_CHARS) + "…";
  lines.push(`  request:  ${req}`);
  const fix = missFix(m, held);
  lines.push(fix.line);
  if (m.kind === "chat_stream" && !held && !exact && !(isEdit(m.nearest?.differences ?? []) && !m.nearestUsedThisRun)) {
    // a stream read only part way records nothing: said unless the nearest fixture is an old form of this request, edited
    lines.push(
      `  A stream is written only once it has been read to its end: if the test stops reading it early (break), it records nothing; read it to the end.`,
    );
  }
  return { message: lines.join("\n"), recordsTest: fix.records };
}

/**
 * A miss's last line, its fix, first that applies: a misnamed file's name given back; a workspace package's copy
 * anchored (`held`); a value that changes every run, or a schema with no title, kept out of the request before
 * recording; packages that are not the lock file's installed from it first; else the command that records the test
 * (`records`: that last fix alone).
 */
function missFix(m: MissFacts, held: { there: string; pkg: string } | undefined): { line: string; records: boolean } {
  const no = (line: string) => ({ line, records: false });
  if (m.misnamed) return no(`  Fix: give it its name back (git mv ${shellWord(m.misnamed)} ${shellWord(m.file)}), or restore both from git.`);
  if (held) return no(anchorFix(held, m.file));
  const command = rerecordCommand(m.runner, m.filterTitle ?? m.test, m.specFile);
  // trial 57 L3: the command would only be refused (before the call)
  if (m.secret)
    return no(
      `  Recording it will be refused while the request holds what looks like a secret (${secretName(m.secret)} at ${m.secret.path}): ` +
        `keep it out of the prompt, or make a redactor (options.redactors) mask it, then record it: ${command}.`,
    );
  const differences = m.nearest?.differences ?? [];
  // recording it again would record a request the next run does not make: the hint above says what to do
  if (m.nearest && changesEveryRun(differences))
    return no(
      `  Recording it again will not help while that value changes on every run: keep it out of the request as the hint says, then record it: ${command}.`,
    );
  if (m.nearest && toolFailedOnReplay(differences, m.replayedToolErrors, m.request))
    return no(
      `  Recording it again will not help while the app tells that tool error apart with instanceof or an object field: branch on its name as the hint says, then run the test again (its fixtures replay as they are).`,
    );
  if (m.nearest && countedNamesOnly(differences))
    return no(
      `  Recording it again only moves the miss while the schema has no title: give it one as the hint says, then record the tests that use it: ${command}.`,
    );
  const recordHow = m.kind === "tool" ? "once for real" : "with the real provider configured";
  // the installed packages are not the lock file's (said above): recording now would key fixtures to them
  if (staleInstall()) return no(staleInstallFix(recordHow, command));
  return { line: `  To record it, run the test ${recordHow}: ${command}, then review and commit the new fixture.`, records: true };
}

/** What a secret is, as a miss names it: its credential pattern, the client's own key, or a variable's value. */
function secretName(hit: SecretHit): string {
  if (hit.pattern === "client_api_key") return "the client's own key";
  if (hit.pattern === "environment_secret") return `the value of $${hit.variable}`;
  return hit.pattern;
}

/** A miss whose request is recorded as the other kind of call: the test switched between a plain call and a stream. */
function otherFormLine(other: { kind: string; file: string }): string {
  const was =
    other.kind === "chat_stream"
      ? 'a stream of it (.stream(), streamEvents, an agent\'s streamMode "messages"), and this call is not streamed (invoke, batch)'
      : 'a plain call of it (invoke, batch), and this call streams (.stream(), streamEvents, an agent\'s streamMode "messages")';
  return (
    `  this very request is recorded as a ${other.kind} fixture, ${other.file}: it answers ${was}. ` +
    `A stream and a plain call are fixtures of their own and never replay each other: record this one as below.`
  );
}

/**
 * The note joined to a provider's error when a `record_or_replay` miss went live to be
 * recorded and the call failed: the provider's own error never says a fixture was missing.
 */
export function failedLiveMessage(
  m: Unmatched & {
    /** whether a nearest fixture was looked for (chat; not embeddings) */ searched: boolean;
    /** the HTTP status the provider answered with, when its error says (`httpStatus`) */ status?: number;
  },
): string {
  const lines = [
    `no recorded fixture matched this ${m.kind} request from ${m.describe}, so mode ${m.mode} sent it to the provider to record it, and that call failed (the error above); nothing was recorded.`,
    ...facts(m, m.searched, m.nearest ? undefined : packageHolding(m.file, process.cwd())),
  ];
  const fix = rerecordCommand(m.runner, m.filterTitle ?? m.test, m.specFile);
  const how = reachProvider(m.status);
  lines.push(
    // an edit of the nearest fixture's request may be a mistake to undo; another question (a new test's) is only to record
    staleInstall()
      ? staleInstallFix(how, fix)
      : m.nearest && isEdit(m.nearest.differences)
        ? `  If the request changed on purpose, record it ${how}: ${fix}. If not, undo the change shown above.`
        : `  To record it, run the test ${how}: ${fix}.`,
    `  Under CI=true or LANGCHAIN_VCR_MODE=replay_only such a request fails as a VcrMissError and never reaches the provider.`,
  );
  return lines.join("\n");
}

/** How a recording run reaches the provider, after it answered with `status`: a provider that failed on its side needs only time, a rate limit time or quota, a refused key another key. */
function reachProvider(status: number | undefined): string {
  if (status === 429) return "again once the provider takes it (HTTP 429: rate-limited, or the account is out of quota: wait, or check its quota)";
  if (status !== undefined && status >= 500) return `again once the provider answers (it failed with HTTP ${status}, on its side: the request may be fine)`;
  if (status === 401 || status === 403) return `with a key the provider accepts (it refused this one: HTTP ${status})`;
  // no status: the provider was not reached (a wrong URL, no network), which the clients retry for a minute or more (trial 42 L2: 110 s)
  return "with the real provider configured (its URL and key; a client retries a provider it cannot reach for a minute or more, and maxRetries: 0 on the model makes that fail at once)";
}

/**
 * The test, the hash, the file expected, and the nearest recorded fixture with its differences
 * (`searched`: or that there is none); `held`: a workspace package's copy of the file (`packageHolding`).
 */
function facts(m: Unmatched, searched: boolean, held: { there: string; pkg: string } | undefined): string[] {
  const lines: string[] = [];
  if (m.test) lines.push(`  test:     ${m.test}`);
  lines.push(`  hash:     ${m.hash}`, `  expected: ${m.file}`);
  if (m.nearest && m.nearest.differences.length === 0 && m.masked) {
    // trial 57 M1: a teammate's other email, masked alike on both sides, is no older form (migrate did nothing)
    lines.push(`  nearest recorded ${m.kind} fixture: ${m.nearest.file}, ${MASKED_ALIKE}.`);
  } else if (m.nearest && m.nearest.differences.length === 0) {
    // the same request, recorded in an older form (a lookup never reads those): the migrate line below says so
    lines.push(`  nearest recorded ${m.kind} fixture: ${m.nearest.file}, the same request in an older form.`);
  } else if (m.nearest) {
    lines.push(`  nearest recorded ${m.kind} fixture: ${m.nearest.file}, which differs at:`);
    lines.push(...formatDifferences(m.nearest));
    const hint = hintFor(m.nearest.differences, { errors: m.replayedToolErrors, request: m.request }) ?? modelHint(m.nearest.differences, m.runner);
    if (hint) lines.push(`  hint: ${hint}`);
  } else if (searched) {
    lines.push(`  no ${m.kind} fixture is recorded in this directory yet${isDirectory(path.dirname(m.file)) ? "" : " (it does not exist)"}.`);
  }
  if (held) {
    lines.push(
      `  ${held.there} holds this very fixture: a relative dir is resolved against the working directory (${process.cwd()}), ` +
        // the package is above the working directory (a run from its test/), or a workspace's package below it (a run from the root)
        (path.isAbsolute(held.pkg) ? `here a directory inside the package at ${path.resolve(held.pkg)}.` : `here a workspace's root.`),
    );
  }
  const stale = staleInstall();
  if (stale) lines.push(`  ${stale}`);
  return lines;
}

/** A miss whose nearest fixture differs by its model alone: every call to the new model misses alike, one test after another. */
function modelHint(differences: readonly VcrDifference[], runner: RunnerName | undefined): string | undefined {
  if (differences.length !== 1 || differences[0].path !== "model") return undefined;
  return `only the model changed: every fixture of the old model misses the same way, so record them all in one run (${wholeSuiteCommand(runner)}), then remove the old ones (npx langchain-vcr prune)`;
}

/**
 * The fix for a miss whose fixture a workspace package holds (`there` in `pkg`, from the working
 * directory; `file` is where the Vcr looked): anchor `dir` to the file that makes the Vcr. Recording
 * again would write a second copy where it looked (said unless `recordingNow`: the run doing it says so).
 * `cwd`: the working directory the relative `dir` was resolved against.
 */
export function anchorFix({ there, pkg }: { there: string; pkg: string }, file: string, recordingNow = false, cwd = process.cwd()): string {
  const given = path.dirname(path.relative(cwd, file)) || "."; // the dir as given, relative: "cassettes", "test/cassettes"
  return (
    `  Fix it: anchor dir to the file that makes the Vcr, so it names ${path.dirname(there)} from wherever the tests run, e.g. in a setup file in ${pkg}:\n` +
    `    new Vcr({ dir: path.join(import.meta.dirname, ${JSON.stringify(given.split(path.sep).join("/"))}) }) (__dirname in CommonJS).` +
    // a run recording there already says so: the sentence is for a miss, which has not
    (recordingNow ? "" : ` Recording again here would write a second copy in ${path.dirname(file)}.`)
  );
}

/**
 * Where a workspace package, or the package or workspace `cwd` is inside, holds the fixture `file`
 * (the same path, below that directory instead of `cwd`), from `cwd`: a relative `dir` that a run
 * from the workspace's root, or from a package's `test/` directory, resolved there. Undefined for a
 * file not below `cwd`, or no such directory holding it.
 */
export function fixtureInAPackage(file: string, cwd: string): string | undefined {
  return packageHolding(file, cwd)?.there;
}

/** `fixtureInAPackage`, with the package's directory (both from `cwd`). */
export function packageHolding(file: string, cwd: string): { there: string; pkg: string } | undefined {
  const below = path.relative(cwd, file);
  if (below.startsWith("..") || path.isAbsolute(below)) return undefined;
  const above = enclosingDirs(cwd).map((pkg) => ({ pkg, at: path.join(pkg, below) }));
  const hit = [...packagesHolding(cwd, below), ...above].find(({ at }) => at !== file && fs.existsSync(at));
  return hit && { there: pathFrom(cwd, hit.at), pkg: pathFrom(cwd, hit.pkg) || "." };
}

/** A recording whose request a file under another name already held (renamed or copied by hand), which no lookup reads. */
export function misnamedRecordedMessage(rec: { kind: string; file: string }, misnamed: string): string {
  return (
    `recorded a new ${rec.kind} fixture ${rec.file}; ${misnamed} held this very request under another name (renamed or copied by hand?), and is never read.\n` +
    `  Fix: delete ${misnamed} once the new fixture is reviewed (npx langchain-vcr validate lists every such file).`
  );
}

/** A message the new request has after the recorded one's: `messages[2]`, recorded nothing. */
function isAddedMessage(d: VcrDifference): boolean {
  return d.recorded === undefined && /^messages\[\d+\]$/.test(d.path);
}

/** One note when `record_or_replay` records a request close to an existing fixture: usually an unintended prompt change. */
export function recordedNearMessage(
  rec: { kind: string; file: string; test?: string; replayedToolErrors?: readonly ReplayedError[]; request?: unknown; masked?: boolean },
  nearest: VcrNearest,
  sameQuestion = false,
): string | undefined {
  const d = nearest.differences;
  if (d.length === 0 && rec.masked) return `recorded a new ${rec.kind} fixture ${rec.file}; the nearest recorded one ${nearest.file} is ${MASKED_ALIKE}.`;
  if (d.length === 0) {
    // the same request in another file: one written by an older langchain-vcr (a lookup never reads it)
    return (
      `recorded a new ${rec.kind} fixture ${rec.file}; the same request was recorded by an older langchain-vcr in ${nearest.file}, which is never read.\n` +
      `  Upgrade older fixtures offline instead of recording them again: npx langchain-vcr migrate ${JSON.stringify(path.dirname(rec.file))}`
    );
  }
  if (d.every(isAddedMessage)) return undefined; // a conversation that grew: the next turn, not a change (a parameter only this request has is one)
  // noted: an edit of the recorded request (at most 3 changes: changeCount); the same question (model, last user text, what
  // came after) with its texts kept or edited, however many fields changed (an upgrade's re-keyed agent turn, recheck 62; a
  // rewritten system prompt is another test's persona as often, review 63); a tool's replayed error handled otherwise than
  // the real one, recorded as if meant (recheck 63 N2: committed, it would replay green). Another question is not.
  const toolFailed = toolFailedOnReplay(d, rec.replayedToolErrors, rec.request) !== undefined;
  const asked = sameQuestion && !isEdit(d) && d.every(looksEdited);
  if (!isEdit(d) && !asked && !toolFailed) return undefined;
  const near = `the nearest recorded one ${nearest.file}${asked ? ", which asks the same question," : ""} differs at:`;
  // the runner prints notes under whichever test's output, or none: the test is named, above the differences (trial 54: it was among them)
  const lines = rec.test
    ? [`recorded a new ${rec.kind} fixture ${rec.file}`, `  test:     ${rec.test}`, `  ${near}`]
    : [`recorded a new ${rec.kind} fixture ${rec.file}; ${near}`];
  lines.push(...formatDifferences(nearest));
  const hint = hintFor(nearest.differences, { errors: rec.replayedToolErrors, request: rec.request });
  if (hint) lines.push(`  hint: ${hint}`);
  if (asked)
    lines.push(
      `  If the change is meant (an upgrade, a parameter set), the old fixture goes unused: a whole-suite run, then npx langchain-vcr prune, removes it.`,
    );
  if (toolFailed)
    lines.push(
      `  The new fixture records that other path: once the code branches on the name, the test replays its earlier fixtures again and this one goes unused: delete it (rm ${shellWord(rec.file)}), and what else this run recorded on that path (git status lists it).`,
    );
  return lines.join("\n");
}

export { shellWord };
