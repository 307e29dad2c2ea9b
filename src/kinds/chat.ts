/** The `chat` kind: one chat-model call through `cache: vcr.cache`; its response is the generations. */
import { generationsProblem } from "../adapters/chat/generations";
import { MODEL_UPGRADES, modelRender, modelTitle, renderGenerations, reviewGenerations } from "./model";
import type { KindSpec } from "./types";

export const chat: KindSpec = {
  name: "chat",
  shape: `{ "generations": [ { "text", "message"?: { "type", "content", ... }, "generationInfo"? } ] }`,
  responseProblem: generationsProblem,
  render: modelRender("generations", renderGenerations),
  noteNearMiss: true,
  upgrades: MODEL_UPGRADES,
  review: reviewGenerations,
  title: modelTitle,
};
