/**
 * The wall clock as the machine keeps it, whatever a test's fake timers say: `vi.useFakeTimers()`,
 * jest's and sinon's replace `globalThis.Date` while a test runs. A fixture's `recordedAt` (which
 * `diff` compares to tell a re-recording from a hand edit) and the parsed-fixture cache's check for a
 * file written within the last second read this clock. The first copy of langchain-vcr loaded in
 * the process keeps the `Date` it found then (under a fake one already installed, the one it replaced).
 */
import { processWide } from "./processWide";

const clock = processWide("clock.v1", () => ({ Date: unfaked(globalThis.Date) }));

/** The machine's Date under a fake one already installed: @sinonjs/fake-timers (vitest's, jest's) marks its Date `isFake` and derives it from the one it replaced. */
function unfaked(D: DateConstructor): DateConstructor {
  let d = D as DateConstructor & { isFake?: boolean };
  while (d.isFake === true && typeof Object.getPrototypeOf(d) === "function") d = Object.getPrototypeOf(d) as DateConstructor & { isFake?: boolean };
  return d;
}

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
