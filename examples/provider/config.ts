/**
 * Which model provider the examples talk to when they record. (Replays talk to none.)
 *
 * | environment                                  | OpenAI examples                  | Ollama examples      |
 * |----------------------------------------------|----------------------------------|----------------------|
 * | nothing set (the default)                    | the stand-in                     | the stand-in         |
 * | `OPENAI_API_KEY` (optional `OPENAI_BASE_URL`) | real OpenAI                      | (by `OLLAMA_HOST`)   |
 * | `OLLAMA_HOST` set and answering              | (by `OPENAI_API_KEY`)            | real Ollama          |
 * | `EXAMPLES_PROVIDER=standin`                  | the stand-in, whatever else is set                      |
 * | `EXAMPLES_PROVIDER=off`                      | nothing: a closed port; only replay can pass            |
 *
 * The stand-in (./server.ts) is a deterministic local server, not a model. Real Ollama needs
 * the models the examples name (`ollama pull llama3.2`, `ollama pull nomic-embed-text`).
 *
 * The examples' root hook (examples/support/hooks.ts) calls `chooseProvider()` before any
 * example file loads, starts the stand-in when the plan needs it, and passes the result to
 * `useProvider()`. Examples spread the connection settings into their clients:
 * `new ChatOpenAI({ ...provider.openai, model, cache })`, `new ChatOllama({ ...provider.ollama, model, cache })`.
 * None of these settings is part of a fixture's key, so fixtures recorded with the stand-in
 * replay whichever provider is configured.
 */

export type Source = "real" | "stand-in" | "off";

export interface ProviderPlan {
  openai: Source;
  ollama: Source;
  /** real OpenAI only */
  openaiApiKey?: string;
  openaiBaseURL?: string;
  /** real Ollama only */
  ollamaBaseUrl?: string;
  /** Why a configured provider is not used (e.g. OLLAMA_HOST not answering). */
  notes: string[];
}

/** Spread into `ChatOpenAI` / `OpenAIEmbeddings` fields. */
export interface OpenAIConnection {
  apiKey: string;
  maxRetries?: number;
  configuration: { baseURL: string };
}

/** Spread into `ChatOllama` / `OllamaEmbeddings` fields. */
export interface OllamaConnection {
  baseUrl: string;
  maxRetries?: number;
}

/** The stand-in's key: not a secret and not shaped like one; it never reaches a fixture. */
export const STAND_IN_KEY = "stand-in-not-a-real-key";

/** `OLLAMA_HOST` as the Ollama CLI accepts it (`host`, `host:port`, `http://host:port`) → a base URL. */
export function ollamaBaseUrlFrom(host: string): string {
  let url = /^https?:\/\//.test(host) ? host : `http://${host}`;
  url = url.replace(/\/+$/, "");
  const u = new URL(url);
  if (u.hostname === "0.0.0.0") u.hostname = "127.0.0.1";
  if (!u.port && !/^https?:\/\/[^/]+:\d+/.test(url)) u.port = "11434";
  return u.toString().replace(/\/+$/, "");
}

async function answers(baseUrl: string): Promise<boolean> {
  try {
    const res = await fetch(`${baseUrl}/api/version`, { signal: AbortSignal.timeout(1500) });
    return res.ok;
  } catch {
    return false;
  }
}

/** Decides, from the environment, which provider each family of examples records against. */
export async function chooseProvider(env: NodeJS.ProcessEnv = process.env): Promise<ProviderPlan> {
  const forced = (env.EXAMPLES_PROVIDER ?? "").trim().toLowerCase();
  if (forced === "off") return { openai: "off", ollama: "off", notes: [] };
  if (forced === "standin" || forced === "stand-in") return { openai: "stand-in", ollama: "stand-in", notes: [] };
  if (forced !== "" && forced !== "auto") {
    throw new Error(`EXAMPLES_PROVIDER=${JSON.stringify(env.EXAMPLES_PROVIDER)} is not one of: auto, standin, off.`);
  }
  const plan: ProviderPlan = { openai: "stand-in", ollama: "stand-in", notes: [] };
  if (env.OPENAI_API_KEY) {
    plan.openai = "real";
    plan.openaiApiKey = env.OPENAI_API_KEY;
    plan.openaiBaseURL = env.OPENAI_BASE_URL || "https://api.openai.com/v1";
  }
  if (env.OLLAMA_HOST) {
    const baseUrl = ollamaBaseUrlFrom(env.OLLAMA_HOST);
    if (await answers(baseUrl)) {
      plan.ollama = "real";
      plan.ollamaBaseUrl = baseUrl;
    } else {
      plan.notes.push(`OLLAMA_HOST=${env.OLLAMA_HOST} does not answer (${baseUrl}/api/version): the Ollama examples use the stand-in`);
    }
  }
  return plan;
}

export function needsStandIn(plan: ProviderPlan): boolean {
  return plan.openai === "stand-in" || plan.ollama === "stand-in";
}

interface Resolved {
  plan: ProviderPlan;
  openai: OpenAIConnection;
  ollama: OllamaConnection;
}

let resolved: Resolved | undefined;

/**
 * Fixes the connections for this run. `localUrl` is the stand-in's address (or, for
 * `off`, an address nothing listens on): `http://127.0.0.1:PORT`.
 */
export function useProvider(plan: ProviderPlan, localUrl: string | undefined): void {
  const local = (what: string) => {
    if (!localUrl) throw new Error(`useProvider: the ${what} examples need the stand-in's URL`);
    return localUrl;
  };
  resolved = {
    plan,
    openai:
      plan.openai === "real"
        ? { apiKey: plan.openaiApiKey!, configuration: { baseURL: plan.openaiBaseURL! } }
        : { apiKey: STAND_IN_KEY, maxRetries: 0, configuration: { baseURL: `${local("OpenAI")}/v1` } },
    ollama: plan.ollama === "real" ? { baseUrl: plan.ollamaBaseUrl! } : { baseUrl: local("Ollama"), maxRetries: 0 },
  };
}

function current(): Resolved {
  if (!resolved) {
    throw new Error(
      "The examples' provider is not chosen yet: run the examples through their mocha config " +
        "(npm run examples, or npx mocha --config examples/.mocharc.json <file>), whose root hook chooses it.",
    );
  }
  return resolved;
}

/** What the examples connect to. Read it when building a client (it is fixed for the whole run). */
export const provider = {
  /** `{ apiKey, configuration: { baseURL } }` for ChatOpenAI / OpenAIEmbeddings. */
  get openai(): OpenAIConnection {
    return { ...current().openai, configuration: { ...current().openai.configuration } };
  },
  /** `{ baseUrl }` for ChatOllama / OllamaEmbeddings. */
  get ollama(): OllamaConnection {
    return { ...current().ollama };
  },
  /** A real provider is configured (the live smoke test runs). */
  get real(): boolean {
    return this.realOpenAI || this.realOllama;
  },
  get realOpenAI(): boolean {
    return current().plan.openai === "real";
  },
  get realOllama(): boolean {
    return current().plan.ollama === "real";
  },
  /** One line for logs: "OpenAI: stand-in http://127.0.0.1:PORT/v1; Ollama: real http://...". */
  describe(): string {
    const { plan, openai, ollama } = current();
    const one = (s: Source, url: string) => (s === "off" ? "off (nothing listens; replay only)" : `${s} ${url}`);
    return `OpenAI: ${one(plan.openai, openai.configuration.baseURL)}; Ollama: ${one(plan.ollama, ollama.baseUrl)}`;
  },
};
