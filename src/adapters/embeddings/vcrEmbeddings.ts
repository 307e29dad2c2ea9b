/**
 * `VcrEmbeddings`: wraps any LangChain `Embeddings` so every text's vector is recorded once
 * (one `kind: "embedding"` fixture per text) and replayed bit-exact after. Usable wherever an
 * `Embeddings` is (vector stores, retrievers, `CacheBackedEmbeddings`). Both `embedQuery` and
 * `embedDocuments` are cached; a partial hit sends ONE request holding only the missing texts.
 */
import * as path from "node:path";
import { Embeddings } from "@langchain/core/embeddings";
import type { Normalize } from "../../canonical/normalize";
import { VcrMissError, VcrRecordError } from "../../errors";
import type { Lookup, Recorder } from "../../recorder";
import { callSecrets, clientSecrets } from "../../clientSecrets";
import { liveEmbed } from "../../install/embeddings";
import { describeEmbedding, describeEmbeddings, embeddingRequest, embeddingsIdentity, type EmbeddingInputType, type EmbeddingRequest } from "./request";
import { assertReplayable } from "../../kinds/damaged";
import { recordableResponse, replayVector, type Vector } from "./vectors";
import { mixedLengths, mixedLengthsError, type VectorAt } from "./lengths";
import { againstFirstCall, paramsKey } from "./firstCalls";
import { requireMadeByVcr } from "../madeByVcr";
import { readFixtureFile } from "../../store/reader";

/** One distinct (normalized) text of a call, and where it came from. */
interface Entry {
  /** The first original text that normalized to this one: what the live model receives. */
  text: string;
  request: EmbeddingRequest;
  describe: string;
  lookup?: Lookup;
  vector?: Vector;
  /** When the fixture just recorded for it was (undefined: replayed, or answered live and not written). */
  recordedAt?: string;
}

export class VcrEmbeddings<E extends Embeddings = Embeddings> extends Embeddings {
  /** The wrapped embeddings; called only for texts with no recorded vector. */
  readonly underlyingEmbeddings: E;

  constructor(
    inner: E,
    private readonly recorder: Recorder,
    private readonly normalize: Normalize,
  ) {
    super({});
    requireMadeByVcr("VcrEmbeddings", recorder, normalize);
    this.underlyingEmbeddings = inner;
  }

  async embedQuery(text: string): Promise<number[]> {
    const [vector] = await this.#vectors([text], "query");
    return vector;
  }

  async embedDocuments(texts: string[]): Promise<number[][]> {
    return this.#vectors(texts, "document");
  }

  // `#`: not a member a caller can reach by mistake (CohereEmbeddings has a public `embed(request)` of its own)
  async #vectors(texts: readonly string[], inputType: EmbeddingInputType): Promise<number[][]> {
    if (texts.length === 0) return [];
    const identity = embeddingsIdentity(this.underlyingEmbeddings);

    // Dedupe first: one lookup per distinct request. Looking one hash up twice at once would
    // make the second lookup wait on the first's recording, which this very call owns.
    const entries: Entry[] = [];
    const byText = new Map<string, Entry>();
    const slots = texts.map((text) => {
      const request = embeddingRequest(identity, inputType, text, this.normalize);
      let entry = byText.get(request.text);
      if (!entry) {
        entry = { text, request, describe: describeEmbedding(identity, request) };
        byText.set(request.text, entry);
        entries.push(entry);
      }
      return entry;
    });

    await this.lookupAll(entries);
    const missing = entries.filter((e) => !e.lookup?.fixture);
    if (missing.length > 0) await this.embedLive(missing, inputType);

    // Vectors of more than one length fail the call, after the live answers were written, not
    // before: each is the live model's true answer for its own key (the fixtures at fault are the
    // older ones, which the error names), and a call waiting on the same text gets it. Without a
    // runner plugin it stays, so the fix (delete the older ones, run again) costs no second request,
    // and a later run, replay_only included, fails with this same message, not a miss whose fix
    // (record it) would bring the mix back; a plugin removes it with the failed test's other
    // recordings, and the run after the fix records it again. Under bypass (nothing read, nothing
    // written) the live answer passes as it came.
    const method = inputType === "query" ? "embedQuery" : "embedDocuments";
    const facts = { method, describe: describeEmbeddings(identity), model: identity.model, className: identity.className };
    const length = oneLength(entries);
    const vectors = length === undefined ? entries.flatMap((e) => vectorAt(e)) : [];
    const mixed = vectors.some((v) => v.recordedAt !== undefined) ? mixedLengths(vectors) : undefined;
    if (mixed) throw mixedLengthsError(mixed, facts);
    // one length: the same as this process's first call with this model and parameters (a query's, say, against the documents')
    // not for a class whose model langchain-vcr does not read (LlamaCppEmbeddings' modelPath, a custom class's own field): two of its models would share the key
    const lookedUp = length !== undefined && length >= 0 && identity.model !== undefined && entries[0].lookup ? entries[0].lookup : undefined; // none under bypass
    const key = lookedUp && `${path.dirname(lookedUp.file)}\0${paramsKey(entries[0].request)}`; // one fixture directory's: another's may be another test's
    const across = key && againstFirstCall(key, method, length!, () => entries.flatMap((e) => vectorAt(e)), vectorOnDisk);
    if (across) throw mixedLengthsError(across.groups, { ...facts, earlier: across.earlier });

    // Every position gets its own array, even duplicates (callers may mutate what they get).
    const seen = new Set<Entry>();
    return slots.map((entry) => {
      const v = entry.vector as Vector;
      const out = seen.has(entry) && typeof v !== "string" ? v.slice() : v;
      seen.add(entry);
      return out as number[];
    });
  }

  /**
   * Looks every entry up at once. All lookups start in the same synchronous turn, so a call
   * claims all its misses together and the recorder's in-flight sharing cannot deadlock two
   * calls that overlap. If any lookup fails (a `replay_only` miss, a damaged fixture), the
   * misses this call claimed are released and the first failure, in input order, is thrown.
   */
  private async lookupAll(entries: Entry[]): Promise<void> {
    const secrets = () => clientSecrets(this.underlyingEmbeddings as unknown as Record<string, unknown>);
    const results = await Promise.allSettled(entries.map((e) => this.recorder.lookup("embedding", e.request, { describe: e.describe, secrets })));
    try {
      results.forEach((r, i) => {
        if (r.status === "rejected") throw withOtherMisses(r.reason, entries, results);
        entries[i].lookup = r.value;
        if (r.value.fixture) {
          assertReplayable(r.value);
          entries[i].vector = replayVector(r.value.fixture);
        }
      });
    } catch (e) {
      for (const r of results) if (r.status === "fulfilled") this.recorder.abandon(r.value);
      throw e;
    }
  }

  /** One live request for the missing texts, in order; then one fixture per text (per the mode). */
  private async embedLive(missing: Entry[], inputType: EmbeddingInputType): Promise<void> {
    const inner = this.underlyingEmbeddings;
    let vectors: unknown[];
    let responses: ReturnType<typeof recordableResponse>[];
    try {
      vectors =
        inputType === "query"
          ? [await liveEmbed<number[]>(inner, "embedQuery", missing[0].text)]
          : await liveEmbed<number[][]>(
              inner,
              "embedDocuments",
              missing.map((e) => e.text),
            );
      if (!Array.isArray(vectors) || vectors.length !== missing.length) {
        throw new VcrRecordError(
          `${describeEmbeddings(embeddingsIdentity(inner))} returned ` +
            `${Array.isArray(vectors) ? vectors.length : "no"} vectors for ${missing.length} texts; nothing can be recorded.\n` +
            `  Nothing was written and the call failed. The wrapped Embeddings must return one vector per text, in order.`,
        );
      }
      responses = missing.map((e, i) => recordableResponse(vectors[i], e.text, e.describe, e.request));
    } catch (e) {
      // a miss that went live says so on the provider's error (once for the call: the first text's)
      missing.forEach((entry, i) => this.recorder.liveFailed(entry.lookup as Lookup, e, { note: i === 0 }));
      throw e;
    }
    const secrets = await callSecrets(inner as unknown as Record<string, unknown>);
    let firstError: unknown;
    missing.forEach((entry, i) => {
      entry.vector = vectors[i] as Vector; // the caller gets what the model returned; the fixture holds a copy
      try {
        entry.recordedAt = this.recorder.record(entry.lookup as Lookup, { vector: responses[i].vector }, secrets)?.recordedAt;
      } catch (e) {
        firstError ??= e; // record() released this lookup; keep recording (or releasing) the rest
      }
    });
    if (firstError !== undefined) throw firstError;
  }
}

/** The length of the vector fixture `file` holds now, and when it was recorded; undefined when it is gone or holds none. */
function vectorOnDisk(file: string): { length: number; recordedAt?: string } | undefined {
  const fixture = readFixtureFile(file).fixture;
  const vector = (fixture?.response as { vector?: unknown } | undefined)?.vector;
  return Array.isArray(vector) ? { length: vector.length, recordedAt: fixture?.recordedAt } : undefined;
}

/** The one length of the entries' number vectors (-1: none is a number vector); undefined when they have several. Nothing is built to tell (the replay path). */
function oneLength(entries: readonly Entry[]): number | undefined {
  let length = -1;
  for (const e of entries) {
    if (!Array.isArray(e.vector)) continue;
    if (length === -1) length = e.vector.length;
    else if (e.vector.length !== length) return undefined;
  }
  return length;
}

/** Where an entry's vector came from, for the one-length check (none for a base64 string: it has no length to compare). */
function vectorAt(e: Entry): VectorAt[] {
  if (!Array.isArray(e.vector) || !e.lookup) return [];
  const replayed = e.lookup.fixture;
  return [{ file: e.lookup.file, length: e.vector.length, recordedAt: replayed ? replayed.recordedAt : e.recordedAt, live: !replayed }];
}

/** How many other texts' misses a batch's miss quotes. */
const OTHER_MISSES_SHOWN = 3;

/**
 * The first miss of a batch (the one thrown), told how many other texts of the call missed too
 * and which: a changed document of a vector store's 300 shows as one, and a second one with it
 * would otherwise look like the next run's surprise.
 */
function withOtherMisses(error: unknown, entries: readonly Entry[], results: readonly PromiseSettledResult<unknown>[]): unknown {
  if (!(error instanceof VcrMissError)) return error;
  const others = results.flatMap((r) => (r.status === "rejected" && r.reason !== error && r.reason instanceof VcrMissError ? [r.reason] : []));
  if (others.length === 0) return error;
  // each as its own miss shows it: redacted, secrets masked
  const quoted = others.slice(0, OTHER_MISSES_SHOWN).map((e) => {
    const text = (e.request as { text?: unknown } | undefined)?.text;
    return typeof text === "string" ? JSON.stringify(text.length > 60 ? text.slice(0, 60) + "…" : text) : "(not shown)";
  });
  const more = others.length > OTHER_MISSES_SHOWN ? `, and ${others.length - OTHER_MISSES_SHOWN} more` : "";
  error.message += `\n  ${others.length} other text(s) of this call (${entries.length} distinct) have no fixture either: ${quoted.join(", ")}${more}.`;
  return error;
}
