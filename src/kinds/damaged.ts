/**
 * The one builder of damaged-fixture messages: a fixture that parses, but whose `response` its
 * kind's `responseProblem` refuses. Replay (a `VcrFixtureError`) and `validate` (one problem
 * line) say the same thing from the same parts: what happened, the facts (file, hash, test),
 * what a well-formed response of that kind holds (its registry entry's `shape`), and the fix.
 */
import { currentTestCommand, rerecordCommand } from "../diagnose/rerecordCommand";
import { VcrFixtureError } from "../errors";
import { currentTest, emit } from "../scope";
import { kindSpec } from "./index";
import { isKept } from "../store/parsedCache";
import { pathFrom } from "../pathFrom";

/** The parts both wordings share. `problem` is a predicate of the file ("has no ..."). */
export function damagedParts(kind: string, file: string, problem: string, recordCommand: string): { what: string; shape: string; fix: string } {
  const q = JSON.stringify(pathFrom(process.cwd(), file)); // from the working directory: CI's absolute paths are no one else's
  return {
    what: `${problem}, so replay refuses it`,
    shape: `${/^(?:[aeiou]|llm)/.test(kind) ? "an" : "a"} ${kind} fixture's response is ${kindSpec(kind)?.shape ?? "unknown"}`, // "an llm"
    fix: `restore it from git (git checkout -- ${q}), or delete it and re-record it: rm ${q} && ${recordCommand}`,
  };
}

/** `validate`'s line for a damaged fixture (no test is running: the suite's own command). */
export function damagedProblem(kind: string, file: string, problem: string): string {
  const p = damagedParts(kind, file, problem, rerecordCommand(undefined, undefined));
  return `${p.what} (${p.shape}). Fix it: ${p.fix}`;
}

/** A hit about to be replayed: a recorder `Lookup` with its fixture. */
export interface DamagedAt {
  readonly kind: string;
  readonly file: string;
  readonly hash: string;
  readonly fixture?: { readonly request: unknown; readonly response: unknown };
}

/**
 * Requests of kept fixtures whose response passed its kind's rule. A fixture the store keeps
 * hands every replay the same frozen request object (marked by `markKept`) with the same
 * response (shared, or a copy of it), so one check answers for all of them; any other read has
 * a request object of its own and is checked every time. Module state on purpose: a weak set,
 * holding nothing alive.
 */
const REPLAYABLE = new WeakSet<object>();

/** What is wrong with a hit's response by its kind's rule, or undefined. */
export function damage(at: DamagedAt): string | undefined {
  const request = at.fixture?.request;
  const kept = isKept(request);
  if (kept && REPLAYABLE.has(request as object)) return undefined;
  const problem = kindSpec(at.kind)?.responseProblem(at.fixture?.response, request);
  if (kept && problem === undefined) REPLAYABLE.add(request as object);
  return problem;
}

/** The replay-time error for a damaged fixture; `facts` are extra lines such as the tool's name. */
export function damagedFixtureError(at: DamagedAt, problem: string, facts: Record<string, string> = {}, cause?: unknown): VcrFixtureError {
  emit({ type: "damaged", file: at.file, replayed: true }); // the lookup found it, and counted it replayed: the summary takes that back
  const scope = currentTest();
  const p = damagedParts(at.kind, at.file, problem, currentTestCommand());
  const lines = [`the ${at.kind} fixture ${at.file} ${p.what}.`, `  hash:     ${at.hash}`];
  if (scope?.title) lines.push(`  test:     ${scope.title}`);
  for (const [k, v] of Object.entries(facts)) lines.push(`  ${(k + ":").padEnd(9)} ${v}`);
  lines.push(
    `  ${p.shape[0].toUpperCase()}${p.shape.slice(1)}; this one was edited by hand, merged badly, written by something else, or recorded by an earlier langchain-vcr from a provider answer replay cannot use (an error body sent with status 200). ` +
      `It was not treated as a miss and was not overwritten (npx langchain-vcr validate lists every such fixture).`,
    `  Fix it: ${p.fix}`,
  );
  return new VcrFixtureError(lines.join("\n"), at.file, cause === undefined ? undefined : { cause });
}

/** Throws the damaged-fixture error when the fixture's response fails its kind's rule. */
export function assertReplayable(at: DamagedAt, facts?: Record<string, string>): void {
  const problem = damage(at);
  if (problem !== undefined) throw damagedFixtureError(at, problem, facts);
}
