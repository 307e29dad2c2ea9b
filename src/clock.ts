/**
 * The wall clock as the machine keeps it, whatever a test's fake timers say: `vi.useFakeTimers()`,
 * jest's and sinon's replace `globalThis.Date` while a test runs. A fixture's `recordedAt` (which
 * `diff` compares to tell a re-recording from a hand edit) and the parsed-fixture cache's check for a
 * file written within the last second read this clock. The first copy of langchain-vcr loaded in
 * the process keeps the `Date` it found then; one loaded while fake timers were on takes theirs.
 */
import { processWide } from "./processWide";

const clock = processWide("clock.v1", () => ({ Date: globalThis.Date }));

/** Milliseconds since the epoch, by the real clock. */
export function realNow(): number {
  return clock.Date.now();
}

/** The real time now, as an ISO 8601 string. */
export function realNowIso(): string {
  return new clock.Date().toISOString();
}

/** When this process started, by the real clock (milliseconds since the epoch). */
export function processStartedAt(): number {
  return realNow() - process.uptime() * 1000;
}
