/** The `chat` kind: one chat-model call through `cache: vcr.cache`; its response is the generations. */
import { generationsProblem } from "../adapters/chat/generations";
import { modelRender, modelTitle, renderGenerations, reviewGenerations } from "./model";
import { dropInertMembers } from "../canonical/inert";
import type { KindSpec, Rec } from "./types";

export const chat: KindSpec = {
  name: "chat",
  shape: `{ "generations": [ { "text", "message"?: { "type", "content", ... }, "generationInfo"? } ] }`,
  responseProblem: generationsProblem,
  render: modelRender("generations", renderGenerations),
  noteNearMiss: true,
  upgrades: { 1: ({ request, response }) => ({ request: dropInertMembers({ ...(request as Rec) }), response }) },
  review: reviewGenerations,
  title: modelTitle,
};
