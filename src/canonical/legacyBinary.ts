/**
 * The requests a chat call is also found under, for a lookup that finds no fixture under its
 * own (`LookupOptions.alike`): the client's other spelling (./spellings.ts), and the request as
 * langchain-vcr 0.3.0 made it canonical, which kept the base64 one level down in a content
 * block (Anthropic's `source: {type: "base64", data}`, OpenAI's `input_audio: {data}`) and in
 * Google's `media` and Anthropic's `document` blocks (./content.ts). A fixture 0.3.0 wrote for
 * such a request keeps replaying; the call records under its own request, with the bytes
 * digested. Built only on a miss.
 */
import { isDeepStrictEqual } from "node:util";
import { withLegacyBinary } from "./content";
import { otherSpelling } from "./spellings";

/** `request`'s other forms, most likely first: its other spelling, its 0.3.0 form, and that form's other spelling. */
export function alikeRequests(model: object, request: () => unknown, build: () => unknown): unknown[] {
  const out: unknown[] = [];
  const spelled = otherSpelling(model, request);
  if (spelled !== undefined) out.push(spelled);
  // `request` may be another form of the call (ChatOpenAI's other API, adapters/chat/openaiApi.ts), which `build` does not make: no 0.3.0 form of it
  const current = build();
  if (!isDeepStrictEqual(current, request())) return out;
  const older = withLegacyBinary(build);
  if (isDeepStrictEqual(older, current)) return out; // no binary data 0.3.0 kept: no other form
  out.push(older);
  const olderSpelled = otherSpelling(model, () => older);
  if (olderSpelled !== undefined) out.push(olderSpelled);
  return out;
}
