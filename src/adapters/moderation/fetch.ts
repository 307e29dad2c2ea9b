/**
 * OpenAI's moderation endpoint, called by LangChain outside any model call
 * (`openAIModerationMiddleware` from `langchain`, `ChatOpenAI.moderateContent()`): both call the
 * model's SDK client (`client.moderations.create`), which no cache or wrapper sees. The OpenAI SDK
 * client takes `globalThis.fetch` when it is built (at a model's first call, or its first
 * `_getClientOptions()`), so `vcr.install()` puts a wrapper there. The wrapper acts only on what an
 * OpenAI SDK client sends to `…/moderations` (a POST whose headers carry the SDK's
 * `x-stainless-lang`) while a Vcr is installed, and hands everything else to the fetch it wraps.
 * A langchain-vcr error (a `replay_only` miss, a damaged fixture, a secret refused) becomes an
 * HTTP 400 whose error message is its message: the SDK turns it into its own `BadRequestError`
 * with that message, and no client retries a 400.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { installedVcr } from "../../internals/state";
import { processWide } from "../../processWide";
import { isVcrError } from "../../errors";
import type { ModerationAnswer, ModerationBody } from "./call";

type Fetch = typeof globalThis.fetch;
type FetchArgs = Parameters<Fetch>;
type HeadersInit = NonNullable<NonNullable<FetchArgs[1]>["headers"]>;

/** What install() needs from a Vcr for this: ./call.ts's `moderate`, bound to its recorder. */
export type ModerateFn = (body: ModerationBody, live: () => Promise<Response>, secrets: readonly string[]) => Promise<ModerationAnswer>;

/** On the wrapper: the fetch it wraps (shared by the CommonJS and ESM builds through Symbol.for). */
const ORIGINAL = Symbol.for("langchain-vcr.moderationFetch.original.v1");

/**
 * Set while a wrapper sends a request on: another wrapper of ours further down the chain (one
 * put on top of a fetch that wraps ours, a spy or an interceptor) passes it through, instead of
 * waiting on the lookup the first one holds.
 */
const sending = processWide("moderationFetch.sending.v1", () => new AsyncLocalStorage<true>());

type Wrapper = Fetch & { [ORIGINAL]: Fetch };

const isWrapper = (f: unknown): f is Wrapper => typeof f === "function" && ORIGINAL in f;

/** Puts the wrapper on `globalThis.fetch` (once: a wrapper already there is kept). */
export function watchModerations(): void {
  const current = globalThis.fetch;
  if (typeof current !== "function" || isWrapper(current)) return;
  const wrapper = Object.assign((...args: FetchArgs) => answer(current, args), { [ORIGINAL]: current }) as Wrapper;
  globalThis.fetch = wrapper;
}

/** Puts the wrapped fetch back, when the wrapper is still what `globalThis.fetch` holds (a client built meanwhile keeps it: it passes through). */
export function unwatchModerations(): void {
  const current = globalThis.fetch;
  if (isWrapper(current)) globalThis.fetch = current[ORIGINAL];
}

async function answer(original: Fetch, args: FetchArgs): Promise<Response> {
  const moderate = (installedVcr() as { moderation?: ModerateFn } | undefined)?.moderation;
  const body = moderate && !sending.getStore() ? moderationBodyOf(args) : undefined;
  if (!moderate || !body) return original(...args);
  try {
    const got = await moderate(body, () => sending.run(true, () => original(...args)), secretsOf(args[1]?.headers));
    return "passThrough" in got ? got.passThrough : json(200, got.body);
  } catch (e) {
    if (!isVcrError(e)) throw e;
    const { message, code } = e as Error & { code?: string };
    // x-should-retry: the OpenAI SDK's own signal; a 400 is retried by no client today
    return json(400, { error: { message, type: "langchain_vcr_error", code: code ?? null, param: null } }, { "x-should-retry": "false" });
  }
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });
}

/** The body of an OpenAI SDK client's `POST …/moderations`, or undefined for any other request. */
export function moderationBodyOf([input, init]: FetchArgs): ModerationBody | undefined {
  const url = typeof input === "string" ? input : input instanceof URL ? input.href : undefined;
  if (url === undefined || (init?.method ?? "GET").toUpperCase() !== "POST" || typeof init?.body !== "string") return undefined;
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  if (!path.endsWith("/moderations") || header(init.headers, "x-stainless-lang") === undefined) return undefined;
  try {
    const body = JSON.parse(init.body) as unknown;
    return body !== null && typeof body === "object" && "input" in body ? (body as ModerationBody) : undefined;
  } catch {
    return undefined;
  }
}

function header(headers: HeadersInit | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const entries = Array.isArray(headers) ? headers : Object.entries(headers as Record<string, string>);
  return entries.find(([k]) => k.toLowerCase() === name)?.[1];
}

/** The credentials the request carries (`Authorization: Bearer …`, Azure's `api-key`): never written to a fixture. */
function secretsOf(headers: HeadersInit | undefined): string[] {
  const out: string[] = [];
  const bearer = /^Bearer\s+(\S+)$/i.exec(header(headers, "authorization") ?? "")?.[1];
  if (bearer && bearer.length >= 8) out.push(bearer);
  const key = header(headers, "api-key");
  if (key && key.length >= 8) out.push(key);
  return out;
}
