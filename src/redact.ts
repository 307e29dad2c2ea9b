/**
 * Redactors run once, after the hash is computed and the live call answered, over a copy of
 * the whole fixture; they change only what is written to disk. What one returns for the
 * envelope (`hash`, `kind`, `schemaVersion`) is ignored: the fixture is always filed under the
 * hash computed from the unredacted request, with its real kind and schema version (API.md,
 * "Redactors (clarified)"). A fixture whose content they changed is marked `redacted: true`,
 * so the validator knows its request no longer re-hashes to its name. What each returns is
 * checked as replay would read it (./redactCheck.ts) before the next one runs.
 */
import { canonicalJson } from "./canonical/json";
import { VcrRecordError, VcrSecretError } from "./errors";
import { allJoinedStrings, shownPath, withJoinedWhole, type Joined } from "./secrets";
import { log } from "./log";
import { checkedRedaction } from "./redactCheck";
import { SCHEMA_VERSION, type Fixture, type FixtureKind } from "./store/fixture";

export type Redactor = (fixture: Fixture) => Fixture;

const ENVELOPE = ["hash", "kind", "schemaVersion"] as const;

export function applyRedactors(fixture: Fixture, redactors: readonly Redactor[]): Fixture {
  if (redactors.length === 0) return fixture;
  const before = canonicalJson([fixture.request, fixture.response]);
  let current: Fixture = structuredClone(fixture);
  redactors.forEach((redact, i) => {
    const name = `redactor #${i + 1} (${redact.name || "anonymous"})`;
    let out: unknown;
    try {
      out = redact(structuredClone(current)) ?? current;
    } catch (e) {
      throw new VcrRecordError(
        `${name} threw while preparing ${fixture.kind} fixture ${fixture.hash}: ${(e as Error)?.message ?? e}\n` +
          `  Nothing was written (a fixture already on disk is left as it was) and the call failed. Fix the redactor in options.redactors.`,
        { cause: e },
      );
    }
    const checked = checkedRedaction(out, fixture, name);
    const changed = ENVELOPE.filter((k) => (out as Fixture)[k] !== fixture[k]);
    if (changed.length > 0) log.debug("%s changed %s of fixture %s; ignored", name, changed.join(", "), fixture.hash);
    current = checked;
  });
  const after = canonicalJson([current.request, current.response]);
  return after === before ? fixture : { ...current, redacted: true };
}

/**
 * What a message may show of a request when redactors are set: the request as they leave it,
 * run over a fixture that holds it and no response yet (a miss has none), so a value they keep
 * off disk never reaches a terminal or a CI log either, and the nearest fixture's differences
 * compare like with like. Undefined when one throws or returns no request: nothing of it is shown.
 */
export function redactedRequest(kind: FixtureKind, hash: string, request: unknown, redactors: readonly Redactor[]): { request: unknown } | undefined {
  if (redactors.length === 0) return { request };
  const out = probeRedactors(
    { schemaVersion: SCHEMA_VERSION, kind, hash, recordedAt: new Date(0).toISOString(), request, response: noAnswer(kind) },
    redactors,
  );
  return out && typeof out === "object" && "request" in out ? { request: out.request } : undefined;
}

/**
 * A response of `kind`'s shape that holds no answer yet: a redactor written for real fixtures reads `response.chunks` or
 * `response.generations`, and threw on `null`, which hid the request from a miss and skipped the secret scan before the
 * call (review 68 H2, with the stream redactor the docs showed).
 */
function noAnswer(kind: FixtureKind): unknown {
  return EMPTY_RESPONSES[kind] ?? {};
}

const EMPTY_RESPONSES: Partial<Record<FixtureKind, unknown>> = {
  chat: { generations: [] },
  llm: { generations: [] },
  chat_stream: { chunks: [] },
  embedding: { vector: [] },
  moderation: { results: [] },
};

/**
 * What the redactors make of a fixture that is not going to disk (a miss's request, a stream's
 * joined text), each over a copy of what the one before returned; undefined when one throws.
 * Unlike `applyRedactors`, nothing is checked or reported: a redactor written for real fixtures
 * may not take such a fixture, and then there is nothing to learn from it.
 */
function probeRedactors(fixture: Fixture, redactors: readonly Redactor[]): Fixture | undefined {
  let current = fixture;
  try {
    for (const redact of redactors) current = redact(structuredClone(current)) ?? current;
  } catch {
    return undefined;
  }
  return current;
}

/**
 * Where the redactors would mask a value that the response spells out over an array's elements
 * (a stream answers a few characters a chunk, so they never see it whole in one string): each
 * joined text is handed to them in a fixture whose response is that text alone, and one they
 * would change still holds the value, in pieces. Undefined when none does (or they cannot take
 * such a fixture).
 */
export function redactionSplitAcross(fixture: Fixture, redactors: readonly Redactor[]): string | undefined {
  if (redactors.length === 0) return undefined;
  // only what a provider spells out a piece at a time (text, tool-call arguments): ids and names
  // repeat whole in every chunk, and a redactor that masks them there would "change" their join
  const places = allJoinedStrings(fixture.response, "$.response").filter((j) => SPELLED_OUT.test(j.at));
  for (const joined of places) {
    if (joined.pieces.every((p) => p === joined.pieces[0])) continue;
    if (masksJoined(fixture, joined, places, redactors)) return joined.path;
  }
  return undefined;
}

/**
 * Whether the redactors change `joined`'s text once they see it whole: put, in the fixture's own shape, in the first
 * piece of each place the stream spells text out in (its own, and the others of its list: a chat stream's chunk holds
 * its text twice, as `text` and `message.content`), the others emptied; else as the text alone of a fixture's response.
 * A redactor written for streams reads `response.chunks` (the text alone is no stream to it), and may mask one of the
 * places and pass another through: shown the text in its own place only, it left it as it was, and the value went to
 * disk in pieces, marked redacted (trial 57 H1; review 68 H1).
 */
function masksJoined(fixture: Fixture, joined: Joined, places: readonly Joined[], redactors: readonly Redactor[]): boolean {
  for (const place of places) {
    if (place.array !== joined.array) continue;
    const at = { ...place, text: joined.text };
    const whole = probeRedactors({ ...fixture, response: withJoinedWhole(fixture.response, at) }, redactors);
    const after = whole && allJoinedStrings(whole.response, "$.response").find((j) => j.path === place.path);
    if (after && after.text !== joined.text) return true;
  }
  const alone = probeRedactors({ ...fixture, response: { text: joined.text } }, redactors);
  return alone !== undefined && (alone.response as { text?: unknown } | undefined)?.text !== joined.text;
}

/** The places a stream spells its answer out over chunks: text, content, tool-call arguments, reasoning. */
const SPELLED_OUT = /\.(?:text|content|args|arguments|partial_json|input|thinking|reasoning)$/;

export function splitRedactionError(path: string, file: string): VcrSecretError {
  return new VcrSecretError(
    `refused to write ${shownPath(file)}: a redactor (options.redactors) masks a value that ${path} spells out over several strings, which it sees one by one.\n` +
      `  Nothing was written; the call failed, so the value cannot reach the repository in pieces.\n` +
      `  Fix it: keep the model from repeating the value (a stream answers a few characters a chunk), record that test without streaming, or write the redactor to mask the chunks' text joined, everywhere it is (a chat stream's chunk holds its text twice, as text and as message.content; docs/normalizers-and-redactors.md shows one).`,
    { path, pattern: "redacted_value" },
  );
}
