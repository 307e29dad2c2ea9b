/** The `chat` kind: one chat-model call through `cache: vcr.cache`; its response is the generations. */
import { generationsProblem } from "../adapters/chat/generations";
import { modelRender, modelTitle, renderGenerations } from "./model";
import type { KindSpec } from "./types";

export const chat: KindSpec = {
  name: "chat",
  shape: `{ "generations": [ { "text", "message"?: { "type", "content", ... }, "generationInfo"? } ] }`,
  responseProblem: generationsProblem,
  render: modelRender("generations", renderGenerations),
  noteNearMiss: true,
  title: modelTitle,
};
