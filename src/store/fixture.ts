/** The fixture envelope: its type, its current schema version, and the check every read applies. */
import { SCHEMA_VERSION } from "../canonical/version";
import { FIXTURE_KINDS, kindSpec, type FixtureKind } from "../kinds";
import { pathFrom } from "../pathFrom";

export { FIXTURE_KINDS, type FixtureKind };
export { SCHEMA_VERSION } from "../canonical/version";

export interface Fixture<Req = unknown, Res = unknown> {
  schemaVersion: number;
  kind: FixtureKind;
  /** sha256 hex of the canonical serialization of `{ kind, request, version }` (`requestHash`); also the file name. */
  hash: string;
  recordedAt: string;
  /** Set when a redactor changed what was written: `request` no longer re-hashes to `hash`. */
  redacted?: boolean;
  request: Req;
  response: Res;
}

export const HASH_RE = /^[0-9a-f]{64}$/;

/**
 * One fixture file's text, parsed and its envelope checked: the fixture (its response in the
 * form adapters use: its kind's `fromDisk`), or what is wrong.
 * Shared by every replay (which throws the problem) and by `validate` (which lists it).
 */
export function readFixtureText(raw: string, expectedHash?: string): { fixture: Fixture } | { problem: string; cause?: unknown } {
  const text = stripBom(raw);
  if (!/\S/.test(text)) return { problem: "is empty" }; // the whitespace trim() removes, without copying the text
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    if (CONFLICT_MARKERS.test(text)) return { problem: CONFLICT_PROBLEM, cause: e };
    return { problem: `${NOT_JSON} (${withLine((e as Error).message, text)}): a merge conflict or a truncated write, perhaps`, cause: e };
  }
  const problem = envelopeProblem(value, expectedHash);
  if (problem) return { problem };
  const fixture = value as Fixture;
  const fromDisk = kindSpec(fixture.kind)?.fromDisk;
  if (fromDisk) fixture.response = fromDisk(fixture.response);
  return { fixture };
}

/** A JSON.parse message's "at position N" with the line and column an editor shows (Node 22 adds them itself). */
export function withLine(message: string, text: string): string {
  const at = /at position (\d+)(?!\d| \(line)/.exec(message);
  if (!at) return message;
  const before = text.slice(0, Number(at[1]));
  const line = before.split("\n").length;
  const column = before.length - before.lastIndexOf("\n");
  return `${message} (line ${line} column ${column})`;
}

/** git's conflict markers, each at the start of a line: a merge left the file unresolved. */
const CONFLICT_MARKERS = /^<{7}(?: |$)[^]*^>{7}(?: |$)/m;
/** How the problem of a file that is not JSON begins. */
export const NOT_JSON = "is not valid JSON";

export const CONFLICT_PROBLEM = "holds unresolved git merge-conflict markers (<<<<<<< … >>>>>>>)";

/**
 * How to mend a fixture a merge left in conflict. Both sides answer the same request (the
 * file is named by its hash), so either side replays; `git checkout -- file` alone refuses an
 * unmerged path.
 */
export function conflictFix(file: string): string {
  const q = JSON.stringify(pathFrom(process.cwd(), file)); // a command a reviewer pastes into a checkout of their own (trial 58 L3)
  return (
    `keep one side of the conflict (both answer the same request, which names the file): while the merge is in progress, ` +
    `git checkout --theirs -- ${q} (or --ours), then git add ${q}; once the markers are committed, take the file from one parent: git checkout <merge commit>^2 -- ${q} (or ^1)`
  );
}

/** A file's text without the UTF-8 byte-order mark some Windows editors add. */
function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
export const FIXTURE_FILE_RE = /^[0-9a-f]{64}\.json$/;

/** What is wrong with a parsed fixture's envelope, or undefined when it is well-formed. */
export function envelopeProblem(value: unknown, expectedHash?: string): string | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return "is not a JSON object";
  const f = value as Record<string, unknown>;
  if (typeof f.schemaVersion !== "number" || !Number.isInteger(f.schemaVersion) || f.schemaVersion < 1) {
    return `has no valid "schemaVersion" (found ${JSON.stringify(f.schemaVersion)})`;
  }
  if (f.schemaVersion > SCHEMA_VERSION) {
    return `has schemaVersion ${f.schemaVersion}, newer than this langchain-vcr understands (${SCHEMA_VERSION}): upgrade langchain-vcr`;
  }
  if (f.kind === undefined) return `has no "kind" (valid: ${FIXTURE_KINDS.join(", ")})`;
  if (!(FIXTURE_KINDS as readonly unknown[]).includes(f.kind)) {
    return `has an unknown "kind" ${JSON.stringify(f.kind)} (valid: ${FIXTURE_KINDS.join(", ")})`;
  }
  if (typeof f.hash !== "string" || !HASH_RE.test(f.hash)) return `has no valid "hash"`;
  if (expectedHash !== undefined && f.hash !== expectedHash) {
    return `has "hash" ${f.hash} but its file name says ${expectedHash} (renamed, copied or merged by hand?)`;
  }
  if (typeof f.recordedAt !== "string") return `has no "recordedAt"`;
  if (f.redacted !== undefined && typeof f.redacted !== "boolean") return `has a non-boolean "redacted"`;
  if (!("request" in f)) return `has no "request"`;
  if (!("response" in f) || f.response === undefined) return `has no "response"`;
  return undefined;
}
