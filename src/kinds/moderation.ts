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
  responseProblem(response, request) {
    if (!isRec(response)) return `has a "response" that is not an object`;
    const results = response.results;
    if (!Array.isArray(results) || !results.every(isRec)) return `has no "response.results" array of objects`;
    // one result per input: a string input is one, a list one per item
    const input = isRec(request) ? request.input : undefined;
    const expected = Array.isArray(input) ? input.length : 1;
    if (results.length !== expected) return `has ${results.length} "response.results" for ${expected} input(s)`;
    const bad = results.findIndex((r) => typeof r.flagged !== "boolean" || !isRec(r.categories) || !isRec(r.category_scores));
    if (bad >= 0) return `has a "response.results[${bad}]" without a boolean "flagged" and "categories" and "category_scores" objects`;
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
    return input.length > 60 ? input.slice(0, 57) + "..." : input;
  },
};
