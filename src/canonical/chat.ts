/** The canonical request of one chat-model or text-completion call: the whole pre-image of its hash. */
import { canonicalMessages } from "./messages";
import type { Normalize } from "./normalize";
import { clientOnlyParams } from "./clientParams";
import { rememberedParams } from "./paramsMemo";

/** The parts of a LangChain model this module reads; both BaseChatModel and BaseLLM have them. */
export interface ModelLike {
  invocationParams?(options?: unknown): unknown;
  getLsParams?(options?: unknown): { ls_model_name?: string; ls_provider?: string };
  model?: string;
  modelName?: string;
  _llmType?(): string;
}

export function modelParams(model: ModelLike, callOptions: unknown): Record<string, unknown> {
  const own = (model.invocationParams?.(callOptions) ?? {}) as Record<string, unknown>;
  const extra = clientOnlyParams(model);
  const inv = extra === undefined ? own : { ...extra, ...own };
  const params = rememberedParams(model, inv);
  if (params.model === undefined) {
    const name = model.getLsParams?.(callOptions)?.ls_model_name ?? model.model ?? model.modelName;
    if (name !== undefined) params.model = name;
  }
  return params;
}

export function chatRequest(model: ModelLike, messages: readonly unknown[], callOptions: unknown, normalize: Normalize): Record<string, unknown> {
  return { ...modelParams(model, callOptions), messages: canonicalMessages(messages, normalize) };
}

export function llmRequest(model: ModelLike, prompt: string, callOptions: unknown, normalize: Normalize): Record<string, unknown> {
  return { ...modelParams(model, callOptions), prompt: normalize(prompt) };
}
