/**
 * Waiting that a caller's `AbortSignal` ends. A call that waits on the same request another
 * call is recording (`Recorder.missed`) fails on its own abort as its live call would have,
 * instead of answering when the other call does.
 */

/** `promise`'s value, or the signal's reason once it aborts (as `signal.throwIfAborted()` throws it). */
export function unlessAborted<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  signal.throwIfAborted();
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}
