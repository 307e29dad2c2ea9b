/**
 * A readable rendering of one fixture for `langchain-vcr show`: the envelope, then the
 * request and the answer as its kind renders them (src/kinds/). A kind this version does
 * not know is printed as JSON, so nothing is ever hidden.
 */
import { kindSpec } from "../kinds";
import { indent, isRec, json } from "../kinds/text";
import { SCHEMA_VERSION, type Fixture } from "../store/fixture";

export function renderFixture(f: Fixture, where: string, extra: readonly string[] = []): string {
  const out: string[] = [where];
  out.push(`  kind:     ${f.kind}`, `  hash:     ${f.hash}`, `  recorded: ${f.recordedAt}${f.redacted ? "  (redacted)" : ""}`);
  if (f.schemaVersion < SCHEMA_VERSION)
    out.push(`  schema:   ${f.schemaVersion}, older than this langchain-vcr's ${SCHEMA_VERSION}: never read until you run npx langchain-vcr migrate`);
  out.push(...extra);
  const spec = kindSpec(f.kind);
  if (spec) spec.render(isRec(f.request) ? f.request : {}, isRec(f.response) ? f.response : {}, f.response, out);
  else out.push("request:", indent(json(f.request), "  "), "response:", indent(json(f.response), "  "));
  return out.join("\n") + "\n";
}
