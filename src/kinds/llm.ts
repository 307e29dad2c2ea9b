/** The `llm` kind: one text-completion call (a BaseLLM with `cache: vcr.cache`); generations without messages. */
import { generationsProblem, type GenerationsResponse } from "../adapters/chat/generations";
import { chat } from "./chat";
import { generationShapesProblem } from "./messageShape";
import type { KindSpec } from "./types";

export const llm: KindSpec = { ...chat, name: "llm", shape: `{ "generations": [ { "text", "generationInfo"? }, ... ] }`, responseProblem: llmResponseProblem };

function llmResponseProblem(response: unknown): string | undefined {
  return generationsProblem(response) ?? generationShapesProblem((response as GenerationsResponse).generations);
}
