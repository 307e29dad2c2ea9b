/** A note joined to an error's message and to the message's copy at the head of its stack. */

/** An error as its runner will print it (mocha's, vitest's, jest's). */
export type PrintedError = { message?: unknown; stack?: unknown; name?: unknown } | null | undefined;

/**
 * Appends a note to an error, where the runner prints it (the live-call note to a failed
 * test's error, the failed-live-miss note to the provider's error): to the
 * message, and to the message's copy at the head of the stack, which is what mocha prints when
 * the stack has frames (its reporters split the stack, not the message). The stack is read
 * first: V8 writes it out on its first read, from the message as it is then. An error whose
 * message cannot be set (a DOMException's), or no error at all, is left alone and the answer is
 * false: the caller puts the note on stderr instead.
 */
export function appendNote(err: PrintedError, note: string): boolean {
  if (!err || typeof err.message !== "string") return false;
  const before = err.message;
  const after = before + "\n" + note;
  try {
    const stack = err.stack;
    err.message = after;
    if (typeof stack !== "string" || before === "") return err.message === after;
    // the head is "<name>: <message>" (the message alone when the name is empty); never a match inside the name
    const head = typeof err.name === "string" && err.name !== "" ? `${err.name}: ${before}` : before;
    if (stack.startsWith(head)) err.stack = head.slice(0, head.length - before.length) + after + stack.slice(head.length);
    return err.message === after;
  } catch {
    return false; // read-only
  }
}
