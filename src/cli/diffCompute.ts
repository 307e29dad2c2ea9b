/**
 * The review of a fixture directory between two states (`langchain-vcr diff`): a new fixture
 * that is an edit of a removed one — the removed request of the same kind nearest to it, as
 * the miss diagnostics find it — is one change with its request and response differences; a
 * fixture migrated from an older schema version is paired the same way (its request, upgraded,
 * is equal); the rest are added, removed, or re-recorded in place (same name, other content).
 */
import { canonicalJson } from "../canonical/json";
import { diffValues, isEdit, sameJsonKey } from "../diagnose/diff";
import { nearestOf, nearness } from "../diagnose/nearest";
import type { VcrDifference } from "../errors";
import { fixtureTitle, kindSpec } from "../kinds";
import { messageField } from "../kinds/text";
import { asksSameQuestion, asksSameTurn } from "../kinds/model";
import type { Fixture } from "../store/fixture";
import type { FixtureFile } from "../store/reader";
import { unusableProblems } from "../validate";
import { upgradedParts } from "../store/upgrade";

/** A request difference as `diff` shows it: the role of the message it is in (`messages[0].content` is the system prompt). */
export interface ShownDifference extends VcrDifference {
  role?: string;
}

export interface DiffChange {
  before: string;
  after: string;
  kind: string;
  /** A one-line name of the request (its kind's `title`). */
  title: string;
  request: ShownDifference[];
  response: VcrDifference[];
  /** The removed fixture was of an older schema version (a `migrate`). */
  migrated?: true;
  /** No test used the new fixture in the last complete run, which started after it was recorded (`DiffListed.unused`). */
  unused?: true;
}

/** A fixture only one side has: its file as the report shows it, its kind and a one-line name of its request. */
export interface DiffListed {
  file: string;
  kind: string;
  title: string;
  /**
   * An added fixture that is an edit of one both sides hold unchanged (a prompt edited and recorded
   * again, before `prune` removed the old fixture): that fixture, and how the two differ.
   */
  /** `unusedByLastRun`: the last complete runs' ledgers say no test used the fixture still here (else no ledger says). */
  editOf?: { file: string; request: ShownDifference[]; response: VcrDifference[]; unusedByLastRun?: true };
  /**
   * An added fixture that asks the same question as one still here, unchanged, which would be shown as its edit had a
   * complete run on this machine said that one is unused (`DiffReport.unsureRewrites`): that fixture.
   */
  sameQuestionAs?: string;
  /**
   * No test used it in the last complete run, which started after it was recorded: a test deleted or renamed since it
   * recorded (trial 58 M3: recorded in a watch session by a test deleted later, kept by prune as uncommitted, and shown as
   * an ordinary change, which the next CI's prune --check failed on once it was committed).
   */
  unused?: true;
}

export interface DiffReport {
  changed: DiffChange[];
  added: DiffListed[];
  removed: DiffListed[];
  /**
   * Same name, other content. `request`: how the stored request differs. The same name means the
   * same unredacted request, so it differs only where a redaction was added, dropped or changed
   * (which can put a secret a redactor removed on disk).
   */
  rerecorded: {
    file: string;
    kind: string;
    title: string;
    request: ShownDifference[];
    response: VcrDifference[];
    /** Its `recordedAt` is the base's: the file was edited, not recorded again (a recording stamps its time). */
    editedByHand?: true;
  }[];
  /** Fixtures that could not be read on either side: reported, never fatal. */
  damaged: { file: string; side: "base" | "working tree"; problem: string }[];
  /**
   * How many added fixtures are shown as added that ask the same question as a fixture still here, unchanged, and would
   * be shown as its edit (a rewritten prompt or description, another parameter value) had a complete run on this machine
   * said the old one is unused (each `DiffListed.sameQuestionAs`): without that word, a new test beside an old one would
   * read as an edit of it (trial 45).
   */
  unsureRewrites?: number;
  /** Why no complete run on this machine says which fixtures still here are in use, and what would (the CLI's ledgers). */
  unsureWhy?: string;
}

/** What a change did to its request: changes that did the same (a system prompt rewritten for every test) are one group. */
export function requestChangeOf(c: { request: readonly VcrDifference[] }): string {
  // absent is not null: `strict: (absent) → null` and `strict: null → (absent)` are opposite changes (review 62 L2)
  return canonicalJson(c.request.map((d) => [d.path, sameJsonKey(d.recorded), sameJsonKey(d.requested)]));
}

/** Changes that did the same to their requests together, each group where its first file (by name) would be, by file name within it. */
function sortChanges(changes: DiffChange[]): void {
  const keyOf = new Map(changes.map((c) => [c, requestChangeOf(c)] as const));
  const first = new Map<string, string>();
  for (const [c, key] of keyOf) {
    const at = first.get(key);
    if (at === undefined || c.after < at) first.set(key, c.after);
  }
  const by = (c: DiffChange) => first.get(keyOf.get(c)!)!;
  changes.sort((x, y) => (by(x) === by(y) ? (x.after < y.after ? -1 : 1) : by(x) < by(y) ? -1 : 1));
}

/** Past this many comparisons, the remaining new and removed fixtures are listed unpaired. */
const MAX_COMPARISONS = 4_000_000;

interface Side {
  /** File name → its read (only the names that differ between the sides). */
  files: Map<string, FixtureFile>;
  /** The file name as the report shows it. */
  label(name: string): string;
}

/**
 * `unchanged`: the fixtures both sides hold with the same bytes (read only when an added fixture
 * is paired with no removed one), for the edits of a fixture still there (`DiffListed.editOf`).
 * `inUse`: whether the last complete runs on this machine used an unchanged fixture, by its file
 * name (their ledgers); undefined when no ledger says.
 */
export function computeDiff(
  base: Side,
  work: Side,
  sameName: readonly string[],
  unchanged: () => Side = () => ({ files: new Map(), label: work.label }),
  inUse?: (name: string) => boolean,
  lastRunStartedAt?: string,
): DiffReport {
  // recorded before the last complete run started, and not used by it (one recorded since, by a filtered run, may be a new test's)
  const unusedByLastRun = (e: Entry) =>
    inUse !== undefined && lastRunStartedAt !== undefined && !inUse(e.name) && Date.parse(e.fixture.recordedAt) <= Date.parse(lastRunStartedAt); // no date: no judgement
  const report: DiffReport = { changed: [], added: [], removed: [], rerecorded: [], damaged: [] };
  const good = (side: Side, which: "base" | "working tree", name: string): Fixture | undefined => {
    const f = side.files.get(name);
    // parsed, but no lookup could use it (a request edited by hand, a response of the wrong shape): damaged, as validate says, not a
    // re-recording; judged in the working tree only, so a change that repairs or removes such a base fixture still shows as one
    const problem =
      f &&
      (f.fixture
        ? which === "working tree"
          ? unusableProblems(side.label(name), f.fixture).join("; ") || undefined
          : undefined
        : (f.problem ?? "cannot be read"));
    if (f && !problem) return f.fixture;
    if (f) report.damaged.push({ file: side.label(name), side: which, problem: problem! });
    return undefined;
  };
  for (const name of sameName) {
    const a = good(base, "base", name);
    const b = good(work, "working tree", name);
    if (!a || !b || canonicalJson(a) === canonicalJson(b)) continue;
    const before = upgradedParts(a);
    const byHand = a.recordedAt === b.recordedAt;
    const request = requestDiffs(before.request, b.request);
    // a hand edit: every change in the file as written, what a review of a recording leaves out (reasoning text, ids,
    // provider metadata) too, since each was made on purpose (trial 45: the row said "no difference a review shows")
    const response = byHand ? diffValues(a.response, b.response) : responseDiffs(b.kind, before.response, b.response);
    report.rerecorded.push({
      file: work.label(name),
      kind: b.kind,
      title: fixtureTitle(b),
      request,
      response,
      ...(byHand ? { editedByHand: true as const } : {}),
    });
  }
  const removed = namesOnly(base.files, work.files).flatMap((n) => entry(n, good(base, "base", n), true));
  const added = namesOnly(work.files, base.files).flatMap((n) => entry(n, good(work, "working tree", n), false));
  const pairs = pair(added, removed);
  for (const [a, r] of pairs) {
    const change: DiffChange = {
      before: base.label(r.name),
      after: work.label(a.name),
      kind: a.fixture.kind,
      title: fixtureTitle(a.fixture),
      request: requestDiffs(r.request, a.request),
      response: responseDiffs(a.fixture.kind, r.response, a.fixture.response),
    };
    if (r.fixture.schemaVersion < a.fixture.schemaVersion) change.migrated = true;
    if (unusedByLastRun(a)) change.unused = true;
    report.changed.push(change);
  }
  const pairedA = new Set(pairs.map(([a]) => a.name));
  const pairedR = new Set(pairs.map(([, r]) => r.name));
  const listed = (side: Side, e: Entry): DiffListed => ({ file: side.label(e.name), kind: e.fixture.kind, title: fixtureTitle(e.fixture) });
  const unpaired = added.filter((a) => !pairedA.has(a.name));
  const kept = unpaired.length ? unchanged() : undefined;
  const still = kept ? stillThere(unpaired, kept, inUse) : new Map<Entry, Entry>();
  const unsure = kept && inUse === undefined && unpaired.length > still.size ? stillThere(unpaired, kept, () => false, true) : new Map<Entry, Entry>();
  report.added = unpaired.map((a) => {
    const of = still.get(a);
    const same = unsure.get(a);
    const item = { ...listed(work, a), ...(unusedByLastRun(a) ? { unused: true as const } : {}) };
    if (!of) return same ? { ...item, sameQuestionAs: work.label(same.name) } : item;
    const editOf = {
      file: work.label(of.name),
      request: requestDiffs(of.request, a.request),
      response: responseDiffs(a.fixture.kind, of.response, a.fixture.response),
      ...(inUse ? { unusedByLastRun: true as const } : {}),
    };
    return { ...item, editOf };
  });
  const rewrites = report.added.filter((a) => a.sameQuestionAs !== undefined).length;
  if (rewrites > 0) report.unsureRewrites = rewrites;
  report.removed = removed.filter((r) => !pairedR.has(r.name)).map((r) => listed(base, r));
  sortChanges(report.changed);
  return report;
}

interface Entry {
  name: string;
  fixture: Fixture;
  /** In the current version's form. */
  request: unknown;
  response: unknown;
}

function entry(name: string, fixture: Fixture | undefined, upgrade: boolean): Entry[] {
  if (!fixture) return [];
  const parts = upgrade ? upgradedParts(fixture) : fixture;
  return [{ name, fixture, request: parts.request, response: parts.response }];
}

function namesOnly(a: Map<string, FixtureFile>, b: Map<string, FixtureFile>): string[] {
  return [...a.keys()].filter((n) => !b.has(n)).sort();
}

/**
 * Added ↔ removed pairs: equal requests first (migrations), then the nearest edits, then model
 * requests asking the same question (`modelQuestion`), however many changes apart (an upgrade that
 * re-keys a structured-output agent: its tool_choice dropped, each tool's strict and type changed), then
 * the same turn of an agent (`asksSameTurn`: its tool results changed); each fixture in one pair at most.
 */
function pair(added: Entry[], removed: Entry[]): [Entry, Entry][] {
  const out: [Entry, Entry][] = [];
  const byRequest = new Map<string, Entry[]>();
  for (const r of removed) {
    const key = r.fixture.kind + "\0" + canonicalJson(r.request);
    byRequest.set(key, [...(byRequest.get(key) ?? []), r]);
  }
  const usedR = new Set<Entry>();
  const rest: Entry[] = [];
  for (const a of added) {
    const r = byRequest.get(a.fixture.kind + "\0" + canonicalJson(a.request))?.find((x) => !usedR.has(x));
    if (r) {
      usedR.add(r);
      out.push([a, r]);
    } else rest.push(a);
  }
  const open = removed.filter((r) => !usedR.has(r));
  if (rest.length * open.length > MAX_COMPARISONS) return out;
  for (const c of editsOf(rest, open, { rewrites: true, turns: true })) out.push([c.a, c.r]);
  return out;
}

/**
 * Which of `others` each of `added` is an edit of, each fixture on either side in one pair at
 * most: edits first (`isEdit`), nearest first; then a text rewritten beyond an edit (a new system
 * prompt) where the two ask the same question: the model, the last user text and what came after
 * it, in full, however many changes apart (an upgrade that re-keys a structured-output agent: its
 * tool_choice dropped, each tool's strict and type changed), with `rewrites`; then, with `turns` (removed ↔ added
 * only), the same turn of an agent whose tools answered otherwise (`asksSameTurn`).
 */
function editsOf(added: Entry[], others: Entry[], { rewrites, turns = false }: { rewrites: boolean; turns?: boolean }): Candidate[] {
  const edits: Candidate[] = [];
  const sameQuestions: Candidate[] = [];
  const sameTurns: Candidate[] = [];
  for (const a of added) {
    for (const r of others) {
      const d = differencesOf(a, r);
      if (!d) continue;
      if (isEdit(d)) edits.push({ a, r, score: nearness(d, a.request) });
      else if (rewrites && d.length > 0 && sameQuestion(a.fixture, r.fixture)) sameQuestions.push({ a, r, score: nearness(d, a.request) });
      else if (turns && d.length > 0 && asksSameTurn(a.fixture.kind, a.request, r.request)) sameTurns.push({ a, r, score: nearness(d, a.request) });
    }
  }
  const usedA = new Set<Entry>();
  const usedR = new Set<Entry>();
  return [edits, sameQuestions, sameTurns].flatMap((candidates) => nearestFirst(candidates, usedA, usedR));
}

/** How `a`'s request differs from `r`'s, as a miss's nearest fixture is compared; undefined when they cannot be (another kind). */
function differencesOf(a: Entry, r: Entry): VcrDifference[] | undefined {
  return nearestOf(a.fixture.kind, a.request, [{ kind: r.fixture.kind, hash: r.fixture.hash, file: r.name, request: r.request }])?.differences;
}

/** The candidates taken nearest first, each fixture on either side in one pair at most (`usedA`, `usedR`: taken before, and now). */
function nearestFirst(candidates: Candidate[], usedA: Set<Entry>, usedR: Set<Entry>): Candidate[] {
  const taken: Candidate[] = [];
  candidates.sort((x, y) => x.score - y.score || (x.a.name < y.a.name ? -1 : 1));
  for (const c of candidates) {
    if (usedA.has(c.a) || usedR.has(c.r)) continue;
    usedA.add(c.a);
    usedR.add(c.r);
    taken.push(c);
  }
  return taken;
}

interface Candidate {
  a: Entry;
  r: Entry;
  score: number;
}

/**
 * For each added fixture, the unchanged fixture it is an edit of (as a removed one is paired:
 * `editsOf`), if any: the nearest pairs first, each unchanged fixture with one added one at most
 * (a test copied from another beside an edit of that other: the edit is paired, the copy is
 * added). A fixture the last complete runs used (`inUse`) is a test's still, not an old form. A
 * rewritten system prompt pairs only with one they did not use: without their word, a new test that
 * asks what another asks under another prompt (a persona of a describe.each) would be called an edit.
 */
function stillThere(added: Entry[], unchanged: Side, inUse: ((name: string) => boolean) | undefined, rewrites = inUse !== undefined): Map<Entry, Entry> {
  const kept: Entry[] = [];
  for (const [name, f] of unchanged.files)
    if (f.fixture && !unusableProblems(name, f.fixture).length && !inUse?.(name)) kept.push(...entry(name, f.fixture, true));
  if (added.length * kept.length > MAX_COMPARISONS) return new Map();
  return new Map(editsOf(added, kept, { rewrites }).map((c) => [c.a, c.r]));
}

/**
 * A request's differences, each in a message named by that message's role, the base's and the
 * working tree's where they differ (a system prompt put before the question: `user → system`).
 */
function requestDiffs(before: unknown, after: unknown): ShownDifference[] {
  return diffValues(before, after).map((d) => {
    const at = /^messages\[(\d+)\](?!\.role$)/.exec(d.path); // a changed role shows itself
    if (!at) return d;
    const [was, is] = [messageField(before, Number(at[1]), "role"), messageField(after, Number(at[1]), "role")];
    const role = was && is && was !== is ? `${was} → ${is}` : (is ?? was);
    return role ? { ...d, role } : d;
  });
}

/** A response's differences, in its kind's `review` view, in reading order: the answer's text, tool calls, the rest, ids and token counts last. */
function responseDiffs(kind: string, before: unknown, after: unknown): VcrDifference[] {
  const view = kindSpec(kind)?.review ?? ((r: unknown) => r);
  const rank = (p: string) =>
    /(^|\.)(text|content)$|\.content\[\d+\]/.test(p) ? 0 : /tool_call|args/.test(p) ? 1 : /(^|\.)id$|usage|[Tt]oken/.test(p) ? 3 : 2;
  return diffValues(view(before), view(after))
    .map((d, i) => ({ d, i, r: rank(d.path) }))
    .sort((x, y) => x.r - y.r || x.i - y.i)
    .map((x) => x.d);
}

/** Two model fixtures that ask the same question in full (`asksSameQuestion`); other kinds never. */
function sameQuestion(a: Fixture, b: Fixture): boolean {
  return asksSameQuestion(a.kind, a.request, b.request);
}
