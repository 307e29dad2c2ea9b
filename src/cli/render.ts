/**
 * A readable rendering of one fixture for `langchain-vcr show`: the envelope, then the
 * request and the answer as its kind renders them (src/kinds/). A kind this version does
 * not know is printed as JSON, so nothing is ever hidden.
 */
import { kindSpec } from "../kinds";
import { indent, isRec, json } from "../kinds/text";
import { SCHEMA_VERSION, type Fixture } from "../store/fixture";
import { recordedProvider } from "../adapters/chat/answeredBy";
import { recordedOpenAiApi } from "../adapters/chat/openaiApi";

export function renderFixture(f: Fixture, where: string, extra: readonly string[] = []): string {
  const out: string[] = [where];
  out.push(`  kind:     ${f.kind}`, `  hash:     ${f.hash}`, `  recorded: ${f.recordedAt}${f.redacted ? "  (redacted)" : ""}`);
  const from = answeredBy(f);
  if (from) out.push(`  answer:   ${from}`);
  if (f.schemaVersion < SCHEMA_VERSION)
    out.push(`  schema:   ${f.schemaVersion}, older than this langchain-vcr's ${SCHEMA_VERSION}: never read until you run npx langchain-vcr migrate`);
  out.push(...extra);
  const spec = kindSpec(f.kind);
  if (spec) spec.render(isRec(f.request) ? f.request : {}, isRec(f.response) ? f.response : {}, f.response, out);
  else out.push("request:", indent(json(f.request), "  "), "response:", indent(json(f.response), "  "));
  return out.join("\n") + "\n";
}

/**
 * Who gave a chat answer, as replay reads it (adapters/chat/answeredBy.ts, openaiApi.ts): `from groq`,
 * `from openai, Responses API`; undefined when the answer names neither (trial 43: two providers' answers
 * to one model name looked alike in `show`).
 */
function answeredBy(f: Fixture): string | undefined {
  if (f.kind !== "chat" && f.kind !== "chat_stream") return undefined;
  const provider = recordedProvider(f.response);
  const api = recordedOpenAiApi(f.response);
  const parts = [provider === undefined ? undefined : `from ${provider}`, provider === "openai" || provider === undefined ? api : undefined].filter(
    (p) => p !== undefined,
  );
  return parts.length ? parts.join(", ") : undefined;
}
