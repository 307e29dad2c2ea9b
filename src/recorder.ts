/**
 * The one place that decides, for one request, between replay, record and miss, and the one
 * place that writes fixtures (redactors, secret scan, size warning, per-test bookkeeping).
 * Every adapter (chat, streaming, embeddings, tools) goes through it.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { requestHash } from "./canonical/json";
import { otherFormRequest } from "./adapters/chat/answeredBy";
import { rebuild, RequestHashes, type RequestParts } from "./canonical/hashMemo";
import { NearestIndex } from "./diagnose/nearest";
import { KINDS } from "./kinds";
import { httpStatus } from "./diagnose/httpStatus";
import { recordingElsewhere } from "./diagnose/recordingElsewhere";
import { failedLiveMessage, firstDifference, misnamedRecordedMessage, missReport, recordedNearMessage } from "./diagnose/messages";
import { missedTest, type MissedTest } from "./diagnose/rerecordCommand";
import { appendNote, type PrintedError } from "./diagnose/appendNote";
import { isVcrError, PREFIX, VcrMissError } from "./errors";
import { log } from "./log";
import { warnStaleInstall } from "./diagnose/staleInstall";
import { MODE_POLICY, resolveMode, resolveToolMode, type ModePolicy, type VcrMode, type VcrToolMode } from "./modes";
import { applyRedactors, redactedRequest, redactionSplitAcross, splitRedactionError, type Redactor } from "./redact";
import { currentRunner, currentTest, emit, keepPassableError, type Scope } from "./scope";
import { createdIn, usedIn } from "./runner/sharedRecordings";
import { findSecret, maskSecrets, secretError, type SecretHit } from "./secrets";
import { envSecrets } from "./clientSecrets";
import { SCHEMA_VERSION, type Fixture, type FixtureKind } from "./store/fixture";
import { FixtureStore } from "./store/store";
import { warnCountedToolName } from "./diagnose/countedToolName";
import { MODEL_KINDS } from "./store/format";
import { asksSameQuestion } from "./kinds/model";
import { processWide } from "./processWide";
import { countModelCall } from "./adapters/tools/innerCalls";
import { seeModelBranch } from "./adapters/tools/branches";
import { unlessAborted } from "./abort";
import { answered, noteUnanswered } from "./runner/caughtMisses";
import { realNowIso } from "./clock";
import { recordedThisRun, runStartedAt } from "./runner/runStart";
import { noteToolRecorded } from "./runner/toolsFromOthers";

/** The errors a failed-live note was joined to, by request hash: a call that fails through two layers (or two builds) is noted once. */
const noted = processWide("recorder.notedErrors.v1", () => new WeakMap<object, Set<string>>());

function notedAlready(error: unknown, hash: string): boolean {
  if (typeof error !== "object" || error === null) return false;
  let hashes = noted.get(error);
  if (!hashes) noted.set(error, (hashes = new Set()));
  if (hashes.has(hash)) return true;
  hashes.add(hash);
  return false;
}

/**
 * A model request that misses because it carries a langchain-vcr error a call of this test threw,
 * passed on as text: a tool call's (createAgent's ToolNode makes every tool error an error
 * ToolMessage for the model), or a model call's miss that the code around it caught and wrote
 * into the conversation (summarizationMiddleware's "Error generating summary: …"). That error
 * is thrown, with a note, instead of a miss whose difference is the error's text, or a live call
 * that would record it in a fixture.
 */
function raisePassedOnError(base: Pick<Lookup, "kind" | "request">): void {
  const errors = currentTest()?.toolErrors;
  if (!errors?.length) return;
  const text = JSON.stringify(base.request);
  // the whole message (its hash, its arguments): the first line of a miss is the same for every call of a tool; the newest first
  let at = errors.length - 1;
  while (at >= 0 && !text.includes(JSON.stringify(errors[at].message).slice(1, -1))) at--;
  if (at < 0) return;
  const [carried] = errors.splice(at, 1); // thrown once: a later request that carries it again is looked up as usual
  appendNote(
    carried,
    modelMisses.has(carried)
      ? `${PREFIX}the code that made this model call caught its miss and passed its text on (createAgent's summarizationMiddleware writes "Error generating summary: …" into the conversation; ToolNode makes a tool's error a message), ` +
          `and the next ${base.kind} request, which carries it, was stopped here rather than sent or looked up with it. Record the missing call above.`
      : `${PREFIX}a tool call of this test threw this error, and its caller passed it on to the model as a message (LangGraph's ToolNode, which createAgent uses, turns every tool error into an error ToolMessage); ` +
          `the next ${base.kind} request, which carries it, was stopped here rather than sent or looked up with it. Fix the tool call's error above.`,
  );
  throw carried;
}

/** Model misses kept for `raisePassedOnError` (they sit in the test's `toolErrors` with the tools'); one set for every copy of langchain-vcr in the process. */
const modelMisses = processWide("recorder.modelMisses.v1", () => new WeakSet<Error>());

/** Keeps a model call's miss for the test's next model request, which may carry its text (`raisePassedOnError`). */
function keepModelMiss(kind: string, e: Error): Error {
  const test = currentTest();
  if (!test || !MODEL_KINDS.has(kind)) return e;
  modelMisses.add(e);
  keepPassableError(test, e); // a model's miss, not an embedding's, is what a caller passes on as text
  return e;
}

/** What a miss shows for a request the redactors could not be run over. */
const NOT_SHOWN = "(not shown: a redactor (options.redactors) threw on this request without a response)";

function describeOf(options: LookupOptions, request: unknown): string {
  return typeof options.describe === "function" ? options.describe(request) : options.describe;
}

/** Whether `file` was written after this process's run started (its mtime): by this run, not an older fixture. */
function writtenThisRun(file: string): boolean {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  return stat !== undefined && stat.mtimeMs >= runStartedAt();
}

/**
 * Whether `fixture` (in `file`) was recorded by this run (its `recordedAt`, not its file's time: a failed test's clean-up
 * writes the bytes it replaced back, which a retry records again), in a test other than the running one. Outside a test
 * (no runner plugin, a script): never.
 */
function recordedByAnotherTest(file: string, fixture: Fixture): boolean {
  const test = currentTest();
  if (!test || test.created.has(file) || test.overwritten.has(file)) return false;
  return recordedThisRun(fixture.recordedAt);
}

/** Directories with more entries than this get no near-miss note on recording (a miss error still searches). */
const NEAR_MISS_SCAN_LIMIT = 2000;

export interface VcrStats {
  replayed: number;
  recorded: number;
  bypassed: number;
  missed: number;
}

export interface RecorderConfig {
  dir: string;
  /** The working directory a relative `dir` was resolved against; undefined for an absolute one. */
  relativeTo?: string;
  mode?: VcrMode;
  toolMode?: VcrToolMode;
  redactors: readonly Redactor[];
  sizeWarningBytes: number;
  allowSecretPatterns: ReadonlySet<string>;
}

/** The outcome of looking one request up. `fixture` is set on a hit. */
export interface Lookup {
  readonly kind: FixtureKind;
  readonly hash: string;
  readonly file: string;
  readonly request: unknown;
  readonly mode: VcrMode;
  readonly policy: ModePolicy;
  readonly fixture?: Fixture;
  /** Set while this lookup owns an in-flight recording that others wait on. */
  settle?: (fixture: Fixture | undefined) => void;
  /** The test whose live call this lookup is, while it has not answered (named if the test fails or times out). */
  liveIn?: Scope;
  /** The test that made the live call, kept after it is released: an answer that comes after that test ended is not recorded. */
  madeIn?: Scope;
  /** Set on a miss that went to the provider to be recorded (`record_or_replay`), for `liveFailed`'s note (made only if it fails). */
  missedLive?: { describe: () => string; test?: Scope };
}

export interface LookupOptions {
  /** Describes the caller for messages, e.g. `chat model "gpt-4o-mini"`. */
  describe: string | ((request: unknown) => string);
  /** Skip the fixture read (tool `execute` mode): the live call always runs; writes follow the mode. */
  live?: boolean;
  /**
   * Who asks (e.g. one `generate()` call). A request already in flight for the same owner is
   * not waited on — the owner would wait on itself — but recorded again by it.
   */
  owner?: object;
  /**
   * The caller copies what it hands out of the response and changes none of it: a fixture the
   * store keeps is then handed over as it is kept, not copied first (`isSharedFixture` tells).
   */
  borrow?: boolean;
  /**
   * The literal credentials the client holds (`clientSecrets`), asked only on a miss that may
   * record: a request that holds one is refused before it is sent, as one holding a credential
   * shape or an environment variable's value is.
   */
  secrets?: () => readonly string[];
  /**
   * The request the call is keyed by instead, when the fixture found for its request answers
   * another form of the call (a ChatOpenAI fixture of the other OpenAI API:
   * adapters/chat/openaiApi.ts), or undefined: that fixture answers it. The found fixture is left
   * as it is; the call is looked up, missed or recorded under the other request's own key.
   */
  alternate?: (fixture: Fixture, request: () => unknown) => unknown;
  /**
   * On a miss, the same request in its other forms, most likely first: as a client spells it
   * otherwise (canonical/spellings.ts), as an earlier langchain-vcr made it canonical
   * (canonical/legacyBinary.ts). A fixture found under one is replayed. The call records under
   * its own request.
   */
  alike?: (request: () => unknown) => readonly unknown[];
  /**
   * The caller's signal: a call waiting on the same request in flight fails with its reason on
   * an abort, as its own live call would, rather than answering when that call does.
   */
  signal?: AbortSignal;
}

/**
 * The lookup of a replay. Its request is built only if it is read: nothing on a hit reads it,
 * and building it is most of what a remembered request saves (`canonical/hashMemo.ts`). A
 * class, not an object literal with a getter, which V8 builds through its runtime on every hit.
 * `request` is a getter on the prototype: a spread or JSON of a Replay leaves it out.
 */
class Replay implements Lookup {
  private built?: { value: unknown };
  constructor(
    readonly kind: FixtureKind,
    readonly hash: string,
    readonly file: string,
    readonly mode: VcrMode,
    readonly policy: ModePolicy,
    readonly fixture: Fixture,
    private readonly requestOf: () => unknown,
  ) {}

  get request(): unknown {
    return (this.built ??= { value: this.requestOf() }).value;
  }
}

interface InFlight {
  promise: Promise<Fixture | undefined>;
  owner?: object;
}

/** How many requests' other spellings a recorder keeps (`findAlike`) before it starts again. */
const MAX_ALIKE = 1000;

/** The keys a chat call may pass through to its own (`redirect`): one per form a key can add, the OpenAI API and the provider. */
const MAX_REDIRECTS = 2;

export class Recorder {
  readonly store: FixtureStore;
  readonly stats: VcrStats = { replayed: 0, recorded: 0, bypassed: 0, missed: 0 };
  private readonly inflight = new Map<string, InFlight>();
  /** A request's hash → the other spelling a fixture was found under (`findAlike`). */
  private readonly alikeOf = new Map<string, { hash: string; request: unknown }>();
  private readonly warnedSize = new Set<string>();
  private readonly nearest: NearestIndex;
  /** @internal hashes found again for requests asked before (read by tests). */
  readonly hashes = new RequestHashes();

  constructor(readonly config: RecorderConfig) {
    this.store = new FixtureStore(config.dir);
    this.nearest = new NearestIndex(config.dir);
  }

  /** Whether a request of this run replayed or recorded `file`, for the nearest fixture's choice. */
  private readonly usedThisRun = (file: string): boolean => this.store.metInProcess(file);

  mode(): VcrMode {
    return resolveMode(this.config.mode);
  }

  toolMode(): VcrToolMode {
    return resolveToolMode(this.config.toolMode);
  }

  /**
   * Looks a request up under the mode in force. A hit returns the fixture; a miss under
   * `replay_only` throws `VcrMissError`; any other miss returns a lookup to `record` (or
   * `abandon`). Concurrent identical misses share one live call.
   */
  async lookup(kind: FixtureKind, request: unknown, options: LookupOptions): Promise<Lookup> {
    return this.find(kind, request, options);
  }

  /**
   * `lookup`, answered synchronously on a hit: a replay takes no microtask turn here (the chat
   * cache's hot path). A miss that may record is a promise; a `replay_only` miss or a damaged
   * fixture throws.
   */
  find(kind: FixtureKind, request: unknown, options: LookupOptions): Lookup | Promise<Lookup> {
    return this.resolve(kind, requestHash(kind, request), () => request, options, request);
  }

  /**
   * `find` for a request given by its parts (the chat cache): a request whose parts were seen
   * before gets its remembered hash, and is built only if someone asks for it (a miss, a
   * message); on a hit it is never built (`canonical/hashMemo.ts`).
   */
  findParts<P>(kind: FixtureKind, source: RequestParts<P>, options: LookupOptions): Lookup | Promise<Lookup> {
    const known = this.hashes.find(kind, source);
    if (known) return this.resolve(kind, known.hash, () => rebuild(source, known), options);
    const { hash, request } = this.hashes.compute(kind, source);
    return this.resolve(kind, hash, () => request, options, request);
  }

  /**
   * A hit for `request`, or undefined when it has no fixture: a lookup that may only replay
   * (nothing is counted or claimed on a miss, and `replay_only` does not throw). A mode that
   * does not read fixtures, or a `live` lookup, finds nothing. For a second key a call may have
   * been recorded under (a LangGraph resumed tool call, adapters/tools/interrupts.ts).
   */
  findRecorded(kind: FixtureKind, request: unknown, options: LookupOptions): Lookup | undefined {
    return this.findAt(kind, requestHash(kind, request), request, options);
  }

  /** `findRecorded` of a request whose hash is at hand. */
  private findAt(kind: FixtureKind, hash: string, request: unknown, options: LookupOptions): Lookup | undefined {
    const mode = this.mode();
    const policy = MODE_POLICY[mode];
    if (!policy.readsFixtures || options.live) return undefined;
    const fixture = this.store.read(hash, { kind, request }, options);
    return fixture && this.replayed(new Replay(kind, hash, this.store.fileFor(hash), mode, policy, fixture, () => request));
  }

  /**
   * The fixture of the same request in another form (`options.alike`), for a lookup that found
   * none under its own `hash`. A form found is kept by that hash (bounded), so the next replay of
   * the call neither builds nor hashes it again.
   */
  private findAlike(kind: FixtureKind, hash: string, request: () => unknown, options: LookupOptions): Lookup | undefined {
    if (!options.alike) return undefined;
    const known = this.alikeOf.get(hash);
    const others = known ? [known] : options.alike(request).map((r) => ({ hash: requestHash(kind, r), request: r }));
    for (const other of others) {
      const found = this.findAt(kind, other.hash, other.request, options);
      if (!found) continue;
      if (!known) {
        if (this.alikeOf.size >= MAX_ALIKE) this.alikeOf.clear();
        this.alikeOf.set(hash, other);
      }
      log.debug(`${kind}: ${found.file} replayed for ${this.store.fileFor(hash)}: the same request in another form`);
      return found;
    }
    return undefined;
  }

  /** `hashed`: the request `hash` was just computed from, when at hand (a read of the file compares it instead of hashing the file's). */
  private resolve(kind: FixtureKind, hash: string, request: () => unknown, options: LookupOptions, hashed?: unknown, redirects = 0): Lookup | Promise<Lookup> {
    const mode = this.mode();
    const policy = MODE_POLICY[mode];
    const file = this.store.fileFor(hash);
    if (redirects === 0) {
      if (kind !== "tool") countModelCall(kind === "embedding"); // for a tool body being recorded around it (adapters/tools/innerCalls.ts)
      if (MODEL_KINDS.has(kind)) seeModelBranch(); // the LangGraph branch it runs in is active (adapters/tools/branches.ts)
    }
    if (policy.readsFixtures && !options.live) {
      const fixture = this.store.read(hash, hashed === undefined ? undefined : { kind, request: hashed }, options);
      const alternate = fixture && options.alternate?.(fixture, request);
      if (alternate !== undefined) return this.redirect(kind, hash, file, alternate, options, redirects);
      if (fixture) return this.replayed(new Replay(kind, hash, file, mode, policy, fixture, request));
      const alike = this.findAlike(kind, hash, request, options);
      if (alike) return alike;
    } else if (policy.writes === "always" && !options.live) {
      const existing = this.store.peek(hash);
      // about to overwrite: another form's answer (the other OpenAI API's, another provider's) keeps its file, and this call records beside it
      const alternate = existing && options.alternate?.(existing, request);
      if (alternate !== undefined) return this.redirect(kind, hash, file, alternate, options, redirects);
      // recorded by another test of this run (an earlier one, one in another test process): replayed, so the run's fixtures
      // agree with each other (trial 49: each test re-ran a shared tool call and overwrote its fixture, which the chat
      // fixtures the tests before had recorded after it no longer matched, and CI missed). The test's own are recorded again.
      if (existing && recordedByAnotherTest(file, existing)) return this.replayed(new Replay(kind, hash, file, mode, policy, existing, request));
    }
    const base = { kind, hash, file, request: request(), mode, policy };
    if (kind !== "tool" && (policy.readsFixtures || policy.writes !== "never")) raisePassedOnError(base);
    if (policy.writes !== "never") {
      this.stopRecordingElsewhere(base, options);
      this.refuseSecretBeforeCall(base, options);
      this.store.assertWritable(); // a call whose answer could not be written is not paid for (or a tool body run) first
    }
    if (!policy.readsFixtures || options.live) {
      // the run still relies on a recorded file it did not read (prune must keep it)
      if (fs.existsSync(file)) emit({ type: "used", hash, file });
      return this.live(base, options);
    }
    if (policy.onMiss === "fail") {
      const miss = this.miss(base, describeOf(options, base.request), options.secrets);
      throw keepModelMiss(kind, miss);
    }
    return this.missed(base, options);
  }

  /**
   * A request that would be recorded and holds a secret-looking value is refused before it is
   * sent (a tool's, before its body runs): its fixture would be refused once the call answered,
   * so the call would be paid for (or its side effects had) on every run and never recorded. A
   * stream dropped early, or a tool call that would not be recorded, is refused too: the request
   * is what is refused. With redactors set, what they leave of the request alone is scanned: a redactor set for another
   * value (an email) no longer lets a pasted key reach the provider on every run (trial 57 M2); one that cannot take a
   * request alone (it throws) leaves the check to `record`, after the call. The client's own key is known here when the
   * caller passes `secrets`; what an AWS client signs with is resolved by the call, and known only to `record`.
   */
  private refuseSecretBeforeCall(base: Pick<Lookup, "kind" | "request" | "file" | "hash">, options: LookupOptions): void {
    const leak = this.secretInRequest(base, options.secrets);
    const redacting = this.config.redactors.length > 0;
    if (leak) throw this.refused(base, secretError(leak, base.file, base.kind === "tool" ? "before the tool ran" : "before the call", redacting));
  }

  /**
   * What looks like a secret in what the redactors leave of `base`'s request (`secrets`: the client's own credentials), so
   * its fixture would be refused; undefined when nothing does, or when a redactor cannot take a request alone.
   */
  private secretInRequest(base: Pick<Lookup, "kind" | "request" | "hash">, secrets?: () => readonly string[]): SecretHit | undefined {
    const left = redactedRequest(base.kind, base.hash, base.request, this.config.redactors);
    if (!left) return undefined;
    const known = secrets ? [...secrets(), ...envSecrets()] : envSecrets();
    return findSecret({ request: left.request }, known, this.config.allowSecretPatterns);
  }

  /**
   * A request about to be recorded into a relative dir resolved inside a package whose own directory of that name holds
   * this very fixture (`recordingElsewhere`): not made, counted as a miss, named at its test's end when its error is
   * caught, and kept for a next model request that carries its text, as a miss is.
   */
  private stopRecordingElsewhere(base: Omit<Lookup, "fixture">, options: LookupOptions): void {
    if (this.config.relativeTo === undefined) return;
    const test = currentTest();
    const describe = () => describeOf(options, base.request); // on every recording: described only when stopped
    const stop = recordingElsewhere(this.config.relativeTo, this.store.dir, base.file, () => `${base.kind} request from ${describe()}`, test?.title);
    if (!stop) return;
    this.count("missed", base.kind, base.mode, { hash: base.hash, dir: this.store.dir });
    noteUnanswered(test, { kind: base.kind, describe: describe(), file: base.file, mode: base.mode, how: "stopped" });
    throw keepModelMiss(base.kind, stop);
  }

  /** Whether the last nearest search's fixture differs only inside what the redactors mask (`NearestIndex.masked`, with redactors set). */
  private maskedNearest(): boolean {
    return this.nearest.masked && this.config.redactors.length > 0;
  }

  /** `error`, counted for the summary: a request whose fixture could not be written without a secret (nothing was). */
  private refused(lookup: Pick<Lookup, "kind"> & { mode?: VcrMode }, error: Error): Error {
    emit({ type: "refused", kind: lookup.kind, mode: lookup.mode ?? this.mode() });
    return error;
  }

  /** A miss that may record: wait on the same request in flight, or own the live call. */
  private async missed(base: Omit<Lookup, "fixture">, options: LookupOptions): Promise<Lookup> {
    const hash = base.hash;
    for (;;) {
      const pending = this.inflight.get(hash);
      if (!pending) break;
      if (options.owner !== undefined && pending.owner === options.owner) return base;
      const shared = await unlessAborted(pending.promise, options.signal);
      // each waiter gets its own copy: adapters hand the parsed objects to the caller as they are
      if (shared) return this.hit(base, structuredClone(shared));
      // that live call failed: another process may have recorded the request meanwhile
      const fixture = this.store.read(hash);
      if (fixture) return this.hit(base, fixture);
    }
    let settle!: (f: Fixture | undefined) => void;
    const entry: InFlight = { promise: new Promise<Fixture | undefined>((resolve) => (settle = resolve)), owner: options.owner };
    this.inflight.set(hash, entry);
    return {
      ...this.live(base, options),
      missedLive: { describe: () => describeOf(options, base.request), test: currentTest() },
      settle: (f) => {
        if (this.inflight.get(hash) === entry) this.inflight.delete(hash);
        settle(f);
      },
    };
  }

  /** The live call failed or was abandoned: write nothing, release any waiters. */
  abandon(lookup: Lookup): void {
    this.release(lookup);
    lookup.liveIn?.live.delete(lookup.hash);
    lookup.liveIn = undefined;
  }

  /**
   * Lets lookups waiting on this one's live call go (each then calls the provider itself), while the
   * test that made it still knows it is in flight: `record`, `liveFailed` or `abandon` ends that.
   */
  release(lookup: Lookup): void {
    lookup.settle?.(undefined);
    lookup.settle = undefined;
  }

  /** A lookup that goes to the provider: the running test knows it is in flight until it answers. */
  private live(base: Omit<Lookup, "fixture">, options: LookupOptions): Lookup {
    const test = currentTest();
    if (!test) return base;
    test.live.set(base.hash, { describe: describeOf(options, base.request), kind: base.kind, hash: base.hash, file: base.file });
    return { ...base, liveIn: test, madeIn: test };
  }

  /**
   * The live call answered: write its fixture if the mode writes. `secrets` are literal
   * values (the client's API key) that must never reach disk.
   */
  record(lookup: Lookup, response: unknown, secrets: readonly string[] = []): Fixture | undefined {
    try {
      if (lookup.policy.writes === "never") {
        this.count("bypassed", lookup.kind, lookup.mode);
        return undefined;
      }
      if (lookup.madeIn?.ended) {
        // the test timed out (usually) and was told "nothing was recorded for it" (runner/lifecycle.ts):
        // a failed test keeps no recording, and under record_always replaces no committed fixture
        this.count("bypassed", lookup.kind, lookup.mode);
        log.debug("%s request %s answered after its test ended; not recorded", lookup.kind, lookup.hash);
        return undefined;
      }
      const unusable = KINDS[lookup.kind].responseProblem(response, lookup.request);
      if (unusable !== undefined) {
        this.unusableAnswer(lookup, unusable);
        return undefined;
      }
      const fixture: Fixture = {
        schemaVersion: SCHEMA_VERSION,
        kind: lookup.kind,
        hash: lookup.hash,
        recordedAt: realNowIso(), // not a test's fake clock
        request: lookup.request,
        response,
      };
      const onDisk = applyRedactors(fixture, this.config.redactors);
      const split = redactionSplitAcross(onDisk, this.config.redactors);
      if (split) throw this.refused(lookup, splitRedactionError(split, lookup.file));
      const leak = findSecret(onDisk, [...secrets, ...envSecrets()], this.config.allowSecretPatterns);
      if (leak) throw this.refused(lookup, secretError(leak, lookup.file, "after the call", this.config.redactors.length > 0));
      const overwrite = lookup.policy.writes === "always";
      const result = this.store.write(onDisk, overwrite);
      if (!result.created && !overwrite) {
        // another test or process wrote this fixture after our lookup: we wrote nothing, so
        // nothing is reported as recorded; the call went live unrecorded, and the file is
        // still the one this request uses (prune must keep it). Waiters (released by the
        // `finally`) read that file, as every later lookup will.
        this.count("bypassed", lookup.kind, lookup.mode);
        emit({ type: "used", hash: lookup.hash, file: lookup.file });
        usedIn(lookup.file, currentTest);
        answered(() => lookup.madeIn ?? currentTest(), lookup.file);
        log.debug("%s fixture %s was written by someone else first; kept theirs", lookup.kind, result.file);
        return fixture;
      }
      const test = currentTest();
      if (test) test.tally.recorded++;
      if (test && result.created) {
        test.created.add(result.file);
        createdIn(result.file);
      } else if (test && result.previous && !test.overwritten.has(result.file) && !test.created.has(result.file)) {
        test.overwritten.set(result.file, result.previous);
        usedIn(result.file, currentTest); // written again over what a test beside it recorded: its clean-up must not delete this one's
      }
      this.warnSize(result.file, result.bytes);
      warnStaleInstall(result.file);
      this.count("recorded", lookup.kind, lookup.mode);
      if (lookup.kind === "tool") noteToolRecorded(result.file, test); // a failed test that replays it is told who recorded it
      if (lookup.kind === "chat" || lookup.kind === "chat_stream") warnCountedToolName(lookup.request, test?.title);
      emit({ type: "used", hash: lookup.hash, file: lookup.file });
      answered(() => lookup.madeIn ?? test, lookup.file); // a retry of a call that failed live: its miss was answered after all
      log.debug("recorded %s fixture %s (%d bytes)", lookup.kind, result.file, result.bytes);
      // a changed prompt is worth a note (record_always: a new file, not one recorded again); a new embedding text or tool argument is routine
      const fresh = lookup.mode === "record_or_replay" || (lookup.mode === "record_always" && result.created);
      if (fresh && KINDS[lookup.kind].noteNearMiss) this.reportNearMiss(lookup);
      lookup.settle?.(fixture);
      lookup.settle = undefined;
      return fixture;
    } finally {
      this.abandon(lookup);
    }
  }

  /**
   * The provider answered with what replay would refuse by the kind's own rule (a chat answer with
   * no generations: an error body sent with status 200, `choices: []`): nothing is written, since
   * the file would fail every later lookup, in every mode, until deleted. The caller gets the answer
   * as it came; the run counts a request that failed live, and a test that goes on without it is
   * told so at its end.
   */
  private unusableAnswer(lookup: Lookup, problem: string): void {
    const test = lookup.madeIn ?? currentTest();
    const describe = lookup.missedLive?.describe() ?? `a ${lookup.kind} call`;
    emit({ type: "failedLive", kind: lookup.kind, mode: lookup.mode });
    noteUnanswered(test, { kind: lookup.kind, describe, file: lookup.file, mode: lookup.mode, how: "failedLive" });
    const kept = lookup.policy.writes === "always" && fs.existsSync(lookup.file) ? "; the one there was left as it was" : "";
    log.warn(
      `the provider's answer to the ${lookup.kind} request from ${describe} was not recorded: replay could not use it, since it ${problem}.\n` +
        `  fixture:  ${lookup.file} (not written${kept})\n` +
        (test?.title !== undefined ? `  test:     ${test.title}\n` : "") +
        `  The answer reached the caller as it came. A provider or a proxy that sends an error body with status 200, or an empty answer, does this.\n` +
        `  Fix: nothing to mend among the fixtures; run the test again once the provider answers normally.\n`,
    );
  }

  /**
   * The live call of a lookup failed: release it. For a miss that went live to be recorded
   * (`record_or_replay`), say so on the provider's error, which alone ("Missing credentials",
   * ECONNREFUSED) never tells that no fixture matched, or which one was nearest; and count it
   * for the run's summary. The note goes on stderr when the error cannot carry it. `note: false`:
   * counted only (the other requests of one call, whose note would repeat the first's).
   * langchain-vcr's own errors (a damaged fixture met in the same call, a wrong number of
   * vectors from a provider that answered) are neither noted nor counted: they say what happened,
   * and no live call may have failed.
   */
  liveFailed(lookup: Lookup, error: unknown, { note: withNote = true }: { note?: boolean } = {}): void {
    this.abandon(lookup);
    const missed = lookup.missedLive;
    lookup.missedLive = undefined;
    if (!missed || isVcrError(error)) return;
    emit({ type: "failedLive", kind: lookup.kind, mode: lookup.mode });
    noteUnanswered(missed.test, { kind: lookup.kind, describe: missed.describe(), file: lookup.file, mode: lookup.mode, how: "failedLive" });
    if (!withNote || notedAlready(error, lookup.hash)) return;
    try {
      const searched = KINDS[lookup.kind].noteNearMiss;
      const shown = this.shown(lookup);
      const nearest = searched && shown ? this.nearest.find(lookup.kind, shown.request, lookup.hash, NEAR_MISS_SCAN_LIMIT, this.usedThisRun) : undefined;
      const test = missed.test;
      const note =
        PREFIX +
        failedLiveMessage({
          ...lookup,
          describe: missed.describe(),
          nearest,
          searched,
          test: test?.title,
          runner: currentRunner(),
          filterTitle: test?.filterTitle,
          specFile: test?.specFile,
          status: httpStatus(error),
          masked: nearest !== undefined && this.maskedNearest(),
        });
      if (!appendNote(error as PrintedError, note)) log.warn(note);
    } catch {
      // a note that cannot be made leaves the provider's error as it is
    }
  }

  private hit(base: Omit<Lookup, "fixture">, fixture: Fixture): Lookup {
    return this.replayed(new Replay(base.kind, base.hash, base.file, base.mode, base.policy, fixture, () => base.request));
  }

  private replayed(lookup: Replay): Lookup {
    this.count("replayed", lookup.kind, lookup.mode);
    emit({ type: "used", hash: lookup.hash, file: lookup.file });
    usedIn(lookup.file, currentTest);
    answered(currentTest, lookup.file);
    return lookup;
  }

  /** `secrets`: the literal credentials the client holds (`LookupOptions.secrets`), masked in what the message prints. */
  private miss(base: Omit<Lookup, "fixture">, describe: string, secrets?: () => readonly string[]): VcrMissError {
    noteUnanswered(currentTest(), { kind: base.kind, describe, file: base.file, mode: base.mode, how: "missed" });
    const shown = this.shown(base, secrets);
    const request = shown ? shown.request : NOT_SHOWN;
    // this very request's fixture of the other OpenAI API or provider was read to key this one (answeredBy.ts): it is not another request's
    const sibling = this.otherFormFile(base);
    const used = sibling ? (file: string) => file !== sibling && this.usedThisRun(file) : this.usedThisRun;
    const nearest = shown ? this.nearest.find(base.kind, request, base.hash, Infinity, used) : undefined;
    const otherForm = this.otherForm(base);
    const misnamed = shown ? this.nearest.misnamed : undefined;
    const scope = currentTest();
    const test = scope?.title;
    const { message, recordsTest } = missReport({
      ...base,
      request,
      describe,
      nearest,
      test,
      runner: currentRunner(),
      filterTitle: scope?.filterTitle,
      specFile: scope?.specFile,
      replayedToolErrors: scope?.replayedToolErrors,
      older: this.nearest.older,
      nearestUsedThisRun: nearest !== undefined && used(nearest.file),
      otherForm,
      misnamed,
      secret: this.secretInRequest(base, secrets),
      masked: nearest !== undefined && this.maskedNearest(),
      hidden: !shown,
    });
    this.count("missed", base.kind, base.mode, {
      cause: otherForm || misnamed || !nearest ? undefined : firstDifference(nearest),
      hash: base.hash,
      dir: path.dirname(base.file),
      test: recordsTest ? missedTest() : undefined, // the summary's one command that records every such test
    });
    // this very request in a file a lookup does not read: the message shows that, not the nearest other request
    return new VcrMissError(message, { hash: base.hash, kind: base.kind, request, nearest: otherForm || misnamed ? undefined : nearest });
  }

  /**
   * The fixture of this very request made the other way, when one is recorded: a stream's plain
   * call, a plain call's stream (both are keyed by the same canonical request, each under its kind).
   */
  private otherForm(base: Pick<Lookup, "kind" | "request">): { kind: FixtureKind; file: string } | undefined {
    const other: FixtureKind | undefined = base.kind === "chat" ? "chat_stream" : base.kind === "chat_stream" ? "chat" : undefined;
    if (other === undefined) return undefined;
    const file = this.store.fileFor(requestHash(other, base.request));
    return fs.existsSync(file) ? { kind: other, file } : undefined;
  }

  /**
   * The request as messages may show it: as the redactors would leave it on disk, with what the
   * secret scan knows masked (a miss prints it in a CI log); undefined when a redactor threw on
   * it: show none of it. `secrets`: the client's own credentials, masked too (a replay_only miss
   * never reached the scan that refuses them: a key from a vault, in a prompt, would be printed).
   */
  private shown(base: Pick<Lookup, "kind" | "hash" | "request">, secrets?: () => readonly string[]): { request: unknown } | undefined {
    const redacted = redactedRequest(base.kind, base.hash, base.request, this.config.redactors);
    const known = secrets ? [...secrets(), ...envSecrets()] : envSecrets();
    return redacted && { request: maskSecrets(redacted.request, known, this.config.allowSecretPatterns) };
  }

  /**
   * The call keyed by `alternate` instead of `hash` (ownFormRequest: `hash`'s fixture answers another form of it). The
   * fixture under `hash` is used too: the call finds its own key only through it, so prune must keep it while the call
   * is made (its own fixture left behind, the call would miss, or record a new one under `hash`). `redirects`: how many
   * keys the call passed through before `hash`. The fixture under `alternate` may answer another form of the call too
   * (ChatOllama's answer under the plain key, ChatOpenAI's Chat Completions one under `provider`, and now a Responses API
   * call): it is asked again, once per form a key can add (`MAX_REDIRECTS`: the OpenAI API, the provider).
   */
  private redirect(kind: FixtureKind, hash: string, file: string, alternate: unknown, options: LookupOptions, redirects: number): Lookup | Promise<Lookup> {
    emit({ type: "used", hash, file });
    const next = redirects + 1;
    const asked = next < MAX_REDIRECTS ? options : { ...options, alternate: undefined };
    return this.resolve(kind, requestHash(kind, alternate), () => alternate, asked, alternate, next);
  }

  /** The fixture of this request as the other OpenAI API or provider keyed it, when this one was keyed with `openai_api` or `provider` (`ownFormRequest`). */
  private otherFormFile(base: Pick<Lookup, "kind" | "request">): string | undefined {
    const same = otherFormRequest(base.request);
    return same && this.store.fileFor(requestHash(base.kind, same));
  }

  private reportNearMiss(lookup: Lookup): void {
    if (process.env.LANGCHAIN_VCR_QUIET) return; // skip the scan too, not only the line
    // a note, not an error: skip it where scanning the directory would cost more than it helps
    const shown = this.shown(lookup);
    const nearest = shown && this.nearest.find(lookup.kind, shown.request, lookup.hash, NEAR_MISS_SCAN_LIMIT);
    const misnamed = shown ? this.nearest.misnamed : undefined;
    if (misnamed) {
      log.warn(misnamedRecordedMessage(lookup, misnamed) + "\n");
      return; // this very request was recorded before: no other fixture is its old form
    }
    // one this process replayed or recorded is another request of this run (a sibling of a test.each, a
    // template's other filling), not the old form of an edited one: an edit leaves its old fixture unused.
    // Unlike a miss, the note does not look past it for an unused one: a new filling of a template would
    // then be noted as an edit of whichever sibling this run did not use.
    // nor one written since this run started, by another test process of it (vitest and jest run each test file in its own):
    // in a first recording of a suite, every new test's nearest is a sibling recorded moments before
    if (!nearest || this.store.metInProcess(nearest.file) || writtenThisRun(nearest.file)) return;
    // the old form of this very question (the same model, user text and what came after) however much else changed: a LangChain upgrade's re-keying
    const sameQuestion = asksSameQuestion(lookup.kind, this.nearest.requestIn(nearest.file), shown.request);
    const test = currentTest();
    const rec = {
      kind: lookup.kind,
      file: lookup.file,
      test: test?.title,
      replayedToolErrors: test?.replayedToolErrors,
      request: shown.request,
      masked: this.maskedNearest(),
    };
    const line = recordedNearMessage(rec, nearest, sameQuestion);
    if (line) log.note(line);
  }

  private warnSize(file: string, bytes: number): void {
    const limit = this.config.sizeWarningBytes;
    if (limit <= 0 || bytes < limit || this.warnedSize.has(file)) return;
    this.warnedSize.add(file);
    log.warn(
      `warning: fixture ${file} is ${bytes} bytes (sizeWarningBytes is ${limit}). ` +
        `It was written; large fixtures make reviews hard — consider a smaller prompt or response.`,
    );
  }

  /** `miss`: a miss's first difference from its nearest fixture, its request's hash (the summary's roll-up), and the directory it was looked for in. */
  private count(what: keyof VcrStats, kind: string, mode: VcrMode, miss?: { cause?: string; hash: string; dir: string; test?: MissedTest }): void {
    this.stats[what]++;
    emit(what === "missed" ? { type: what, kind, mode, ...miss } : { type: what, kind, mode });
  }
}
