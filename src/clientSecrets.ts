/**
 * The literal credentials a model or embeddings client holds, so that the secret scanner
 * (./secrets.ts) refuses any fixture that would contain one, whatever the client calls the
 * field. Read from the client's own fields and the few places LangChain clients keep their
 * options: its constructor fields (`lc_kwargs`, `fields`), SDK options (`clientOptions`,
 * `clientConfig`, `configuration`), AWS `credentials`, and the SDK client it built (`client`,
 * its `_options`); and the headers and query parameters it sends on every call
 * (`configuration.defaultHeaders` / `defaultQuery`: a gateway's `Authorization`, `x-api-key`,
 * `Ocp-Apim-Subscription-Key`, an `api-key` query), by names HTTP spells them with.
 *
 * An AWS SDK client (ChatBedrockConverse's and BedrockEmbeddings' `client`) keeps its
 * credentials behind a provider function, wherever they came from (the constructor, an injected
 * client, the environment, a profile): `callSecrets` asks it, after the live call that resolved
 * them. A model can still repeat one in its answer.
 */
import type { KnownSecret } from "./secrets";
import { isVcrEnv } from "./internalEnv";

/**
 * Field names that hold a credential: apiKey, anthropicApiKey, openAIApiKey, bedrockApiSecret, secretAccessKey, sessionToken,
 * accessToken, and a bare `token` (cohere-ai's CohereClient keeps its key as `_options.token`), not `stop_token` or `maxTokens`.
 */
const SECRET_FIELD = /(?:api_?key|secret|secret_?access_?key|(?:^_?|session_?|bearer_?|auth_?|access_?|refresh_?|api_?)token|access_?key_?id|password)$/i;
const CONTAINERS: ReadonlySet<string> = new Set(["lc_kwargs", "fields", "clientOptions", "clientConfig", "configuration", "credentials", "client", "_options"]);
/** Where a client keeps the headers and query parameters it adds to every request. */
const HTTP_CONTAINERS: ReadonlySet<string> = new Set(["defaultHeaders", "defaultQuery", "headers", "query"]);
/** A header or query parameter that holds a credential: Authorization, x-api-key, api-key, Ocp-Apim-Subscription-Key, x-auth-token, key (Google's query). */
const HTTP_SECRET_NAME = /(?:authorization|api[-_]?key|subscription[-_]?key|token|secret|password|^key)$/i;
/** An Authorization value's scheme: the credential is what follows it. */
const AUTH_SCHEME = /^(?:bearer|basic|token|bot|apikey|sharedaccesssignature)\s+(\S+)$/i;
const MAX_DEPTH = 3;

/** Whether a field of that name holds a credential, by the same rule `clientSecrets` reads a client with. */
export function isCredentialName(name: string): boolean {
  return SECRET_FIELD.test(name);
}

export function clientSecrets(model: Record<string, unknown>): string[] {
  const out: string[] = [];
  collect(model, 0, out, new Set());
  return out;
}

/** `http`: `obj` is a client's headers or query parameters (read by their HTTP names). */
function collect(obj: object, depth: number, out: string[], seen: Set<object>, http = false): void {
  if (depth > MAX_DEPTH || seen.has(obj)) return;
  seen.add(obj);
  let entries: [string, unknown][];
  try {
    entries = http ? httpEntries(obj) : Object.entries(obj);
  } catch {
    return; // a proxy or an accessor that throws: nothing readable here
  }
  for (const [k, list] of entries) {
    // a header given several values (the OpenAI SDK's Record<string, string | string[]>): each under its name
    for (const v of http && Array.isArray(list) ? list : [list]) collectOne(k, v, depth, out, seen, http);
  }
}

/** One member `k` of a client object (or, `http`, one header or query value): a credential it is, or a container to read. */
function collectOne(k: string, v: unknown, depth: number, out: string[], seen: Set<object>, http: boolean): void {
  if (typeof v === "string") {
    const value = http ? (AUTH_SCHEME.exec(v.trim())?.[1] ?? v) : v;
    if (value.length >= 8 && (http ? HTTP_SECRET_NAME : SECRET_FIELD).test(k) && !out.includes(value)) out.push(value);
  } else if (v !== null && typeof v === "object" && !http && (CONTAINERS.has(k) || HTTP_CONTAINERS.has(k))) {
    collect(v, depth + 1, out, seen, HTTP_CONTAINERS.has(k));
  }
}

/**
 * The name/value pairs of a client's headers or query parameters, in each form an SDK takes
 * them: a record, a `Headers` (also one of another realm, or where the global is missing: jsdom),
 * a `Map`, or a list of `[name, value]` pairs (the OpenAI SDK's `HeadersLike`).
 */
function httpEntries(obj: object): [string, unknown][] {
  const pairs = Array.isArray(obj) ? obj : obj instanceof Map || isHeadersLike(obj) ? [...(obj as Map<unknown, unknown>).entries()] : undefined;
  if (!pairs) return Object.entries(obj);
  return pairs.filter((p): p is [string, unknown] => Array.isArray(p) && p.length === 2 && typeof p[0] === "string");
}

function isHeadersLike(obj: object): boolean {
  const h = obj as { entries?: unknown; get?: unknown; has?: unknown };
  return typeof h.entries === "function" && typeof h.get === "function" && typeof h.has === "function";
}

/** How long `callSecrets` waits for an AWS client's credentials: the live call has just resolved them, so the SDK answers at once. */
const CREDENTIALS_WAIT_MS = 1000;

/**
 * What `clientSecrets` finds, and what the client's AWS SDK client signed the call with: its
 * bearer token when it has one (then its credential chain never ran, and asking it would walk
 * the chain: profiles, `credential_process`, the instance metadata service), else the secret
 * key and session token its credentials provider resolved for the call, which it keeps.
 */
export async function callSecrets(model: Record<string, unknown>): Promise<string[]> {
  const out = clientSecrets(model);
  const config = (model.client as { config?: { credentials?: unknown; token?: unknown } } | undefined)?.config;
  const bearer = typeof config?.token === "function";
  const provider = bearer ? config?.token : config?.credentials;
  if (typeof provider !== "function") return out;
  let timer: NodeJS.Timeout | undefined;
  try {
    const creds = (await Promise.race([
      Promise.resolve().then(() => (provider as () => unknown)()),
      new Promise((resolve) => (timer = setTimeout(resolve, CREDENTIALS_WAIT_MS).unref())),
    ])) as Record<string, unknown> | undefined;
    for (const k of bearer ? ["token"] : ["secretAccessKey", "sessionToken"]) {
      const v = creds?.[k];
      if (typeof v === "string" && v.length >= 8 && !out.includes(v)) out.push(v);
    }
  } catch {
    // no credentials: the live call that just answered did not need them
  } finally {
    clearTimeout(timer);
  }
  return out;
}

/** Environment variables named as credentials: OPENAI_API_KEY, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN, GITHUB_TOKEN, DB_PASSWORD, ... */
const SECRET_ENV = /(?:api_?key|secret|secret_?(?:access_?)?key|(?:_|access|auth|session|bearer|refresh)token|password|passwd)$/i;

/**
 * The values of the environment's credential variables, which no fixture may hold whatever
 * client or tool reads them. Only values shaped like a credential (12 characters or more, no
 * space, a digit among them): `DB_PASSWORD=password` must not refuse every prompt about passwords.
 */
export function envSecrets(env: NodeJS.ProcessEnv = process.env): KnownSecret[] {
  const out: KnownSecret[] = [];
  for (const [variable, value] of Object.entries(env)) {
    if (value === undefined || value.length < 12 || /\s/.test(value) || !/\d/.test(value)) continue;
    if (SECRET_ENV.test(variable) && !isVcrEnv(variable)) out.push({ value, variable });
  }
  return out;
}
