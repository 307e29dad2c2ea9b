/**
 * The last line of defence: before any fixture is written it is scanned for strings shaped
 * like credentials, and for the literal API keys the wrapped clients hold. A hit refuses the
 * write with the field path. Users can allow a named pattern (`allowSecretPatterns`).
 */
import { VcrSecretError } from "./errors";
import { pathFrom } from "./pathFrom";

export const SECRET_PATTERNS: Readonly<Record<string, RegExp>> = {
  anthropic_key: /\bsk-ant-[A-Za-z0-9_-]{20,}/,
  openai_key: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/,
  bearer_token: /\bBearer\s+[A-Za-z0-9._~+/=-]{16,}/,
  aws_access_key: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/,
  // a 40-character secret access key is only told from other base64 by the name next to it
  aws_secret_key: /(?:secret_?access_?key|aws_?secret(?:_?key)?)["']?\s*(?:[:=]|=>)\s*["']?[A-Za-z0-9/+]{40}(?![A-Za-z0-9/+=])/i,
  // STS session tokens start with the base64 of their fixed header
  aws_session_token: /\b(?:IQoJb3JpZ2luX2Vj|FwoGZXIvYXdz)[A-Za-z0-9/+=]{20,}/,
  private_key: /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  // the key's last character may be "-", after which \b never matches: end at the last key character instead
  google_api_key: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/,
  groq_key: /\bgsk_[A-Za-z0-9]{20,}/,
  // LangSmith: lsv2_pt_ (personal) or lsv2_sk_ (service), 32 hex, _, 10 hex (user trial 53)
  langsmith_key: /\blsv2_(?:pt|sk)_[0-9a-f]{32}_[0-9a-f]{10}(?![0-9A-Za-z])/,
  xai_key: /\bxai-[A-Za-z0-9]{40,}/,
  perplexity_key: /\bpplx-[A-Za-z0-9]{40,}/,
  tavily_key: /\btvly-(?:dev-|prod-)?[A-Za-z0-9]{24,}/,
  pinecone_key: /\bpcsk_[A-Za-z0-9_]{40,}/,
  github_token: /\b(?:gh[pousr]_[A-Za-z0-9]{36,}\b|github_pat_[A-Za-z0-9_]{22,})/,
  // header.payload.signature, each base64url; both JSON parts start with `{"` (eyJ)
  jwt: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/,
  slack_token: /\bxox[abposr]-[A-Za-z0-9-]{10,}/,
  stripe_key: /\b[rs]k_live_[A-Za-z0-9]{20,}/,
  huggingface_token: /\bhf_[A-Za-z0-9]{30,}/,
  npm_token: /\bnpm_[A-Za-z0-9]{36}\b/,
  google_oauth_token: /\bya29\.[0-9A-Za-z_-]{20,}/,
  // scheme://user:password@host (a database URL, an authenticated proxy); not a port ("host:8080,admin@…"), nor a placeholder password
  url_credentials:
    /\b[a-z][a-z0-9+.-]*:\/\/[^\s:/?#@"'<>,;]+:(?!\d+@)(?!(?:password|passwd|pass|pwd|secret|changeme|example|xxx+|\*+|<[^>]*>|\$\{[^}]*\})@)[^\s/?#@"'<>,;]+@[^\s/?#@"'<>,;]/i,
};
/** What `allowSecretPatterns` may name: the patterns, and `environment_secret` (the values of credential environment variables). */
export const SECRET_PATTERN_NAMES = [...Object.keys(SECRET_PATTERNS), "environment_secret"];

export interface SecretHit {
  path: string;
  /** A credential pattern's name, `client_api_key` (the client's own credential) or `environment_secret`. */
  pattern: string;
  /** For `environment_secret`: the variable whose value it is. */
  variable?: string;
  /** For `client_api_key`: the key is a word or words with no digit, as a placeholder is (`placeholder`), not the shape of a real key. */
  wordLike?: true;
}

/** A literal value no fixture may hold: a client's own credential, or a credential variable's value (`variable` names it). */
export type KnownSecret = string | { value: string; variable: string };

/**
 * The first credential-shaped string in `value`, with its JSON path. The strings at one place
 * of an array's elements are also read joined, in order (`$.response.chunks[*].text, joined`):
 * a stream answers a few characters a chunk, so a key it spells out is in no single chunk.
 */
export function findSecret(value: unknown, knownSecrets: readonly KnownSecret[], allow: ReadonlySet<string>, path = "$"): SecretHit | undefined {
  return secretHits(value, knownSecrets, allow, path).next().value;
}

/**
 * Each credential in `value`, in `findSecret`'s order (it is the first of them): in each string,
 * each known value and each pattern once, a pattern's match inside a known value's not again; in
 * an array's joined strings, those whose match runs from one piece into the next (one whole in a
 * piece was named at that piece).
 */
export function* secretHits(value: unknown, knownSecrets: readonly KnownSecret[], allow: ReadonlySet<string>, path = "$"): Generator<SecretHit, undefined> {
  if (typeof value === "string") {
    yield* hitsIn(value, knownSecrets, allow, path);
  } else if (Array.isArray(value)) {
    if (value.length > 0 && value.every((v) => typeof v === "number")) return undefined; // a vector
    for (let i = 0; i < value.length; i++) yield* secretHits(value[i], knownSecrets, allow, `${path}[${i}]`);
    for (const joined of joinedStrings(value, path)) yield* hitsIn(joined.text, knownSecrets, allow, joined.path, joined.pieces);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      yield* secretHits(k, knownSecrets, allow, `${path}.<key>`);
      yield* secretHits(v, knownSecrets, allow, /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}[${JSON.stringify(k)}]`);
    }
  }
  return undefined;
}

/** A match's start and end in a text. */
type Span = readonly [number, number];

/**
 * The credentials in `text` at `path` (see `secretHits`). `pieces`: the strings `text` joins;
 * then only a match that starts where no piece's own match does counts (a key whole in one piece
 * was named at that piece, even when the joined text runs it on into the next).
 */
function* hitsIn(
  text: string,
  knownSecrets: readonly KnownSecret[],
  allow: ReadonlySet<string>,
  path: string,
  pieces?: readonly string[],
): Generator<SecretHit> {
  const counts = (spans: Span[], inPiece: (piece: string) => Span[]) => {
    if (!pieces) return spans.length > 0;
    const named = new Set<number>();
    let at = 0;
    for (const piece of pieces) {
      for (const [a] of inPiece(piece)) named.add(at + a);
      at += piece.length;
    }
    return spans.some(([a]) => !named.has(a));
  };
  const knownSpans: Span[] = [];
  for (const s of knownSecrets) {
    const known = literal(s, allow);
    if (!known || !text.includes(known.value)) continue;
    const spans = literalSpans(text, known.value);
    knownSpans.push(...spans);
    if (counts(spans, (piece) => literalSpans(piece, known.value))) yield { path, ...known.hit };
  }
  for (const [name, re] of Object.entries(SECRET_PATTERNS)) {
    if (allow.has(name) || !re.test(text)) continue;
    const spans = patternSpans(text, re).filter(([a, b]) => !knownSpans.some(([x, y]) => x <= a && b <= y)); // a known value's: named as that
    if (counts(spans, (piece) => patternSpans(piece, re))) yield { path, pattern: name };
  }
}

function literalSpans(text: string, value: string): Span[] {
  const spans: Span[] = [];
  for (let i = text.indexOf(value); i >= 0; i = text.indexOf(value, i + 1)) spans.push([i, i + value.length]);
  return spans;
}

const GLOBAL = new Map<RegExp, RegExp>();
function patternSpans(text: string, re: RegExp): Span[] {
  let g = GLOBAL.get(re);
  if (!g) GLOBAL.set(re, (g = new RegExp(re.source, re.flags.includes("g") ? re.flags : re.flags + "g")));
  return [...text.matchAll(g)].map((m) => [m.index, m.index + m[0].length] as const);
}

/** A key of letters, `-` and `_` only, at most 20 characters: a placeholder's shape (`placeholder`, `test-key`), which prose can hold. */
const WORD_LIKE = /^[A-Za-z][A-Za-z_-]{7,19}$/;

/** A known secret as the scan and the mask read it: its value, what a hit on it is, its marker; undefined when it is not looked for. */
function literal(s: KnownSecret, allow: ReadonlySet<string>): { value: string; hit: Omit<SecretHit, "path">; marker: string } | undefined {
  if (typeof s === "string")
    return s.length >= 8
      ? { value: s, hit: { pattern: "client_api_key", ...(WORD_LIKE.test(s) ? { wordLike: true } : {}) }, marker: "[secret: the client's key]" }
      : undefined;
  if (allow.has("environment_secret")) return undefined;
  return { value: s.value, hit: { pattern: "environment_secret", variable: s.variable }, marker: `[secret: $${s.variable}]` };
}

/** What masking replaces where a pattern only finds a credential by its start: a private key's whole block; a URL's credentials, not its host. */
const MASKED_WHOLE: Readonly<Record<string, RegExp>> = {
  private_key: /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/,
  url_credentials: new RegExp(SECRET_PATTERNS.url_credentials.source.replace(/@\[([^\]]*)\]$/, "@(?=[$1])"), SECRET_PATTERNS.url_credentials.flags),
};

/**
 * A copy of `value` whose strings show no credential: each match of a pattern not allowed, and
 * each known value, is replaced by a marker naming what it was (`[secret: openai_key]`,
 * `[secret: $GITHUB_TOKEN]`). For what messages print of a request (a miss in a CI log).
 */
export function maskSecrets(value: unknown, knownSecrets: readonly KnownSecret[], allow: ReadonlySet<string>): unknown {
  if (typeof value === "string") {
    let text = value;
    for (const s of knownSecrets) {
      const known = literal(s, allow);
      if (known) text = text.split(known.value).join(known.marker);
    }
    for (const [name, re] of Object.entries(SECRET_PATTERNS)) {
      if (allow.has(name) || !re.test(text)) continue;
      const whole = MASKED_WHOLE[name] ?? re;
      text = text.replace(new RegExp(whole.source, whole.flags.includes("g") ? whole.flags : whole.flags + "g"), `[secret: ${name}]`);
    }
    return text;
  }
  if (Array.isArray(value)) return value.map((v) => maskSecrets(v, knownSecrets, allow));
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value))
      Object.defineProperty(out, k, { value: maskSecrets(v, knownSecrets, allow), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

/** `joinedStrings` of every array in `value` (at `path`). */
export function allJoinedStrings(value: unknown, path: string): Joined[] {
  if (Array.isArray(value)) {
    return [...joinedStrings(value, path), ...value.flatMap((v, i) => allJoinedStrings(v, `${path}[${i}]`))];
  }
  if (value !== null && typeof value === "object") return Object.entries(value).flatMap(([k, v]) => allJoinedStrings(v, `${path}.${k}`));
  return [];
}

/**
 * The strings at each place of an array's elements, joined in order, with where they were read
 * (`$.response.chunks[*].text, joined`): a response's arrays only (a stream's chunks), since
 * joining a conversation's messages or a schema's parts would make up text no one sent.
 */
export function joinedStrings(array: readonly unknown[], path: string): Joined[] {
  if (array.length < 2 || !path.startsWith("$.response")) return [];
  const pieces = new Map<string, string[]>();
  for (const element of array) collectStrings(element, "", pieces);
  const out: Joined[] = [];
  for (const [at, strings] of pieces)
    if (strings.length >= 2) out.push({ path: `${path}[*]${at}, joined`, at, pieces: strings, text: strings.join(""), array });
  return out;
}

/** One place of an array's elements, its strings joined: `at` is the place within an element (`.message.content`). */
export interface Joined {
  path: string;
  at: string;
  pieces: string[];
  text: string;
  /** The array whose elements hold the pieces. */
  array: readonly unknown[];
}

/**
 * A copy of `value` in which the array of `joined` holds its text whole: the first string at its place the joined text,
 * every later one empty (a stream whose first chunk said it all). What is not on the way to that array is shared.
 */
export function withJoinedWhole(value: unknown, joined: Joined): unknown {
  if (value === joined.array) {
    let first = true;
    return joined.array.map((element) =>
      mapStrings(element, "", joined.at, () => {
        const whole = first ? joined.text : "";
        first = false;
        return whole;
      }),
    );
  }
  if (Array.isArray(value)) return value.map((v) => withJoinedWhole(v, joined));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withJoinedWhole(v, joined)]));
  return value;
}

/** `value` with each string at the place `at` (as `collectStrings` names places) given by `map`, in the order `collectStrings` reads them. */
function mapStrings(value: unknown, here: string, at: string, map: (s: string) => string): unknown {
  if (typeof value === "string") return here === at ? map(value) : value;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, `${here}[*]`, at, map));
  if (value !== null && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, placeOf(here, k), at, map)]));
  return value;
}

/** The place of member `k` below `at`, as `collectStrings` names it. */
function placeOf(at: string, k: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(k) ? `${at}.${k}` : `${at}[${JSON.stringify(k)}]`;
}

/** Every string in `value` under its place, an array's positions all written `[*]` (`.message.tool_call_chunks[*].args`). */
function collectStrings(value: unknown, at: string, into: Map<string, string[]>): void {
  if (typeof value === "string") {
    const list = into.get(at);
    if (list) list.push(value);
    else into.set(at, [value]);
  } else if (Array.isArray(value)) {
    for (const v of value) collectStrings(v, `${at}[*]`, into);
  } else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) collectStrings(v, placeOf(at, k), into);
  }
}

/** A fixture's path from the working directory when it is under it: an error a tool throws can reach the model's next request, and a fixture. */
export function shownPath(file: string): string {
  return pathFrom(process.cwd(), file);
}

/** `when`: the request was refused before it was sent (no provider call), or the fixture after the call answered. */
/**
 * The error of a fixture refused for holding `hit`. `when`: the request was refused before it was sent (or the tool's body
 * ran), or the fixture after the call answered; `redacting`: redactors are set, and left it there.
 */
export function secretError(
  hit: SecretHit,
  file: string,
  when: "before the call" | "before the tool ran" | "after the call" = "after the call",
  redacting = false,
): VcrSecretError {
  const how =
    hit.pattern === "client_api_key"
      ? "It holds a credential of the model client itself (its API key, or an AWS secret or session token)." +
        (hit.wordLike ? " That key is a word with no digit, as a placeholder key is, and this fixture holds the word." : "")
      : hit.pattern === "environment_secret"
        ? `It holds the value of the environment variable ${hit.variable}.`
        : `It matches the credential pattern "${hit.pattern}".`;
  return new VcrSecretError(
    `refused to write ${shownPath(file)}: the fixture field ${hit.path} looks like a secret. ${how}\n` +
      (when !== "after the call"
        ? `  Nothing was written, and ${when === "before the tool ran" ? "the tool's body did not run" : "the request was not sent to the provider"}: its fixture could never be written.\n`
        : hit.path.startsWith("$.request")
          ? // known only once the call answered (the redactors could not take the request alone, or an AWS client's own credentials)
            `  Nothing was written, and the call failed so the secret cannot reach the repository; the request that holds it was sent to the provider.\n`
          : `  Nothing was written; the call failed so the secret cannot reach the repository.\n`) +
      // in the answer, the provider (or a tool's result) wrote it: nothing in the test's prompt to take out
      `  Fix it: ${hit.path.startsWith("$.response") ? "the answer holds it (the model, or a tool's result, wrote it): " : "keep the secret out of the prompt, or "}` +
      (redacting ? `make the redactors (options.redactors) mask it: they leave it there` : `add a redactor (options.redactors) that masks it`) +
      (hit.pattern === "client_api_key"
        ? hit.wordLike
          ? `; or, recording against a local server with a placeholder key, give the client one under 8 characters (apiKey "unused", or its key variable), which is never taken for a credential.`
          : "."
        : `, or, if it is a harmless test value, allow the pattern: new Vcr({ allowSecretPatterns: ["${hit.pattern}"] }).`),
    hit,
  );
}
