/**
 * A failed test whose tool calls were answered by fixtures other tests recorded in this test
 * process. A tool fixture is keyed by the tool's name and arguments, not by test, so the first
 * test to make a call records it and every other test gets that result, on the first run too,
 * without the body running: a test that set up its own answer for the call (msw's
 * `server.use`, a mock, a database row) never sees it, and fails with no hint why. Said when such
 * a test fails; a passing test is not told.
 */
import { processStartedAt } from "../clock";
import { PREFIX } from "../errors";
import type { Lookup } from "../recorder";
import { currentTest, type Scope } from "../scope";

export interface ToolFromOther {
  /** The tool and its arguments, as the note shows them. */
  call: string;
  file: string;
  recordedAt: string;
}

/** How many calls one note lists before it counts the rest. */
const LISTED = 5;

/** A tool call of the running test was answered by `lookup`'s fixture: kept when another test of this process recorded it. */
export function noteToolReplayed(name: string, args: unknown, lookup: Lookup): void {
  const test = currentTest();
  const recordedAt = lookup.fixture?.recordedAt;
  if (!test || typeof recordedAt !== "string" || test.created.has(lookup.file)) return;
  if (!(Date.parse(recordedAt) >= processStartedAt())) return; // committed before this process: the same answer every run
  const seen = (test.toolsFromOthers ??= []);
  if (seen.some((t) => t.file === lookup.file)) return;
  seen.push({ call: `${name} ${args === undefined ? "()" : JSON.stringify(args)}`, file: lookup.file, recordedAt });
}

/** The note for a failed test some of whose tool calls `noteToolReplayed` kept, or undefined. */
export function toolsFromOthersNote(scope: Scope): string | undefined {
  const calls = scope.toolsFromOthers;
  if (!calls?.length) return undefined;
  const lines = [
    `${PREFIX}test "${scope.title ?? "(unknown test)"}" failed, and ${calls.length} of its tool call(s) were answered by fixtures ` +
      `other tests recorded since its test process started, their bodies not run:`,
    ...calls.slice(0, LISTED).map((t) => `  - ${t.call.length > 200 ? t.call.slice(0, 200) + "…" : t.call}: ${t.file} (recorded ${t.recordedAt})`),
    ...(calls.length > LISTED ? [`  … and ${calls.length - LISTED} more`] : []),
    `  A tool fixture is keyed by the tool's name and arguments, not by test: the first test to make a call records it, and every other test that makes it gets that result, ` +
      `on this first run too. If this test sets up its own answer for such a call (msw's server.use, a mock, a database row), that setup was not used.`,
    `  Fix: give the call distinct arguments in this test, or run its body here with withVcr({ toolMode: "execute" }, …).`,
  ];
  return lines.join("\n");
}
