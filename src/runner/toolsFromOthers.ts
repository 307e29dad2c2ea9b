/**
 * A failed test whose tool calls were answered by fixtures another test of this process (or a
 * hook, outside any test) recorded. A tool fixture is keyed by the tool's name and arguments, not
 * by test, so the first test to make a call records it and every other test gets that result, on
 * the first run too, without the body running: a test that set up its own answer for the call
 * (msw's `server.use`, a mock, a database row) never sees it, and fails with no hint why. Said
 * when such a test fails; a passing test is not told. A fixture recorded by a test of the same
 * title (an earlier attempt, a rerun in watch mode) is that test's own, and not named.
 */
import { PREFIX } from "../errors";
import { processWide } from "../processWide";
import type { Lookup } from "../recorder";
import { currentTest, type Scope } from "../scope";

export interface ToolFromOther {
  /** The tool and its arguments as stored (redacted), as `diff` and `prune` name them. */
  call: string;
  file: string;
  /** The title of the test that recorded it; undefined: a hook, outside any test. */
  by: string | undefined;
}

/** How many calls one note lists before it counts the rest. */
const LISTED = 5;
/** How many recordings `recordedBy` remembers before it starts again. */
const REMEMBERED = 10_000;

/** Tool fixture file → the title of the test of this process that recorded it (undefined: outside any test). */
const recordedBy = processWide("toolsFromOthers.recordedBy.v1", () => new Map<string, string | undefined>());

/** A tool call was recorded into `file` by the running test (`test`), or outside any. */
export function noteToolRecorded(file: string, test: Scope | undefined): void {
  if (recordedBy.size >= REMEMBERED) recordedBy.clear();
  recordedBy.set(file, test?.title);
}

/**
 * A tool call of the running test was answered by `lookup`'s fixture: kept when another test of this
 * process, or a hook, recorded it. `title`: the call as `diff` names it, from the stored request (the
 * caller's: this module is loaded by the runner plugins, which load no LangChain, and the kinds do).
 */
export function noteToolReplayed(lookup: Lookup, title: (fixture: NonNullable<Lookup["fixture"]>) => string): void {
  const test = currentTest();
  if (!test || !recordedBy.has(lookup.file) || test.created.has(lookup.file)) return; // committed before this process, or the test's own
  const by = recordedBy.get(lookup.file);
  if (by !== undefined && by === test.title) return; // an earlier attempt or run of this very test
  const seen = (test.toolsFromOthers ??= []);
  if (seen.some((t) => t.file === lookup.file) || !lookup.fixture) return;
  const call = (lookup.fixture.request as { call?: unknown } | null)?.call;
  seen.push({ call: title(lookup.fixture) + (typeof call === "number" ? ` (call ${call})` : ""), file: lookup.file, by });
}

/** The note for a failed test some of whose tool calls `noteToolReplayed` kept, or undefined. */
export function toolsFromOthersNote(scope: Scope): string | undefined {
  const calls = scope.toolsFromOthers;
  if (!calls?.length) return undefined;
  const lines = [
    `${PREFIX}test "${scope.title ?? "(unknown test)"}" failed, and ${calls.length} of its tool call(s) were answered by fixtures ` +
      `recorded earlier in its test process by other tests, their bodies not run:`,
    ...calls
      .slice(0, LISTED)
      .map((t) => `  - ${t.call}: ${t.file} (recorded ${t.by === undefined ? "outside any test, in a hook" : `by test ${JSON.stringify(t.by)}`})`),
    ...(calls.length > LISTED ? [`  … and ${calls.length - LISTED} more`] : []),
    `  A tool fixture is keyed by the tool's name and arguments, not by test: the first test to make a call records it, and every other test that makes it gets that result, ` +
      `on this first run too. If this test sets up its own answer for such a call (msw's server.use, a mock, a database row), that setup was not used.`,
    `  Fix: give the call distinct arguments in this test, or run its body here with withVcr({ toolMode: "execute" }, …).`,
  ];
  return lines.join("\n");
}
