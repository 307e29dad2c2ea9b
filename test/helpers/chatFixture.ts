/** A chat fixture as the recorder writes one (its hash the request's), for tests that build fixtures without recording them. */
import { requestHash } from "../../src/canonical/json";
import { SCHEMA_VERSION, type Fixture } from "../../src/store/fixture";

export function chatFixture(request: unknown, answer = "ok", recordedAt = "2026-01-01T00:00:00.000Z"): Fixture {
  return {
    schemaVersion: SCHEMA_VERSION,
    kind: "chat",
    hash: requestHash("chat", request),
    recordedAt,
    request,
    response: { generations: [{ text: answer, message: { type: "ai", content: answer } }] },
  };
}
