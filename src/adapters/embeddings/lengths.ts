/**
 * Vectors of one model that do not all have one length. A model's vectors always do, so two
 * lengths among one model's fixtures mean the model behind the name changed between recordings
 * (a model pulled again, another server behind the base URL): fixtures are one per text, and a
 * call that replays some texts and records others would hand a vector store both models'
 * vectors, which it scores without complaint. One grouping, two wordings: the failed call
 * (`mixedLengthsError`) and `validate`'s line (`mixedLengthsProblem`, over a whole directory).
 */
import * as path from "node:path";
import { canonicalJson } from "../../canonical/json";
import { currentTestCommand, rerecordCommand } from "../../diagnose/rerecordCommand";
import { VcrFixtureError } from "../../errors";
import { MODE_ENV } from "../../modes";
import { currentTest } from "../../scope";

/** Where one vector comes from. */
export interface VectorAt {
  /** Its fixture (for a live answer that was not written, where it would have been). */
  file: string;
  length: number;
  /** When its fixture was recorded (ISO 8601); undefined for a live answer that was not written. */
  recordedAt?: string;
  /** Answered by the live model in this call: its length is the model's now. */
  live?: boolean;
  /** Of an earlier call of this process (`againstFirstCall`), as its fixture holds it now. */
  earlier?: boolean;
}

export interface LengthGroup {
  length: number;
  vectors: VectorAt[];
  /** A vector of it came from the live model in this call. */
  live: boolean;
  /** The latest `recordedAt` among its vectors ("" when none has one). */
  newest: string;
}

/**
 * The vectors by length, or undefined when they all have one. The length the model has now is
 * last: the live model's, else the newest recording's (the others are the older lengths).
 */
export function mixedLengths(vectors: readonly VectorAt[]): LengthGroup[] | undefined {
  const byLength = new Map<number, LengthGroup>();
  const seen = new Set<string>();
  for (const v of vectors) {
    if (seen.has(v.file)) continue; // two texts of a call that read one file (the same request in another form)
    seen.add(v.file);
    let group = byLength.get(v.length);
    if (!group) byLength.set(v.length, (group = { length: v.length, vectors: [], live: false, newest: "" }));
    group.vectors.push(v);
    group.live ||= v.live === true;
    if ((v.recordedAt ?? "") > group.newest) group.newest = v.recordedAt ?? "";
  }
  if (byLength.size < 2) return undefined;
  return [...byLength.values()].sort((a, b) => Number(a.live) - Number(b.live) || (a.newest < b.newest ? -1 : a.newest > b.newest ? 1 : a.length - b.length));
}

/** An embedding request but its text and input type: one model and its parameters (a query's vectors are compared with the documents'). */
export function requestParams(request: object): Record<string, unknown> {
  const { text: _text, input_type: _inputType, ...params } = request as Record<string, unknown>;
  return params;
}

/** How many files of one length a failed call names before it counts the rest. */
const FILES_SHOWN = 10;

/**
 * The error of one `embedQuery`/`embedDocuments` call whose vectors (replayed, just recorded, or
 * both) have more than one length. `describe`: `OllamaEmbeddings (model "nomic-embed-text")`.
 */
export function mixedLengthsError(
  groups: readonly LengthGroup[],
  facts: { method: string; describe: string; model?: string; className: string; earlier?: string },
): VcrFixtureError {
  const older = groups.slice(0, -1);
  const current = groups[groups.length - 1];
  const allLive = groups.every((g) => g.live);
  const named = facts.model !== undefined ? JSON.stringify(facts.model) : facts.className;
  const lines = [
    `${facts.method} of ${facts.describe} got vectors of ${groups.length} lengths ${facts.earlier ? `across two calls of this process (this one, and an earlier ${facts.earlier} with the same model and parameters)` : "in one call"} (${groups.map((g, i) => `${g.vectors.length} of ${g.length}${i === 0 ? " numbers" : ""}`).join(", ")}), ` +
      `so it failed rather than return them mixed: a vector store would compare them without complaint.`,
  ];
  const width = Math.max(...groups.map((g) => `${g.length} numbers:`.length));
  for (const g of groups) lines.push(`  ${`${g.length} numbers:`.padEnd(width)} ${origin(g)}: ${listed(g.vectors.map((v) => v.file))}`);
  const test = currentTest()?.title;
  if (test !== undefined) lines.push(`  test:     ${test}`);
  if (allLive) {
    // no replayed vector in it: the live model answered so itself (every file was just written, or could not be)
    lines.push(
      `  The live model answered ${facts.earlier ? "this process's calls" : "this one call"} with vectors of different lengths; one model's vectors all have one length, so check what serves ${named} (a proxy, a router between several servers).`,
      `  Fix it: make the live model answer with one length, then record these texts again: ${rmCommand(groups.flatMap((g) => g.vectors.filter((v) => v.recordedAt !== undefined)))}${currentTestCommand()}`,
    );
    return new VcrFixtureError(lines.join("\n"), groups[0].vectors[0].file);
  }
  const olderLengths = lengthsWord(older);
  lines.push(
    `  One model's vectors all have one length: the model behind ${named} changed since the ${olderLengths}-number vectors were recorded (a model pulled again, another server behind the base URL), ` +
      `so its fixtures hold two models' answers. ` +
      (current.live
        ? `The ${current.length}-number vector${current.vectors.length > 1 ? "s are" : " is"} the live model's answer now.`
        : `The newest recording has ${current.length} numbers (${current.newest}).`),
  );
  const stale = older.flatMap((g) => g.vectors);
  const dir = path.dirname(stale[0].file);
  const command = currentTestCommand();
  const remove =
    stale.length <= FILES_SHOWN
      ? rmCommand(stale)
      : `delete the ${stale.length} fixtures of ${olderLengths} numbers (npx langchain-vcr validate ${JSON.stringify(dir)} lists every one), then `;
  lines.push(
    `  Fix it: record the ${olderLengths}-number vectors again. Delete them and run the test again, which records only those texts: ${remove}${command}; ` +
      `or record this test anew (each other test that embeds with this model needs the same): ${recordAlways(command)}. ` +
      `npx langchain-vcr validate ${JSON.stringify(dir)} lists this model's fixtures of each length, other tests' too.`,
  );
  return new VcrFixtureError(lines.join("\n"), stale[0].file);
}

/** How a length's vectors came to this call. */
function origin(g: LengthGroup): string {
  const earlier = g.vectors.filter((v) => v.earlier).length;
  const mine = g.vectors.filter((v) => !v.earlier);
  const live = mine.filter((v) => v.live);
  const replayed = mine.length - live.length;
  const parts: string[] = [];
  if (earlier > 0) parts.push(`the earlier call's, in ${earlier} fixture${earlier > 1 ? "s" : ""}`);
  if (replayed > 0) parts.push(`replayed from ${replayed} fixture${replayed > 1 ? "s" : ""}`);
  const written = live.filter((v) => v.recordedAt !== undefined).length;
  if (written > 0) parts.push(`just recorded from the live model`);
  if (written < live.length) parts.push(`answered live, not recorded`);
  return parts.join(" and ");
}

/** `8`, `8- and 12`: the lengths of the groups, for "the 8-number vectors". */
function lengthsWord(groups: readonly LengthGroup[]): string {
  const all = groups.map((g) => String(g.length));
  return all.length === 1 ? all[0] : `${all.slice(0, -1).join("-, ")}- and ${all[all.length - 1]}`;
}

function listed(files: readonly string[]): string {
  const shown = files.slice(0, FILES_SHOWN).join(", ");
  return files.length > FILES_SHOWN ? `${shown}, and ${files.length - FILES_SHOWN} more` : shown;
}

/** `rm "a" "b" && `: deletes the files of `vectors` (absolute, as the rest of the message names them). */
function rmCommand(vectors: readonly VectorAt[]): string {
  return vectors.length ? `rm ${vectors.map((v) => JSON.stringify(v.file)).join(" ")} && ` : "";
}

/** A printed record command, in mode `record_always` (it replaces what exists, where `record_or_replay` only adds). */
function recordAlways(command: string): string {
  return command.replace(`${MODE_ENV}=record_or_replay`, `${MODE_ENV}=record_always`);
}

// ---- validate: one directory's embedding fixtures, by model and request parameters ----

/** The embedding fixtures of a directory, grouped by everything in their request but the text. */
export class EmbeddingLengths {
  private readonly byParams = new Map<string, { request: Record<string, unknown>; vectors: VectorAt[] }>();

  /**
   * Notes one well-formed embedding fixture. The query and the document vectors of a model share
   * a group (`input_type` is left out with the text): a retriever scores the one against the other.
   */
  add(file: string, fixture: { request: unknown; response: unknown; recordedAt?: unknown }): void {
    const vector = (fixture.response as { vector?: unknown } | null)?.vector;
    if (!Array.isArray(vector) || fixture.request === null || typeof fixture.request !== "object") return; // base64 text: no length to compare
    const params = requestParams(fixture.request);
    if (typeof params.model !== "string") return; // a model langchain-vcr does not read (a custom class's own field): two may share these parameters
    const key = canonicalJson(params);
    let group = this.byParams.get(key);
    if (!group) this.byParams.set(key, (group = { request: params, vectors: [] }));
    group.vectors.push({ file, length: vector.length, recordedAt: typeof fixture.recordedAt === "string" ? fixture.recordedAt : undefined });
  }

  /** One problem per model and parameters whose vectors have more than one length, on the first file of its oldest length. */
  problems(): { file: string; problem: string }[] {
    const out: { file: string; problem: string }[] = [];
    for (const { request, vectors } of this.byParams.values()) {
      const groups = mixedLengths([...vectors].sort((a, b) => (a.file < b.file ? -1 : 1)));
      if (groups) out.push({ file: groups[0].vectors[0].file, problem: mixedLengthsProblem(groups, request) });
    }
    return out;
  }
}

/** `validate`'s line (a predicate of the first file of the oldest length). */
function mixedLengthsProblem(groups: readonly LengthGroup[], params: Record<string, unknown>): string {
  const older = groups.slice(0, -1);
  const current = groups[groups.length - 1];
  const first = groups[0];
  const provider = typeof params.provider === "string" ? params.provider : "embeddings";
  const model = typeof params.model === "string" ? JSON.stringify(params.model) : undefined;
  const facts = [params.dimensions !== undefined ? `dimensions ${String(params.dimensions)}` : undefined, optionsFact(params.options)].filter(Boolean);
  const which = `${provider}${model !== undefined ? ` model ${model}` : " (no model)"}${facts.length ? ` (${facts.join(", ")})` : ""}`;
  const stale = older.flatMap((g) => g.vectors);
  const suite = rerecordCommand(undefined, undefined);
  return (
    `holds a vector of ${first.length} numbers, but the embedding fixtures of ${which} with the same request parameters hold vectors of ${groups.length} lengths ` +
    `(${groups.map((g) => `${g.vectors.length} of ${g.length}`).join(", ")}), so a call that replays some of each returns them mixed. ` +
    `One model's vectors all have one length: the model behind ${model ?? provider} changed between recordings (a model pulled again, another server behind the base URL). ` +
    `By length: ${groups.map((g) => `${g.length} numbers (${g === current ? "the newest recording" : "older"}): ${g.vectors.map((v) => v.file).join(", ")}`).join("; ")}. ` +
    `Fix it: delete the older ones and record them again: ${rmCommand(stale)}${suite}; ` +
    `or run the tests that embed with this model under ${MODE_ENV}=record_always`
  );
}

function optionsFact(options: unknown): string | undefined {
  return options !== null && typeof options === "object" && Object.keys(options).length > 0 ? `options ${JSON.stringify(options)}` : undefined;
}
