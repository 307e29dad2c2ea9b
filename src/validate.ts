/**
 * `validateFixtures(dir)`: every problem in a fixture directory, one entry per problem, so a
 * CI step can fail before a damaged fixture is ever replayed. Checks each entry of `dir`
 * (not its subdirectories: fixtures are only read from the top level):
 * - the name is `<sha256 hex>.json` (leftover temp files and other files are flagged;
 *   dotfiles such as `.gitkeep`, `.gitattributes` or `.DS_Store` are ignored);
 * - it parses, and its envelope passes the same check every read applies (`envelopeProblem`,
 *   hand-written rather than zod: zod is not a dependency of this package), with the hash
 *   its file name gives;
 * - its `response` passes the check replay applies before using it (its kind's
 *   `responseProblem` in src/kinds/: validate and replay judge by the same function);
 * - unless it is marked `redacted`, re-hashing `{ kind, request }` gives its `hash` (a hand
 *   edit or a bad merge of `request` would otherwise never match again);
 * - it is of the current schema version (an older one is never read: `migrate` upgrades it);
 * - no string in it looks like a credential (the recorder's secret patterns);
 * - across files: the embedding fixtures of one model and request parameters (all of the request
 *   but the text and query/document) have vectors of one length (adapters/embeddings/lengths.ts).
 * One bad file never stops the rest.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { requestHash } from "./canonical/json";
import { damagedProblem } from "./kinds/damaged";
import { secretHits, type SecretHit } from "./secrets";
import { envSecrets } from "./clientSecrets";
import { CONFLICT_PROBLEM, conflictFix, FIXTURE_FILE_RE, SCHEMA_VERSION, type Fixture } from "./store/fixture";
import { parseFixtureFile, readFixtureFileAsync, responseProblem, type FixtureFile } from "./store/reader";
import { TEMP_PREFIX } from "./store/atomic";
import { suiteRerecordCommand } from "./diagnose/suiteCommand";
import { EmbeddingLengths } from "./adapters/embeddings/lengths";

export interface FixtureProblem {
  /** Absolute path of the file (or of the directory, when the directory itself is the problem). */
  file: string;
  problem: string;
}

export interface ValidateOptions {
  /** Secret pattern names that are not problems (as `new Vcr({ allowSecretPatterns })`). @default [] */
  allowSecretPatterns?: string[];
}

const CONCURRENCY = 32;

export async function validateFixtures(dir: string, options: ValidateOptions = {}): Promise<FixtureProblem[]> {
  const root = path.resolve(dir);
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(root, { withFileTypes: true });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const problem =
      code === "ENOENT" ? "does not exist (no fixture directory here)" : code === "ENOTDIR" ? "is not a directory" : `cannot be read: ${(e as Error).message}`;
    return [{ file: root, problem }];
  }
  const allow = new Set(options.allowSecretPatterns ?? []);
  const names = entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const results: FixtureProblem[][] = new Array(names.length);
  const lengths = new EmbeddingLengths();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < names.length) {
      const i = next++;
      results[i] = await checkEntry(root, names[i], allow, lengths).catch((e: Error) => [
        { file: path.join(root, names[i].name), problem: `could not be checked: ${e.message}` },
      ]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, names.length) }, worker));
  return [...results.flat(), ...lengths.problems()];
}

async function checkEntry(root: string, entry: fs.Dirent, allow: ReadonlySet<string>, lengths: EmbeddingLengths): Promise<FixtureProblem[]> {
  const file = path.join(root, entry.name);
  const name = entry.name;
  if (name.startsWith(TEMP_PREFIX)) {
    return [{ file, problem: "is a temporary file left by an interrupted fixture write; delete it" }];
  }
  if (name.startsWith(".")) return [];
  if (entry.isDirectory()) {
    return [{ file, problem: "is a directory; fixtures are only read from the top level of the fixture directory" }];
  }
  if (!FIXTURE_FILE_RE.test(name)) {
    if (!name.toLowerCase().endsWith(".json")) {
      return [{ file, problem: "is not a fixture file (fixtures are named <sha256 hex>.json); move it out of the fixture directory" }];
    }
    const hint = await hashInside(file);
    return [
      {
        file,
        problem: "is not named <64 lowercase hex>.json, so it is never read" + (hint ? `; its "hash" says it should be ${hint}.json` : ""),
      },
    ];
  }
  const read = await readFixtureFileAsync(file);
  if (read.text === undefined) throw read.cause; // unreadable: reported as "could not be checked"
  return checkParsed(file, read, allow, lengths);
}

/** The problems of one fixture file's text (its name gives the hash it must hold). */
export function checkFixture(file: string, raw: string, allow: ReadonlySet<string> = new Set()): FixtureProblem[] {
  return checkParsed(file, parseFixtureFile(file, raw), allow);
}

/**
 * Why a parsed fixture can never replay: a response replay cannot use, or a request that no longer
 * hashes to its name (edited by hand, merged badly). `validate` and `diff` say it alike.
 */
export function unusableProblems(file: string, fixture: Fixture): string[] {
  const problems: string[] = [];
  const bad = responseProblem(fixture);
  if (bad) problems.push(damagedProblem(fixture.kind, file, bad));
  if (fixture.redacted !== true) {
    const actual = requestHash(fixture.kind, fixture.request, fixture.schemaVersion);
    if (actual !== fixture.hash) {
      problems.push(
        `has a "request" that no longer hashes to its "hash" (it hashes to ${actual}): the request was edited by hand ` +
          `or merged badly, so it can never match. Restore it from git, or delete it and re-record ` +
          `(${suiteRerecordCommand()})`,
      );
    }
  }
  return problems;
}

/**
 * The problems of one fixture file as the reader parsed it (read once: the file is not parsed again here).
 * A usable embedding fixture is noted in `lengths`, for the check across files.
 */
function checkParsed(file: string, read: FixtureFile, allow: ReadonlySet<string>, lengths?: EmbeddingLengths): FixtureProblem[] {
  if (read.problem !== undefined) return [{ file, problem: read.problem === CONFLICT_PROBLEM ? `${read.problem}: ${conflictFix(file)}` : read.problem }];
  const fixture = read.fixture;
  const unusable = unusableProblems(file, fixture);
  if (unusable.length === 0 && fixture.kind === "embedding" && fixture.schemaVersion === SCHEMA_VERSION) lengths?.add(file, fixture);
  const problems: FixtureProblem[] = unusable.map((problem) => ({ file, problem }));
  if (fixture.schemaVersion < SCHEMA_VERSION) problems.push({ file, problem: olderProblem(file, fixture.schemaVersion, fixture.redacted === true) });
  const secrets = [...secretHits(fixture, envSecrets(), allow)]; // the values of this shell's credential variables too, as the recorder refuses them
  if (secrets.length > 0) problems.push({ file, problem: secretsProblem(secrets) });
  return problems;
}

/** How many credentials one problem names before it counts the rest. */
const SECRETS_LISTED = 10;

/** The problem of a fixture that holds credentials: each one's place (every one, so one clean-up finds them all), and the fix. */
function secretsProblem(hits: readonly SecretHit[]): string {
  const what = (hit: SecretHit) => (hit.variable ? `the value of $${hit.variable}` : `a string that looks like a credential`);
  const where = (hit: SecretHit) => `${what(hit)} at ${hit.path} (pattern "${hit.pattern}")`;
  if (hits.length === 1) return `holds ${where(hits[0])}; remove it, add a redactor, and rotate the key if it is real`;
  const listed = hits.slice(0, SECRETS_LISTED).map(where);
  if (hits.length > SECRETS_LISTED) listed.push(`and ${hits.length - SECRETS_LISTED} more`);
  return `holds ${hits.length} credentials: ${listed.join("; ")}. Remove them, add redactors, and rotate every key that is real`;
}

async function hashInside(file: string): Promise<string | undefined> {
  return (await readFixtureFileAsync(file)).fixture?.hash;
}

function olderProblem(file: string, version: number, redacted: boolean): string {
  const what = `was written by an older langchain-vcr (schemaVersion ${version}; this one writes ${SCHEMA_VERSION}), so no lookup reads it. `;
  if (redacted) {
    return what + `It is redacted, so its new name cannot be computed offline: delete it and re-record it (${suiteRerecordCommand()})`;
  }
  return what + `Upgrade it offline, with no model call: npx langchain-vcr migrate ${JSON.stringify(path.dirname(file))}`;
}
