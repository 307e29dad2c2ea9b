/**
 * The `moderation` kind: one call of OpenAI's moderation endpoint that a LangChain class makes
 * through its SDK client, outside any model call (`openAIModerationMiddleware`,
 * `ChatOpenAI.moderateContent()`), reached under `vcr.install()` (src/adapters/moderation/).
 * Its response is the endpoint's JSON body, as the SDK client parses it.
 */
import { indent, isRec, json } from "./text";
import type { KindSpec } from "./types";

export const moderation: KindSpec = {
  name: "moderation",
  shape: `the moderation endpoint's answer: { "results": [ { "flagged", "categories", "category_scores", … } ], … }`,
  responseProblem(response) {
    if (!isRec(response)) return `has a "response" that is not an object`;
    if (!Array.isArray(response.results) || !response.results.every(isRec)) return `has no "response.results" array of objects`;
    return undefined;
  },
  render(req, res, raw, out) {
    out.push(`  model:    ${String(req.model ?? "(the endpoint's default)")}`, "input:", indent(json(req.input), "  "), "answer:");
    if (!Array.isArray(res.results)) return void out.push(indent(json(raw), "  "));
    for (const r of res.results.filter(isRec)) {
      const flagged = isRec(r.categories) ? Object.keys(r.categories).filter((k) => (r.categories as Record<string, unknown>)[k] === true) : [];
      out.push(`  ${r.flagged === true ? `flagged: ${flagged.join(", ") || "(no category named)"}` : "not flagged"}`);
    }
  },
  noteNearMiss: false,
  title(req) {
    const input = JSON.stringify(req.input ?? "");
    return `moderation: ${input.length > 60 ? input.slice(0, 57) + "..." : input}`;
  },
};
