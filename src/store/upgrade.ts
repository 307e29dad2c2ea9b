/**
 * A fixture of an older schema version, rewritten to the current one offline: each version
 * step of its kind (`KindSpec.upgrades`), then the hash of the upgraded request under the
 * current version, which is also its new file name. Used by `langchain-vcr migrate` and by
 * the miss diagnostics (to compare an older fixture's request with a new one).
 */
import { requestHash } from "../canonical/json";
import { kindSpec } from "../kinds";
import { SCHEMA_VERSION, type Fixture } from "./fixture";

export type Upgraded = { fixture: Fixture; problem?: undefined } | { fixture?: undefined; problem: string };

/** The request and response of `f` in the current version's form (no hash check). */
export function upgradedParts(f: Fixture): { request: unknown; response: unknown } {
  const spec = kindSpec(f.kind);
  let parts = { request: f.request, response: f.response };
  for (let v = f.schemaVersion; v < SCHEMA_VERSION; v++) {
    const step = spec?.upgrades?.[v];
    if (step) parts = step(structuredClone(parts));
  }
  return parts;
}

/** `f` in the current version, or why it cannot be upgraded offline. */
export function upgradeFixture(f: Fixture): Upgraded {
  if (f.schemaVersion > SCHEMA_VERSION)
    return { problem: `has schemaVersion ${f.schemaVersion}, newer than this langchain-vcr understands (${SCHEMA_VERSION})` };
  if (f.schemaVersion === SCHEMA_VERSION) return { fixture: f };
  if (f.redacted === true) {
    return {
      problem: `is marked "redacted": its request no longer gives the hash it was filed under, so it cannot be renamed offline; delete it and re-record it`,
    };
  }
  const actual = requestHash(f.kind, f.request, f.schemaVersion);
  if (actual !== f.hash) return { problem: `has a "request" that does not hash to its name (it hashes to ${actual}): it was edited by hand or merged badly` };
  let parts: { request: unknown; response: unknown };
  try {
    parts = upgradedParts(f);
  } catch (e) {
    return { problem: `could not be upgraded: ${(e as Error).message}` };
  }
  const { request, response } = parts;
  const problem = kindSpec(f.kind)?.responseProblem(response);
  if (problem) return { problem: `${problem}, so replay could not use it` };
  return { fixture: { ...f, schemaVersion: SCHEMA_VERSION, hash: requestHash(f.kind, request), request, response } };
}
