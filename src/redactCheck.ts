/**
 * What one redactor returned, checked as replay will read it: formatted as the store writes
 * it, parsed back through the envelope check every read applies, its response judged by its
 * kind's rule. Anything that fails is a `VcrRecordError` before anything is written, so a
 * redactor can never put a file on disk that replay refuses — nor, under `record_always`,
 * replace a good one with it. The result is the fixture as replay would read it (plain JSON):
 * what the next redactor and the secret scan see is what is written.
 */
import { VcrRecordError } from "./errors";
import { kindSpec } from "./kinds";
import { readFixtureText, type Fixture } from "./store/fixture";
import { formatFixture } from "./store/format";
import { onDiskForm } from "./store/store";

export function checkedRedaction(out: unknown, fixture: Fixture, name: string): Fixture {
  const preparing = `while preparing ${fixture.kind} fixture ${fixture.hash}`;
  const refuse = (what: string, cause?: unknown) =>
    new VcrRecordError(
      `${name} returned ${what}, ${preparing}${what.startsWith("a fixture that") ? ": replay would refuse it" : ""}.\n` +
        `  A redactor takes the fixture and returns it (or a changed copy, or nothing to keep it as is), synchronously, ` +
        `as JSON: its "request" an object, its "response" ${kindSpec(fixture.kind)?.shape ?? "an object"}.\n` +
        `  Nothing was written (a fixture already on disk is left as it was) and the call failed. Fix the redactor in options.redactors.`,
      cause === undefined ? undefined : { cause },
    );
  if (isThenable(out)) throw refuse("a Promise, not a fixture object: redactors run synchronously");
  if (typeof out !== "object" || out === null || Array.isArray(out))
    throw refuse(`${Array.isArray(out) ? "an array" : `a ${typeof out}`}, not a fixture object`);
  let candidate: Fixture;
  let problem: string | undefined;
  try {
    candidate = { ...(out as Fixture), hash: fixture.hash, kind: fixture.kind, schemaVersion: fixture.schemaVersion, redacted: undefined };
    problem =
      memberProblem(candidate, "request") ??
      memberProblem(candidate, "response") ??
      kindSpec(fixture.kind)?.responseProblem(candidate.response, candidate.request);
  } catch (e) {
    throw refuse(`a fixture whose members throw when read (${(e as Error)?.message ?? e})`, e);
  }
  if (problem) throw refuse(`a fixture that ${problem}`);
  let text: string;
  try {
    text = formatFixture(onDiskForm(candidate));
  } catch (e) {
    throw refuse(`a fixture JSON cannot hold (${(e as Error)?.message ?? e})`, e);
  }
  const read = readFixtureText(text, fixture.hash);
  if ("problem" in read) throw refuse(`a fixture that ${read.problem}`);
  const written = kindSpec(fixture.kind)?.responseProblem(read.fixture.response, read.fixture.request);
  if (written) throw refuse(`a fixture that, once written as JSON, ${written}`);
  return read.fixture;
}

function memberProblem(f: Fixture, member: "request" | "response"): string | undefined {
  const v = f[member];
  if (v === undefined) return `has no "${member}"`;
  if (typeof v !== "object" || v === null || Array.isArray(v)) return `has a "${member}" that is not an object`;
  return undefined;
}

function isThenable(v: unknown): boolean {
  return (typeof v === "object" || typeof v === "function") && v !== null && typeof (v as { then?: unknown }).then === "function";
}
