/**
 * Redactors run once, after the hash is computed and the live call answered, over a copy of
 * the whole fixture; they change only what is written to disk. They may not change the
 * envelope (`hash`, `kind`, `schemaVersion`). A fixture whose content they changed is marked
 * `redacted: true`, so the validator knows its request no longer re-hashes to its name.
 */
import { canonicalJson } from "./canonical/json";
import { VcrRecordError } from "./errors";
import type { Fixture } from "./store/fixture";

export type Redactor = (fixture: Fixture) => Fixture;

export function applyRedactors(fixture: Fixture, redactors: readonly Redactor[]): Fixture {
  if (redactors.length === 0) return fixture;
  const before = canonicalJson([fixture.request, fixture.response]);
  let current: Fixture = structuredClone(fixture);
  redactors.forEach((redact, i) => {
    let out: Fixture;
    try {
      out = redact(structuredClone(current)) ?? current;
    } catch (e) {
      throw new VcrRecordError(
        `langchain-vcr: redactor #${i + 1} (${redact.name || "anonymous"}) threw while preparing ${fixture.kind} fixture ${fixture.hash}: ${(e as Error)?.message ?? e}\n` +
          `  Nothing was written and the call failed. Fix the redactor in options.redactors.`,
        { cause: e },
      );
    }
    for (const k of ["hash", "kind", "schemaVersion"] as const) {
      if (out[k] !== fixture[k]) {
        throw new VcrRecordError(
          `langchain-vcr: redactor #${i + 1} (${redact.name || "anonymous"}) changed "${k}" of fixture ${fixture.hash} ` +
            `(${JSON.stringify(fixture[k])} → ${JSON.stringify(out[k])}).\n` +
            `  A redactor may change only request and response. Nothing was written. Fix the redactor in options.redactors.`,
        );
      }
    }
    current = out;
  });
  const after = canonicalJson([current.request, current.response]);
  return after === before ? fixture : { ...current, redacted: true };
}
