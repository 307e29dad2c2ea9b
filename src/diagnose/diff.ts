/** Field-by-field differences between a recorded request and a new one, as paths. */
import { isDeepStrictEqual } from "node:util";
import type { VcrDifference } from "../errors";
import type { ReplayedError } from "../scope";
import { canonicalJson } from "../canonical/json";
import { ALIKE_SPELLINGS } from "../canonical/spellings";
import { OPENAI_API_MEMBER } from "../adapters/chat/openaiApi";
import { PROVIDER_MEMBER } from "../adapters/chat/answeredBy";
import { messageField, messageText } from "../kinds/text";
import { COUNTED_NAME_HINT, isCountedToolName } from "./countedToolName";
import { builtinError } from "../adapters/tools/builtinErrors";

export function diffValues(recorded: unknown, requested: unknown, path = "", out: VcrDifference[] = []): VcrDifference[] {
  if (Object.is(recorded, requested)) return out;
  const bothArrays = Array.isArray(recorded) && Array.isArray(requested);
  const bothObjects = isPlainObject(recorded) && isPlainObject(requested);
  if (bothArrays) {
    const a = recorded as unknown[];
    const b = requested as unknown[];
    for (let i = 0; i < Math.max(a.length, b.length); i++) diffValues(a[i], b[i], `${path}[${i}]`, out);
    return out;
  }
  if (bothObjects) {
    const a = recorded as Record<string, unknown>;
    const b = requested as Record<string, unknown>;
    for (const k of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
      if (!path && alikeSpelling(k, a, b)) continue; // not a difference: a lookup finds either for the other
      diffValues(a[k], b[k], path ? `${path}.${k}` : k, out);
    }
    return out;
  }
  out.push({ path: path || "(root)", recorded, requested });
  return out;
}

/** Whether request member `k` is there on one side only, as a value its client sends or not alike (canonical/spellings.ts). */
function alikeSpelling(k: string, a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  if (Object.hasOwn(a, k) === Object.hasOwn(b, k)) return false;
  const present = Object.hasOwn(a, k) ? a[k] : b[k];
  return ALIKE_SPELLINGS.some((s) => s.member === k && isDeepStrictEqual(s.value, present));
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Whether the differences are the switch of a string model's agent between chat completions and the Responses API, that way
 * (`toResponses`): each tool definition gains the fields the Responses API form has and chat completions' does not
 * (`tools[0].strict: (absent) → null`, `tools[0].type: (absent) → "function"`; a user's own `strict: true` is not it), at
 * least one of them; beside them, a structured-output agent's (a `toolStrategy` agent, trial 54) `tool_choice: "required"`
 * dropped and its output tool's `strict: false` sent as `null`. The other way: a downgrade, or packages older than the lock file's.
 */
function responsesSwitch(differences: readonly VcrDifference[], toResponses: boolean): boolean {
  let gained = false;
  for (const d of differences) {
    const [chat, responses] = toResponses ? [d.recorded, d.requested] : [d.requested, d.recorded];
    const field = /^tools\[\d+\]\.(strict|type)$/.exec(d.path)?.[1];
    const gains = chat === undefined && ((field === "strict" && responses === null) || (field === "type" && responses === "function"));
    const beside = d.path === "tool_choice" ? chat === "required" && responses === undefined : field === "strict" && chat === false && responses === null;
    if (!gains && !beside) return false;
    gained ||= gains;
  }
  return gained;
}

/** " (and a structured-output agent's tool_choice <went>)" when the switch's differences include it. */
function choiceToo(differences: readonly VcrDifference[], went: string): string {
  return differences.some((d) => d.path === "tool_choice") ? ` (and a structured-output agent's tool_choice ${went})` : "";
}

/** A hint for the obvious fixes: a date, a uuid or a timestamp that differs; the other OpenAI API. */
export function hintFor(differences: readonly VcrDifference[], replayed?: { errors?: readonly ReplayedError[]; request: unknown }): string | undefined {
  // the same request but for the API: with other differences beside it, the fixture is not this request's
  const api = onlyAdded(differences, OPENAI_API_MEMBER);
  if (api) {
    return (
      `ChatOpenAI sends this call to OpenAI's ${api.requested === "responses" ? "Responses API" : "Chat Completions API"}, and the fixture of the same request holds the other API's answer ` +
      `(useResponsesApi, built-in tools, some models, or a newer langchain or @langchain/openai choose the API: langchain 1.5.14 sends a createAgent "openai:…" string model to the Responses API): record this call, and it gets a fixture of its own beside that one, ` +
      `which stays for the calls that use the other API`
    );
  }
  const provider = onlyAdded(differences, PROVIDER_MEMBER);
  if (provider) {
    return (
      `the fixture of the same request holds another provider's answer (the same model name and parameters asked elsewhere), ` +
      `and this call goes to ${JSON.stringify(provider.requested)}: record this call, and it gets a fixture of its own beside that one, ` +
      `which stays for the other provider's calls`
    );
  }
  if (onlyAdded(differences, "deployment")) {
    return (
      `the fixture of the same request was keyed without an Azure deployment, which decides which model answers: recorded by a client ` +
      `without one (ChatOpenAI), or by an older langchain-vcr, which left it out of an AzureChatOpenAI call with tools bound or a structured output ` +
      `(0.3.0: bindTools, withStructuredOutput, createAgent), or of every Azure chat call (before). Record it again, with the deployment meant (docs/upgrading.md)`
    );
  }
  if (responsesSwitch(differences, true)) {
    return (
      `the tool definitions gained only what @langchain/openai adds to the tools it sends OpenAI's Responses API${choiceToo(differences, "went")}: a string model ` +
      `(createAgent({ model: "openai:…" })) calls chat completions with older langchain and @langchain/openai releases and the Responses API with newer ones. ` +
      `After such an upgrade, record the suite again and review it (docs/upgrading.md)`
    );
  }
  if (responsesSwitch(differences, false)) {
    return (
      `the tool definitions lack only what @langchain/openai adds to the tools it sends OpenAI's Responses API${choiceToo(differences, "is back")}: the fixture was recorded through the ` +
      `Responses API (a string model, createAgent({ model: "openai:…" }), with newer langchain and @langchain/openai releases, or useResponsesApi), and this ` +
      `call goes to chat completions. After a pull, install the versions the fixtures were recorded with (npm ci); after a downgrade on purpose, record ` +
      `the suite again and review it (docs/upgrading.md)`
    );
  }
  if (countedNamesOnly(differences)) return COUNTED_NAME_HINT;
  const replayedError = replayed && toolFailedOnReplay(differences, replayed.errors, replayed.request);
  if (replayedError) return toolFailedHint(replayedError);
  if (onlyOrdinal(differences) && Number(differences[0].requested ?? 1) > Number(differences[0].recorded ?? 1)) {
    const [d] = differences;
    return (
      `"call" numbers the identical calls (one tool, the same arguments) of one test: this is call ${JSON.stringify(d.requested ?? 1)}, and the nearest ` +
      `recorded one is call ${JSON.stringify(d.recorded ?? 1)}, so the test makes the call more often than when it was recorded ` +
      `(a loop, a retry, one more branch); if that is meant, record the test again`
    );
  }
  const [first] = volatileDifferences(differences);
  if (first) {
    const { d, value } = first;
    if (first.normalized) return `${value.what} changed between runs: add normalizers.${value.normalizer} to options.normalizers`;
    return (
      `${value.what} changed between runs at ${d.path}, which normalizers do not rewrite (they rewrite a message's text, a prompt and an embedded text): ` +
      (d.path.startsWith("args")
        ? `a value the app puts in a tool call's arguments each run makes every call a new request; keep it out of the arguments (make it in the tool's body), ` +
          `or run the tool with withVcr({ toolMode: "execute" }, …), whose model calls still replay`
        : `make it the same on every run in tests (a fixed clock or id), or keep it out of the request (a zod .default(() => …) is sent in the tool's schema)`)
    );
  }
  return undefined;
}

/**
 * The recorded tool error the app handled otherwise than the real one, when all that differs is one tool message that
 * answered when recorded and is an error now (`status` gained `"error"`, its text with it), and that text quotes an error
 * of the app's class that the same tool's fixture replayed in this test (`replayedToolErrors`), by its class or name as a
 * word or by its whole message (trial 55:
 * toolRetryMiddleware's `retryOn: [TransientError]` retried the real error and not the replayed one, which is no instance
 * of the class: "… failed after 1 attempt with TransientError"). A tool message that is an error for another reason (a
 * human-in-the-loop rejection, a body that throws now, arguments a changed schema refuses) quotes none, and recording
 * again answers it (recheck 63, review 63).
 */
export function toolFailedOnReplay(
  differences: readonly VcrDifference[],
  replayedToolErrors: readonly ReplayedError[] | undefined,
  request: unknown,
): ReplayedError | undefined {
  if (!replayedToolErrors?.length) return undefined;
  const failed = differences.find((d) => /^messages\[\d+\]\.status$/.test(d.path) && d.recorded === undefined && d.requested === "error");
  if (!failed) return undefined;
  const message = failed.path.slice(0, -".status".length);
  if (!differences.every((d) => d === failed || d.path === message + ".content")) return undefined;
  const text = textOf(differences.find((d) => d.path === message + ".content")?.requested) ?? "";
  const tool = messageField(request, Number(/\d+/.exec(message)![0]), "name"); // the tool it answers for
  // an error of the tool this message answers for, of a class of the app's (a builtin replays as itself, instanceof and all),
  // quoted by its class or name as a word, or by its whole message (review 64: "Error" is in every error's text)
  return replayedToolErrors.find(
    (e) =>
      (tool === undefined || e.tool === tool) &&
      !builtinError(e.className) &&
      (quotes(text, e.className) || quotes(text, e.name) || (e.message.length >= QUOTED_MESSAGE_AT_LEAST && text.includes(e.message))),
  );
}

/** A replayed error's message shorter than this ("failed", "oops") is in too many texts to say the tool message quotes it. */
const QUOTED_MESSAGE_AT_LEAST = 8;

/** Whether `text` holds `word` as a word of its own (`TransientError`, not inside `MyTransientErrors`). */
function quotes(text: string, word: string): boolean {
  if (word === "" || builtinError(word)) return false;
  return new RegExp(`(^|[^\\w$])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\w$])`).test(text);
}

function toolFailedHint(e: ReplayedError): string {
  // a class that sets no name replays with its class's name and the name "Error": the class's name tells it apart on both
  const test = e.name === e.className ? `e.name === "${e.name}"` : `e.constructor.name === "${e.className}"`;
  return (
    `a tool that answered when this was recorded answered with an error in this run, quoting the ${e.className} a tool fixture of this test replayed. ` +
    `A recorded tool error replays as an Error of that name (its message, code and plain fields), not an instance of your class: code that tells ` +
    `it apart with instanceof (toolRetryMiddleware's retryOn: [${e.className}], a catch) or by an object field handled the real error and not this one. ` +
    `Branch on the name (retryOn: (e) => ${test}; docs/tools-and-agents.md)`
  );
}

/** Whether every difference is a name langchain counted for a responseFormat schema without a title (`extract-4` → `extract-1`). */
export function countedNamesOnly(differences: readonly VcrDifference[]): boolean {
  return differences.length > 0 && differences.every((d) => isCountedToolName(d.recorded) && isCountedToolName(d.requested));
}

/** Whether the ordinal of identical tool calls is the one difference (`call: 3 → 4`, or `(absent) → 2`). */
export function onlyOrdinal(differences: readonly VcrDifference[]): boolean {
  return differences.length === 1 && differences[0].path === "call";
}

/** The one difference, when it is `path` added with a string (a member a key gains: the OpenAI API, the provider, the deployment). */
function onlyAdded(differences: readonly VcrDifference[], path: string): VcrDifference | undefined {
  const [d] = differences;
  return differences.length === 1 && addedName(d, path) ? d : undefined;
}

/** `path` is a member the request gained, a string (a form's name: answeredBy.ts keys only those). */
function addedName(d: VcrDifference, path: string): boolean {
  return d.path === path && d.recorded === undefined && typeof d.requested === "string";
}

/**
 * The form a request was keyed in, when all it adds to another's is `openai_api` and/or a `provider` name (answeredBy.ts):
 * "provider's" when a provider is among them, else "API's"; undefined otherwise (OpenRouter's `provider` routing object
 * is a parameter, not a form).
 */
export function keyedInOtherForm(differences: readonly VcrDifference[]): "API's" | "provider's" | undefined {
  if (differences.length === 0 || !differences.every((d) => addedName(d, OPENAI_API_MEMBER) || addedName(d, PROVIDER_MEMBER))) return undefined;
  return differences.some((d) => d.path === PROVIDER_MEMBER) ? "provider's" : "API's";
}

/** Whether a value a run makes anew (a timestamp, a UUID) differs where no normalizer reaches: recording again cannot help. */
export function changesEveryRun(differences: readonly VcrDifference[]): boolean {
  return volatileDifferences(differences).some((v) => !v.normalized);
}

/** The differences whose two sides both look like a value a run makes anew, what it is, and whether a normalizer reaches it. */
function volatileDifferences(differences: readonly VcrDifference[]) {
  return differences.flatMap((d) => {
    if (typeof d.recorded !== "string" || typeof d.requested !== "string") return [];
    const value = volatileValue([d.recorded, d.requested]);
    return value ? [{ d, value, normalized: NORMALIZED.test(d.path) }] : [];
  });
}

/** The request members the normalizers rewrite: a message's text (string content, text blocks), a completion's prompt, an embedded text. */
const NORMALIZED = /^(?:messages\[\d+\]\.content(?:\[\d+\]\.text)?|prompt|text)$/;

/** What kind of value changed between two runs, when both sides look like one a run makes anew, and the normalizer for it. */
function volatileValue(pair: string[]): { what: string; normalizer: string } | undefined {
  if (pair.every((s) => /\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}/.test(s))) return { what: "a timestamp", normalizer: "isoDateTime" };
  if (pair.every((s) => /\d{4}-\d{2}-\d{2}/.test(s))) return { what: "a date", normalizer: "isoDate" };
  if (pair.every((s) => /[0-9a-f]{8}-[0-9a-f]{4}-/i.test(s))) return { what: "a UUID", normalizer: "uuid" };
  if (pair.every((s) => /1\d{12}/.test(s))) return { what: "a millisecond timestamp", normalizer: "epochMillis" };
  return undefined;
}

export function formatValue(v: unknown, max = 120): string {
  return cut(v === undefined ? "(absent)" : JSON.stringify(v), max);
}

/**
 * `s` cut to `max` characters with "…" where it was cut; a JSON string keeps its closing quote
 * (`"…Japan…"`), and never ends inside an escape (`\"` or `\u001b` cut short); no value is cut between
 * the halves of a surrogate pair.
 */
function cut(s: string, max: number): string {
  if (s.length <= max) return s;
  if (!s.startsWith('"')) return withoutHalfCharacter(s.slice(0, max - 1)) + "…";
  let kept = s.slice(0, max - 2);
  // an escape cut short: a lone backslash, or `\u` with fewer than 4 digits (its backslash not itself escaped)
  const escape = /(\\+)(u[0-9a-fA-F]{0,3})?$/.exec(kept);
  if (escape && escape[1].length % 2 === 1) kept = kept.slice(0, kept.length - 1 - (escape[2]?.length ?? 0));
  return withoutHalfCharacter(kept) + '…"';
}

/** `s` without a last high surrogate standing alone: half of a character outside the BMP (an emoji), cut. */
function withoutHalfCharacter(s: string): string {
  const last = s.charCodeAt(s.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? s.slice(0, -1) : s;
}

/** How many characters before the first difference a long text's window shows. */
const LEAD = 24;

/**
 * A difference as a message shows it: `old → new`. Two long texts show from a little before where
 * they first differ ("…ments: {\"orderId\"…" → "…ments: {\"amount\"…"), so the change is on the
 * line even when it lies past the first `max` characters, where both sides would read the same.
 */
export function formatChange(recorded: unknown, requested: unknown, max = 120): string {
  if (typeof recorded !== "string" || typeof requested !== "string" || (JSON.stringify(recorded).length <= max && JSON.stringify(requested).length <= max)) {
    return `${formatValue(recorded, max)} → ${formatValue(requested, max)}`;
  }
  let at = 0;
  while (at < recorded.length && at < requested.length && recorded[at] === requested[at]) at++;
  const from = Math.max(0, at - LEAD);
  return `${formatFrom(recorded, from, max)} → ${formatFrom(requested, from, max)}`;
}

/** A text from character `from` on, as JSON, cut to `max` characters, with "…" where it was cut. */
function formatFrom(text: string, from: number, max: number): string {
  return cut(from > 0 ? '"…' + JSON.stringify(text.slice(from)).slice(1) : JSON.stringify(text), max);
}

/** How many characters before an edit, and how many it may change on each side, the roll-up's form of it shows (`formatEdit`). */
const EDIT_LEAD = 16;
const EDIT_MAX = 40;

/**
 * A change of one text into another as the edit itself, with the few characters before it and none
 * after: `"…in one sentence: …" → "…in one sentence; …"`. A prompt prefix edited where it is joined to
 * each test's own text changes every request the same way, but each miss's `formatChange` shows its
 * own text around it; this form is the same for all (the summary's roll-up, trial 44). Undefined
 * when either is not a text, or the edit is longer than `EDIT_MAX` on a side.
 */
export function formatEdit(recorded: unknown, requested: unknown): string | undefined {
  if (typeof recorded !== "string" || typeof requested !== "string") return undefined;
  let { start, end } = sharedEnds(recorded, requested);
  // whole words (and never half a surrogate pair): "English" → "French", not "Englis" → "Frenc"
  while (start > 0 && ((inWord(recorded, start - 1) && inWord(recorded, start)) || lowSurrogate(recorded, start))) start--;
  while (end > 0 && ((inWord(recorded, recorded.length - end - 1) && inWord(recorded, recorded.length - end)) || lowSurrogate(recorded, recorded.length - end)))
    end--;
  const removed = recorded.slice(start, recorded.length - end);
  const inserted = requested.slice(start, requested.length - end);
  if (removed.length > EDIT_MAX || inserted.length > EDIT_MAX) return undefined;
  let from = Math.max(0, start - EDIT_LEAD);
  if (lowSurrogate(recorded, from)) from--;
  // the lead from a word's start, never half a word: "…budget review is postponed…", not "…udget review is postponed…"
  // (recheck 57): back to the word's start when it is near, else on to the next one before the edit; a word that runs on
  // from far back into the edit keeps its last characters (review 57 L6)
  const midWord = (i: number) => i > 0 && inWord(recorded, i - 1) && inWord(recorded, i);
  let back = from;
  while (midWord(back) && from - back < EDIT_LEAD / 2) back--;
  if (!midWord(back)) from = back;
  else {
    let on = from;
    while (on < start && midWord(on)) on++;
    if (on < start) from = on;
  }
  const side = (changed: string) => (from > 0 ? '"…' : '"') + JSON.stringify(recorded.slice(from, start) + changed).slice(1, -1) + (end > 0 ? '…"' : '"');
  return `${side(removed)} → ${side(inserted)}`;
}

/** Whether the character at `i` of `s` is a letter or a digit (of any script). */
function inWord(s: string, i: number): boolean {
  return i >= 0 && i < s.length && /[\p{L}\p{N}]/u.test(s[i]);
}

/** Whether the code unit at `i` of `s` is the second half of a surrogate pair (an emoji's): a cut there splits the character. */
function lowSurrogate(s: string, i: number): boolean {
  const c = s.charCodeAt(i);
  return i > 0 && c >= 0xdc00 && c <= 0xdfff && s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff;
}

/**
 * How much of the longer of two texts an edit changed, from 0 to 1: what is left of it once the
 * start and the end the two share are taken away, as a share of its length.
 */
export function changedShare(a: string, b: string): number {
  const longest = Math.max(a.length, b.length);
  if (longest === 0) return 0;
  const { start, end } = sharedEnds(a, b);
  return (longest - start - end) / longest;
}

/** How many characters two texts share at their start, and then at their end (not overlapping the start). */
function sharedEnds(a: string, b: string): { start: number; end: number } {
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let end = 0;
  while (end < a.length - start && end < b.length - start && a[a.length - 1 - end] === b[b.length - 1 - end]) end++;
  return { start, end };
}

/** An edit changes few fields (`isEdit`). */
const MAX_EDIT_DIFFERENCES = 3;

/**
 * Whether two requests' differences look like an edit of the recorded one (a date, a word, a
 * parameter): at most `MAX_EDIT_DIFFERENCES` changes (`changeCount`), each changed text keeping
 * much of the recorded one (`looksEdited`). The same rule for the recording note, a streamed
 * miss's advice, and `diff`'s pairing.
 */
export function isEdit(differences: readonly { path?: string; recorded?: unknown; requested?: unknown }[]): boolean {
  return differences.length > 0 && changeCount(differences) <= MAX_EDIT_DIFFERENCES && differences.every(looksEdited);
}

/**
 * How many changes the differences make: one per field, except that one change made alike in several
 * elements of a list counts once (`tools[0].strict` and `tools[1].strict`, both absent → `false`).
 * An upgrade of @langchain/openai that gives each tool definition two new fields changes an agent's
 * request with three tools in six fields, but by two changes (trial 54: such agents' fixtures showed in
 * `diff` as unrelated added and removed ones).
 */
export function changeCount(differences: readonly { path?: string; recorded?: unknown; requested?: unknown }[]): number {
  return distinctChanges(differences).length;
}

/** The first difference of each change (`changeCount`), in order. */
export function distinctChanges<D extends { path?: string; recorded?: unknown; requested?: unknown }>(differences: readonly D[]): D[] {
  const seen = new Set<string>();
  return differences.filter((d) => {
    const key = `${(d.path ?? "").replace(/\[\d+\]/g, "[*]")}\0${sameJsonKey(d.recorded)}\0${sameJsonKey(d.requested)}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** A value as a key that two equal JSON values share, and no other (`undefined`: absent, apart from `null`). */
export function sameJsonKey(v: unknown): string {
  return v === undefined ? "" : canonicalJson(v);
}

/** The last step of a path to a prompt's text: `messages[0].content`, `messages[1].content[0].text`, a text completion's `prompt`. */
export const TEXT_PATH = /(^|\.)(content|text|prompt)(\[\d+\])?$/;
/** Where a request holds a binary as its digest (`…image_url.url.sha256`, `…source.data.sha256`). */
const DIGEST_PATH = /\.sha256$/;

/**
 * Whether a changed text looks like an edit of the recorded one (a date, a word, a typo) rather
 * than another text: the unchanged start and end together cover at least half of the longer.
 * Non-text differences (a parameter, a tool) always count.
 */
export function looksEdited(d: { path?: string; recorded?: unknown; requested?: unknown }): boolean {
  // an image's, a file's digest: its bytes changed (a screenshot regenerated, an asset edited), one change as a parameter's,
  // not another text (trial 57 M3: an image-only change was recorded with no note, and diff split it into added and removed)
  if (d.path !== undefined && DIGEST_PATH.test(d.path)) return true;
  const a = d.recorded;
  const b = d.requested;
  // a text beside content blocks (a question that gained an image, or another question than an image's) compares by the blocks' text
  if (typeof a !== "string" && typeof b !== "string") return true;
  if ((typeof a !== "string" || typeof b !== "string") && d.path !== undefined && !TEXT_PATH.test(d.path)) return true; // stop: "END" → ["END", "STOP"]
  const ta = textOf(a);
  const tb = textOf(b);
  if (ta === undefined || tb === undefined) return true;
  return changedShare(ta, tb) <= 0.5;
}

/** A content's text: a string, or the text blocks of a content-block list joined; undefined for anything else. */
export function textOf(v: unknown): string | undefined {
  return typeof v === "string" || Array.isArray(v) ? messageText(v) : undefined;
}
