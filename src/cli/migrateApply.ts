/**
 * One step of `langchain-vcr migrate`, done: the upgraded fixture written under its new name
 * (unless a file is already there), then the older file removed. A step that fails stops the
 * run with a message naming the file and what is done (every step before it is already
 * printed); the steps done stay done, and running migrate again finishes the job.
 */
import * as fs from "node:fs";
import { VcrRecordError } from "../errors";
import type { FixtureStore } from "../store/store";
import type { MigrateStep } from "./migratePlan";

export function applyStep(store: FixtureStore, step: MigrateStep, done: number): void {
  if (!fs.existsSync(step.to)) {
    try {
      store.write(step.fixture, false);
    } catch (e) {
      throw stepError(store.dir, `could not write ${step.to}, the upgraded copy of the older fixture ${step.from}`, e, done, `${step.from} is left as it was`);
    }
  }
  try {
    fs.unlinkSync(step.from);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return; // gone already: what removing it was for
    throw stepError(
      store.dir,
      `could not remove the older fixture ${step.from}`,
      e,
      done,
      `its upgraded copy ${step.to} is in place, so both are there now and no answer is lost`,
    );
  }
}

function stepError(dir: string, what: string, e: unknown, done: number, state: string): VcrRecordError {
  const reason = ((e as Error).cause as Error | undefined)?.message ?? (e as Error).message;
  return new VcrRecordError(
    `migrate ${what}: ${reason}.\n` +
      `  ${done} fixture(s) were upgraded before it (listed above); ${state}.\n` +
      `  A file that cannot be removed or written is usually read-only, immutable (chattr +i, chflags uchg) or on a read-only mount, or its directory is not writable.\n` +
      `  Fix that, then run the same command again, which finishes the job: npx langchain-vcr migrate ${JSON.stringify(dir)}`,
    { cause: e },
  );
}
