/**
 * The canonical embedding request: everything that changes a vector — provider, model,
 * dimensions, output-changing options, query vs document, and the (normalized) text — read
 * from the wrapped `Embeddings` instance's own fields. Never keys, hosts, ports, batch sizes,
 * timeouts, retries or concurrency: those change how a vector travels, not what it is.
 */
import type { Normalize } from "../../canonical/normalize";

export type EmbeddingInputType = "query" | "document";

/** What the wrapped instance contributes to every request it makes. */
export interface EmbeddingsIdentity {
  /** Neutral provider name: "openai", "azure_openai", "ollama", else the class name. */
  provider: string;
  /** Class name, for messages only (never hashed). */
  className: string;
  model?: string;
  dimensions?: number;
  /** Output-changing options the instance holds (sorted at hash time). */
  options: Record<string, unknown>;
}

export interface EmbeddingRequest {
  provider: string;
  model?: string;
  dimensions?: number;
  options: Record<string, unknown>;
  input_type: EmbeddingInputType;
  text: string;
}

/** Class names of the LangChain integrations we know, and their neutral provider names. */
const PROVIDERS: Readonly<Record<string, string>> = {
  OpenAIEmbeddings: "openai",
  AzureOpenAIEmbeddings: "azure_openai",
  OllamaEmbeddings: "ollama",
};

/**
 * Instance fields that change the vector, across LangChain integrations: OpenAI
 * `encodingFormat` / `stripNewLines` (newlines become spaces before sending), Ollama and
 * Cohere `truncate`, Google `taskType` / `title` / `outputDimensionality`, Cohere / Voyage
 * `inputType` / `embeddingTypes` / `outputDtype`, Mistral / Voyage `outputDimension`,
 * Jina `task` / `normalized` / `lateChunking`, Bedrock `normalize`. Only plain JSON values
 * (scalars and arrays of scalars) are read; anything else on the instance is ignored.
 */
const OUTPUT_FIELDS = [
  "encodingFormat",
  "stripNewLines",
  "truncate",
  "truncation",
  "taskType",
  "title",
  "inputType",
  "embeddingTypes",
  "embeddingType",
  "outputDimension",
  "outputDimensionality",
  "outputDtype",
  "task",
  "normalized",
  "normalize",
  "lateChunking",
] as const;

/**
 * Ollama `requestOptions` (snake_cased by the client) that only place or pace the work
 * (GPU layers, threads, memory mapping, batch size): they never change the vector. Every
 * other option (e.g. `num_ctx`, which sets where input is truncated) is part of the key.
 */
const OLLAMA_RUNTIME_OPTIONS = new Set(["num_gpu", "main_gpu", "low_vram", "num_thread", "use_mmap", "use_mlock", "numa", "num_batch"]);

/**
 * Wrappers that never change a vector, only where it comes from: the key is the wrapped
 * model's, so wrapping `CacheBackedEmbeddings(OpenAIEmbeddings)` keys like `OpenAIEmbeddings`.
 */
const TRANSPARENT_WRAPPERS = new Set(["CacheBackedEmbeddings", "VcrEmbeddings"]);

/** Reads provider, model, dimensions and output-changing options off a LangChain `Embeddings`. */
export function embeddingsIdentity(outer: object): EmbeddingsIdentity {
  let inner = outer;
  for (let depth = 0; depth < 8 && TRANSPARENT_WRAPPERS.has(inner.constructor?.name ?? ""); depth++) {
    const next = (inner as { underlyingEmbeddings?: unknown }).underlyingEmbeddings;
    if (next === null || typeof next !== "object") break;
    inner = next;
  }
  const fields = inner as Record<string, unknown>;
  const className = (inner.constructor as { name?: string } | undefined)?.name || "Embeddings";
  const provider = PROVIDERS[className] ?? className;
  const model = firstString(fields.model, fields.modelName, fields.modelId);
  const dimensions = typeof fields.dimensions === "number" ? fields.dimensions : undefined;

  const options: Record<string, unknown> = {};
  for (const name of OUTPUT_FIELDS) {
    const value = plainValue(fields[name]);
    if (value !== undefined) options[name] = value;
  }
  // Azure routes by deployment: the deployment, not the `model` field, decides which model answers.
  const deployment = firstString(fields.azureOpenAIApiDeploymentName);
  if (deployment !== undefined) options.deployment = deployment;
  const requestOptions = ollamaRequestOptions(fields.requestOptions);
  if (requestOptions !== undefined) options.requestOptions = requestOptions;
  // BedrockEmbeddings merges `modelParameters` into every request body (Titan v2 `dimensions`, `normalize`)
  const modelParameters = plainObject(fields.modelParameters);
  if (modelParameters !== undefined) options.modelParameters = modelParameters;

  const identity: EmbeddingsIdentity = { provider, className, options };
  if (model !== undefined) identity.model = model;
  if (dimensions !== undefined) identity.dimensions = dimensions;
  return identity;
}

/** The request hashed for one text. `normalize` applies to the text only. */
export function embeddingRequest(identity: EmbeddingsIdentity, inputType: EmbeddingInputType, text: string, normalize: Normalize): EmbeddingRequest {
  const request: EmbeddingRequest = {
    provider: identity.provider,
    options: { ...identity.options },
    input_type: inputType,
    text: normalize(text),
  };
  if (identity.model !== undefined) request.model = identity.model;
  if (identity.dimensions !== undefined) request.dimensions = identity.dimensions;
  return request;
}

const MAX_TEXT_CHARS = 80;

/** `OpenAIEmbeddings (model "text-embedding-3-small")`, for messages. */
export function describeEmbeddings(identity: EmbeddingsIdentity): string {
  const facts: string[] = [];
  if (identity.model !== undefined) facts.push(`model ${JSON.stringify(identity.model)}`);
  if (identity.dimensions !== undefined) facts.push(`dimensions ${identity.dimensions}`);
  return facts.length ? `${identity.className} (${facts.join(", ")})` : identity.className;
}

/** `OpenAIEmbeddings (model "text-embedding-3-small") for the document text "…"`, for messages. */
export function describeEmbedding(identity: EmbeddingsIdentity, request: EmbeddingRequest): string {
  return `${describeEmbeddings(identity)} for the ${request.input_type} text ${truncateText(request.text)}`;
}

/** The text as a JSON string literal, cut to about 80 characters. */
export function truncateText(text: string, max = MAX_TEXT_CHARS): string {
  return text.length > max ? JSON.stringify(text.slice(0, max)).slice(0, -1) + '…"' : JSON.stringify(text);
}

function firstString(...values: unknown[]): string | undefined {
  for (const v of values) if (typeof v === "string" && v !== "") return v;
  return undefined;
}

/** A JSON scalar or an array of JSON scalars; anything else (functions, clients, objects) is not an option. */
function plainValue(v: unknown): unknown {
  if (typeof v === "string" || typeof v === "boolean") return v;
  if (typeof v === "number") return Number.isFinite(v) ? v : undefined;
  if (Array.isArray(v) && v.every((x) => ["string", "number", "boolean"].includes(typeof x))) return [...v];
  return undefined;
}

/** An object of plain values (see plainValue), or undefined when it has none. */
function plainObject(v: unknown): Record<string, unknown> | undefined {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(v)) {
    const plain = plainValue(value);
    if (plain !== undefined) out[k] = plain;
  }
  return Object.keys(out).length ? out : undefined;
}

function ollamaRequestOptions(v: unknown): Record<string, unknown> | undefined {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
  const out: Record<string, unknown> = {};
  for (const [k, value] of Object.entries(v)) {
    if (OLLAMA_RUNTIME_OPTIONS.has(k) || value === undefined) continue;
    out[k] = value;
  }
  return Object.keys(out).length ? out : undefined;
}
