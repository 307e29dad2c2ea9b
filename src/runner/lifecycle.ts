/**
 * The end of one test, the same in every runner: a failed test's recordings are undone, and a
 * test that ended while a live recording call was still in flight (a timeout, usually) is told
 * which call that was.
 */
import { emit, type Scope } from "../scope";
import { PREFIX } from "../errors";
import { restoreFailedTest } from "./cleanup";
import { log } from "../log";

/** A failed test's error as its runner will print it (mocha's, vitest's): the live-call note joins it there. */
export type PrintedError = { message?: unknown; stack?: unknown; name?: unknown } | null | undefined;

/** `error`: the test's error, where the runner hands it over (a note naming a live call in flight is appended). */
export function endTest(scope: Scope | undefined, failed: boolean, error?: PrintedError): void {
  if (!scope) return;
  scope.ended = true;
  // prefixed here: the note is also appended to the test's error, where nothing adds it
  const liveNote = liveCallNote(scope);
  if (liveNote) {
    log.warn(liveNote + "\n");
    appendNote(error, liveNote);
  }
  if (failed) emitUndone(restoreFailedTest(scope));
}

/** Takes a failed test's recordings out of the run's "recorded" count (each file created or overwritten is one). */
export function emitUndone(r: { removed: string[]; restored: string[] }): void {
  const count = r.removed.length + r.restored.length;
  if (count > 0) emit({ type: "undone", count });
}

/** What a test left in flight: model, hash, expected file, and what to do about a provider that does not answer. */
export function liveCallNote(scope: Scope): string | undefined {
  if (scope.live.size === 0) return undefined;
  const lines = [`${PREFIX}test "${scope.title ?? "(unknown test)"}" ended while ${scope.live.size} live recording call(s) had not answered:`];
  for (const c of scope.live.values()) {
    lines.push(`  - ${c.kind} request from ${c.describe}`, `    hash:     ${c.hash}`, `    expected: ${c.file}`);
  }
  lines.push(
    `  Nothing was recorded for it. The provider did not answer within the test's timeout: check its URL and key,` +
      ` and construct the model with maxRetries: 0 while recording (the client otherwise retries for minutes), or raise the test timeout.`,
  );
  scope.live.clear();
  return lines.join("\n");
}

/**
 * Appends the live-call note to a failed test's error, where the runner prints it: to the
 * message, and to the message's copy at the head of the stack, which is what mocha prints when
 * the stack has frames (its reporters split the stack, not the message). The stack is read
 * first: V8 writes it out on its first read, from the message as it is then. An error whose
 * message cannot be set (a DOMException's) is left alone: the note is on stderr already.
 */
export function appendNote(err: PrintedError, note: string): void {
  if (!err || typeof err.message !== "string") return;
  const before = err.message;
  const after = before + "\n" + note;
  try {
    const stack = err.stack;
    err.message = after;
    if (typeof stack !== "string" || before === "") return;
    // the head is "<name>: <message>" (the message alone when the name is empty); never a match inside the name
    const head = typeof err.name === "string" && err.name !== "" ? `${err.name}: ${before}` : before;
    if (stack.startsWith(head)) err.stack = head.slice(0, head.length - before.length) + after + stack.slice(head.length);
  } catch {
    // read-only
  }
}
