/**
 * What langchain-vcr knows about one kind of fixture, in one object: the shape replay
 * expects in `response` (checked by replay and by `validate` with the same function), how
 * `show` renders it, whether recording near an existing fixture is worth a note, and how a
 * damaged one is described. The registry (`./index.ts`) lists them; nothing else branches on
 * a kind's name.
 */
export type Rec = Record<string, unknown>;

export interface KindSpec {
  /** The `kind` field of its fixtures. */
  readonly name: string;
  /** What a well-formed `response` holds, for messages about a damaged fixture. */
  readonly shape: string;
  /**
   * What is wrong with a `response` read from disk, as a predicate of the file ("has no ..."),
   * or undefined when replay can use it. `request` is the fixture's own (an embedding's base64
   * vector is valid only when its request asks for one). Replay and `validate` both call it,
   * and both word the result with one builder (./damaged.ts).
   */
  responseProblem(response: unknown, request?: unknown): string | undefined;
  /** `show`'s lines for the request and the answer (after the envelope lines). */
  render(request: Rec, response: Rec, rawResponse: unknown, out: string[]): void;
  /**
   * Whether recording a request whose nearest recorded one differs in a few fields prints a
   * note (a changed prompt usually is a mistake; a new embedding text or tool argument is routine).
   */
  readonly noteNearMiss: boolean;
  /**
   * How a fixture of an older schema version becomes the next one: `upgrades[v]` turns a
   * version-v request and response into version v+1's (offline: `langchain-vcr migrate`).
   * A missing step means nothing of this kind changed at that version (only its hash).
   */
  readonly upgrades?: Readonly<Record<number, (fixture: { request: unknown; response: unknown }) => { request: unknown; response: unknown }>>;
  /**
   * The on-disk form of a response, when it differs from what the adapters record and replay
   * (a `chat_stream` stores what repeats on every chunk once). `fromDisk(toDisk(r))` must give
   * `r` back exactly; `fromDisk` returns what it cannot read unchanged, for `responseProblem` to report.
   */
  toDisk?(response: unknown): unknown;
  fromDisk?(response: unknown): unknown;
  /**
   * The response as `diff` compares it, when its stored form is too fine-grained to review
   * (a stream: the assembled text and tool calls rather than every chunk). Default: as stored.
   */
  review?(response: unknown): unknown;
  /** The one-line name of a fixture's request, for `diff` (e.g. the last user text, the tool name). */
  title(request: Rec): string;
}
