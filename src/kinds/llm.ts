/** The `llm` kind: one text-completion call (a BaseLLM with `cache: vcr.cache`); generations without messages. */
import { chat } from "./chat";
import type { KindSpec } from "./types";

export const llm: KindSpec = { ...chat, name: "llm" };
