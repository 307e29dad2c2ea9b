/** The canonical request of one chat-model or text-completion call: the whole pre-image of its hash. */
import { canonicalMessages } from "./messages";
import type { Normalize } from "./normalize";
import { clientOnlyParams } from "./clientParams";
import { rememberedParams } from "./paramsMemo";
import { copyJson } from "./copy";
import { defineMember } from "./json";
import { isKeyedParam } from "./params";

/** The parts of a LangChain model this module reads; both BaseChatModel and BaseLLM have them. */
export interface ModelLike {
  invocationParams?(options?: unknown): unknown;
  getLsParams?(options?: unknown): { ls_model_name?: string; ls_provider?: string };
  model?: string;
  modelName?: string;
  _llmType?(): string;
}

/**
 * Everything a call's canonical request is computed from, and nothing else (the pre-image of
 * `requestOf`; `canonical/hashMemo.ts` compares them to find a request's hash again).
 */
export interface CallParts {
  /** What the client sends as parameters: its `invocationParams()`, and what it sends beside them (the members set and keyed). */
  params: Record<string, unknown>;
  /** The model's name when its parameters may not hold one (`params.model` unset). */
  name: unknown;
  /** The canonical messages (chat), or the normalized prompt (text completion). */
  messages?: unknown[];
  prompt?: string;
}

export function chatParts(model: ModelLike, messages: readonly unknown[], callOptions: unknown, normalize: Normalize): CallParts {
  const params = rawParams(model, callOptions);
  return { params, name: fallbackName(model, params, callOptions), messages: canonicalMessages(messages, normalize) };
}

export function llmParts(model: ModelLike, prompt: string, callOptions: unknown, normalize: Normalize): CallParts {
  const params = rawParams(model, callOptions);
  return { params, name: fallbackName(model, params, callOptions), prompt: normalize(prompt) };
}

/** The canonical request of `parts`, sharing no object with them (the hash memo builds requests from what it keeps). */
export function requestOf(model: object, parts: CallParts): Record<string, unknown> {
  const params = rememberedParams(model, parts.params);
  if (params.model === undefined && parts.name !== undefined) params.model = parts.name;
  return parts.messages !== undefined ? { ...params, messages: copyJson(parts.messages) } : { ...params, prompt: parts.prompt };
}

export function chatRequest(model: ModelLike, messages: readonly unknown[], callOptions: unknown, normalize: Normalize): Record<string, unknown> {
  return requestOf(model, chatParts(model, messages, callOptions, normalize));
}

function rawParams(model: ModelLike, callOptions: unknown): Record<string, unknown> {
  const own = (model.invocationParams?.(callOptions) ?? {}) as Record<string, unknown>;
  const extra = clientOnlyParams(model);
  return keyedMembers(extra === undefined ? own : { ...extra, ...own });
}

/**
 * The members of `params` that can reach the canonical parameters: its own enumerable ones
 * (as `canonicalParams` lists them) that are set and not excluded at the top level, where
 * `canonicalParams` drops the others whatever else is set. Most of a client's parameters are
 * unset (ChatOpenAI: 22 of 24), so the parts the hash memo compares on every call stay small.
 */
function keyedMembers(params: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(params)) {
    const v = params[k];
    if (isKeyedParam(k, v)) defineMember(out, k, v);
  }
  return out;
}

/**
 * The name a request is keyed under when its parameters hold no `model`: read only then (the
 * canonical parameters keep any own `model` that is set, so a set one always wins; they read
 * own enumerable members only, as this does).
 */
function fallbackName(model: ModelLike, params: Record<string, unknown>, callOptions: unknown): unknown {
  if (Object.prototype.propertyIsEnumerable.call(params, "model") && params.model !== undefined && params.model !== null) return undefined;
  return model.getLsParams?.(callOptions)?.ls_model_name ?? model.model ?? model.modelName;
}
