/** The `chat` kind: one chat-model call through `cache: vcr.cache`; its response is the generations. */
import { generationsProblem } from "../adapters/chat/generations";
import { generationShapesProblem, messageProblem } from "./messageShape";
import { MODEL_UPGRADES, modelRender, modelTitle, renderGenerations, reviewGenerations } from "./model";
import type { KindSpec, Rec } from "./types";

export const chat: KindSpec = {
  name: "chat",
  shape: `{ "generations": [ { "text", "message": { "type", "content", ... }, "generationInfo"? }, ... ] }`,
  responseProblem: chatResponseProblem,
  render: modelRender("generations", renderGenerations),
  noteNearMiss: true,
  upgrades: MODEL_UPGRADES,
  review: reviewGenerations,
  title: modelTitle,
};

/**
 * A chat fixture's response, as replay hands it to LangChain: at least one generation (core
 * reads the first), each with a message whose members LangChain can take (./messageShape.ts).
 */
export function chatResponseProblem(response: unknown): string | undefined {
  const bad = generationsProblem(response);
  if (bad) return bad;
  const gens = (response as { generations: { message?: Rec; shape?: unknown }[] }).generations;
  if (gens.length === 0) return `has an empty "response.generations" (a chat call answers with at least one generation)`;
  for (const [i, g] of gens.entries()) {
    if (g.message === undefined) return `has a "response.generations[${i}].message" missing (a chat generation holds its message)`;
    const problem = messageProblem(g.message, `response.generations[${i}].message`);
    if (problem) return problem;
  }
  return generationShapesProblem(gens);
}
