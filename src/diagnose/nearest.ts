/**
 * Finds the recorded fixture nearest to a request that missed. This scans the directory,
 * so it runs only on a miss (or a recording), never on the hot path. A file's request never
 * changes for a given name (the name is its hash), so each file is parsed once per index:
 * a later scan reads only the names it has not seen.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import type { VcrDifference, VcrNearest } from "../errors";
import { FIXTURE_FILE_RE, SCHEMA_VERSION, readFixtureText, type Fixture } from "../store/fixture";
import { requestHash } from "../canonical/json";
import { TEMP_PREFIX } from "../store/atomic";
import { readFixtureFile } from "../store/reader";
import { upgradedParts } from "../store/upgrade";
import { changedShare, diffValues, distinctChanges, onlyOrdinal, TEXT_PATH, textOf } from "./diff";
import { messageField } from "../kinds/text";

interface Indexed {
  kind: unknown;
  hash: string;
  /** In the current version's form (an older fixture's request upgraded), so it compares with a new one. */
  request: unknown;
  schemaVersion: number;
}

export class NearestIndex {
  /** File name → its kind and request (a damaged file is not kept: it may be fixed before the next scan). */
  private readonly seen = new Map<string, Indexed>();

  /** Fixtures of an older schema version seen by the last `find` (never read by a lookup: `migrate` upgrades them). */
  older = 0;

  /**
   * A file the last `find` saw holding the request it was asked about (its `"hash"`) under another
   * name: renamed or copied by hand. A lookup reads only `<hash>.json`, so it is never read.
   */
  misnamed: string | undefined;

  /**
   * Whether the nearest fixture the last `find` returned differs by nothing and is of the current form: the requests
   * differ only inside a value the redactors mask (the request compared is as they leave it), not an older form of it.
   */
  masked = false;

  constructor(private readonly dir: string) {}

  /**
   * `usedThisRun`: whether another request of this run replayed or recorded the file (see `nearestOf`).
   */
  find(kind: string, request: unknown, skipHash?: string, maxEntries = Infinity, usedThisRun?: (file: string) => boolean): VcrNearest | undefined {
    this.older = 0;
    this.misnamed = undefined;
    this.masked = false;
    let names: string[];
    try {
      names = fs.readdirSync(this.dir);
    } catch {
      return undefined;
    }
    if (names.length > maxEntries) return undefined;
    const candidates: NearestCandidate[] = [];
    for (const name of names) {
      if (!FIXTURE_FILE_RE.test(name)) {
        // a fixture renamed to a name of its own (refund.json): never read, but it may hold this very request
        if (skipHash && name.endsWith(".json") && !name.startsWith(TEMP_PREFIX))
          this.noteMisnamed(name, readFixtureFile(path.join(this.dir, name)).text, skipHash);
        continue;
      }
      if (name.startsWith(skipHash ?? "\0")) continue;
      const entry = this.entry(name, skipHash);
      if (!entry) continue;
      if (entry.schemaVersion < SCHEMA_VERSION) this.older++;
      const file = path.join(this.dir, name);
      candidates.push({ ...entry, file, usedThisRun: usedThisRun?.(file) });
    }
    const nearest = nearestOf(kind, request, candidates);
    this.masked = nearest !== undefined && nearest.differences.length === 0 && this.seen.get(path.basename(nearest.file))?.schemaVersion === SCHEMA_VERSION;
    return nearest;
  }

  /** The request (in the current version's form) of a file the last `find` read, as it compared it. */
  requestIn(file: string): unknown {
    return this.seen.get(path.basename(file))?.request;
  }

  private noteMisnamed(name: string, text: string | undefined, hash: string): void {
    if (text !== undefined && holdsRequest(text, hash)) this.misnamed = path.join(this.dir, name);
  }

  private entry(name: string, skipHash: string | undefined): Indexed | undefined {
    let e = this.seen.get(name);
    if (e === undefined) {
      const read = readFixtureFile(path.join(this.dir, name));
      const f = read.fixture;
      if (!f) {
        // damaged files are validate's business, not the nearest-match's; but one holding the very request asked about is named
        if (skipHash) this.noteMisnamed(name, read.text, skipHash);
        return undefined;
      }
      e = { kind: f.kind, hash: f.hash, request: f.schemaVersion < SCHEMA_VERSION ? upgradedRequest(f) : f.request, schemaVersion: f.schemaVersion };
      this.seen.set(name, e);
    }
    return e;
  }
}

/**
 * Whether a fixture's text, read without the name it should have, holds the request of `hash`: its
 * request hashes to it (a redacted fixture's cannot be rehashed: its `"hash"` is taken at its word).
 * A file copied and then edited keeps the `"hash"` of the request it was copied from, not its own.
 */
function holdsRequest(text: string, hash: string): boolean {
  const read = readFixtureText(text);
  if (!("fixture" in read) || read.fixture.hash !== hash) return false;
  const f = read.fixture;
  return f.redacted === true || requestHash(f.kind, f.request, f.schemaVersion) === hash;
}

export interface NearestCandidate {
  kind: unknown;
  hash: string;
  file: string;
  request: unknown;
  /** Another request of this run replayed or recorded it: it is that request's, not an old form of this one. */
  usedThisRun?: boolean;
}

/**
 * The candidate of the same kind whose request differs from `request` least (`nearness`), with
 * the differences; of two as near, the one whose file name sorts first (the same on every machine).
 * A fixture another request of this run used weighs 5 more: it belongs to that request (two tests
 * asking the same thing would both have hit it), so the old form of an edited request is found
 * before it, unless the ordinal of identical tool calls (`call`) is all that differs. With a template edited and half the tests recorded again, the test not yet recorded is
 * shown its own old fixture (`…Milan?`), not a recorded sibling's (`…Turin? Be brief.`) that
 * differs by less; a new test, with no old form, is still shown a sibling's edited text before
 * another test's replaced one.
 */
export function nearestOf(kind: string, request: unknown, candidates: Iterable<NearestCandidate>): VcrNearest | undefined {
  let best: VcrNearest | undefined;
  let bestScore = Infinity;
  for (const c of candidates) {
    if (c.kind !== kind) continue;
    const differences = diffValues(c.request, request);
    // an earlier identical call's fixture (a tool's `call: 3` for this `call: 4`): used by that call, and the one that explains the miss (trial 49 L3)
    const s = nearness(differences, request) + (c.usedThisRun && !onlyOrdinal(differences) ? USED_THIS_RUN : 0);
    if (s < bestScore || (s === bestScore && best !== undefined && c.file < best.file)) {
      bestScore = s;
      best = { hash: c.hash, file: c.file, differences };
    }
  }
  return best;
}

function upgradedRequest(f: Fixture): unknown {
  try {
    return upgradedParts(f).request;
  } catch {
    return f.request;
  }
}

/**
 * How far apart two requests are (lower is nearer), from their differences: each differing field
 * counts 1; a different model 5; a text (a message's content or text, a completion's prompt) replaced rather than edited
 * (`looksEdited`) 10 (a tool message's text where that tool fails now and answered when recorded: 3, the same
 * conversation on another path), an edited one 1 plus the share of it the edit changed (so of two prompts
 * built from one template, "…in Turin? Be brief." is nearer "…in Turin?" than "…in Bari?"); a
 * part present on one side only (a tool, a message, a response_format) one per value it holds,
 * at most 3. A test's prompt is what tells it from another test, so one
 * replaced text weighs more than any part a test gained or lost, or a setting it changed
 * (`tool_choice: "auto"` to `"required"` counts 1): a request whose tool definitions gained a
 * field, or that gained a tool, a structured output or an agent turn, is nearer its own test's
 * fixture than another test's with another prompt.
 */
export function nearness(differences: readonly VcrDifference[], request?: unknown): number {
  // one change made alike in several elements of a list weighs once (review 62 L1: after an upgrade that gave each of an
  // agent's 5 tools strict and type, another test's fixture with another prompt was nearer than the agent's own)
  const failedNow = toolsFailedNow(differences, request);
  return distinctChanges(differences).reduce((n, d) => n + weight(d, failedNow), 0);
}

/**
 * The texts of `request`'s tool messages that are an error where the candidate's answered (`messages[3].content`, beside
 * `messages[3].status: (absent) → "error"`): that tool failed in this run, as a retry policy that missed a replayed
 * error or a refusal at an interrupt makes it. Not the other way: a sibling test whose stubbed tool threw is another
 * test, and must not be nearer than the test's own fixture (review 64).
 */
function toolsFailedNow(differences: readonly VcrDifference[], request: unknown): ReadonlySet<string> {
  const paths = new Set<string>();
  for (const d of differences) {
    const at = /^(messages\[(\d+)\])\.status$/.exec(d.path);
    if (at && d.requested === "error" && d.recorded !== "error" && messageField(request, Number(at[2]), "role") === "tool") paths.add(`${at[1]}.content`);
  }
  return paths;
}

const MODEL = 5;
const REPLACED_TEXT = 10;
const ONE_SIDED_AT_MOST = 3;
/** More than an edited text with up to three other differences (at most 1.5 + 3), less than a replaced text. */
const USED_THIS_RUN = 5;

function weight(d: VcrDifference, failedNow: ReadonlySet<string>): number {
  if (d.path === "model") return MODEL;
  // identical tool calls' ordinal (absent: 1), less than another argument: of call 1, 2 and 3, call 3 is nearest call 4
  if (d.path === "call") return 0.5 + Math.min(0.4, Math.abs(ordinal(d.requested) - ordinal(d.recorded)) / 100);
  if (d.recorded === undefined) return Math.min(ONE_SIDED_AT_MOST, leaves(d.requested));
  if (d.requested === undefined) return Math.min(ONE_SIDED_AT_MOST, leaves(d.recorded));
  if (!TEXT_PATH.test(d.path)) return 1;
  // a message's content as text or as content blocks (an image beside its question): compared by the text it holds
  const recorded = textOf(d.recorded);
  const requested = textOf(d.requested);
  if (recorded === undefined || requested === undefined) return 1;
  const changed = changedShare(recorded, requested);
  if (changed <= 0.5) return 1 + changed;
  // a tool that fails now where it answered is the same conversation taking another path (a retry policy that missed a
  // replayed error, a refusal at an interrupt), not another test: its text weighs as a part gained (trial 55). Another
  // answer of the tool (a sibling test's stub, one that threw) still weighs as another prompt (reviews 63, 64).
  return failedNow.has(d.path) ? ONE_SIDED_AT_MOST : REPLACED_TEXT;
}

function ordinal(v: unknown): number {
  return typeof v === "number" ? v : 1;
}

function leaves(v: unknown): number {
  if (v === null || typeof v !== "object") return 1;
  const values = Object.values(v as object);
  return Math.max(
    1,
    values.reduce((n: number, x) => n + leaves(x), 0),
  );
}
