/**
 * langchain-vcr's near-miss notes ("langchain-vcr: recorded a new ... fixture; the nearest
 * recorded one differs at: ..."), taken off stderr: each goes to `onNote` instead; anything
 * else is written as usual. Returns the function that puts stderr back.
 */
export const NOTE_PREFIX = "langchain-vcr: recorded a new";

export function interceptNotes(onNote: (text: string) => void): () => void {
  const original = process.stderr.write;
  process.stderr.write = ((chunk: unknown, ...rest: unknown[]) => {
    if (typeof chunk === "string" && chunk.startsWith(NOTE_PREFIX)) {
      onNote(chunk);
      return true;
    }
    return (original as (...a: unknown[]) => boolean).call(process.stderr, chunk, ...rest);
  }) as typeof process.stderr.write;
  return () => {
    process.stderr.write = original;
  };
}

/** Runs `fn`, returning everything written to stderr meanwhile (swallowed from the test output). */
export async function stderrOf(fn: () => Promise<unknown>): Promise<string> {
  const original = process.stderr.write;
  let text = "";
  process.stderr.write = ((chunk: string | Uint8Array) => {
    text += typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    return true;
  }) as typeof process.stderr.write;
  try {
    await fn();
  } finally {
    process.stderr.write = original;
  }
  return text;
}
