/** The `llm` kind: one text-completion call (a BaseLLM with `cache: vcr.cache`); generations without messages. */
import { generationsProblem } from "../adapters/chat/generations";
import { chat } from "./chat";
import type { KindSpec } from "./types";

export const llm: KindSpec = { ...chat, name: "llm", shape: `{ "generations": [ { "text", "generationInfo"? }, ... ] }`, responseProblem: generationsProblem };
