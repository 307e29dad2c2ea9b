/**
 * jest takes its reporter from the root config and setup files from each project's, so a run can
 * have langchain-vcr's reporter and a test file that uses langchain-vcr (a setup file of the
 * user's calls `vcr.install()`) without `langchain-vcr/jest` in that file: its fixtures replay,
 * but nothing counts them, no test is scoped, and the run's ledger does not know them (a user
 * trial: the summary said "0 replayed", and `prune` put the suite's own fixtures down to
 * "another suite").
 *
 * So in a jest test process of a run the reporter started, the first fixture event of a test
 * file that has not loaded `langchain-vcr/jest` (the plugin sets the runner first) leaves a note
 * in the run's directory, as the plugin's report would. The reporter warns, naming the files,
 * in any run (a run of named files too), and the run's ledger is partial, so `prune` refuses
 * it. Without the reporter either, the first such event of the run warns (once per run). The
 * listener goes with the first event: nothing is added to a replay after it.
 */
import { randomBytes } from "node:crypto";
import * as path from "node:path";
import { currentRunner, onScopeEvent } from "../scope";
import { processWide } from "../processWide";
import { parseEnvJson } from "../runner/runIds";
import { SHARE_ENV } from "../runner/shareEnv";
import { underJest } from "./jestWhen";
import { log } from "../log";
import { replaceFile } from "../replaceFile";
import { firstWarningOfRun } from "../runner/oncePerRun";

/** The note's fields: a unit report (`runner/share.ts`) that counts nothing and says why. */
export interface UnpluggedNote {
  unit: string;
  pid: number;
  done: true;
  unplugged: true;
}

/** Once per test file: jest gives each its own `globalThis`, where `processWide` keeps state. */
const watched = processWide("jest.unplugged.v1", () => ({ on: false }));

export function watchUseWithoutJestPlugin(env: NodeJS.ProcessEnv = process.env): void {
  if (watched.on || !underJest(env)) return;
  const share = parseEnvJson<{ runner: string; dir: string; tmpProblem?: string }>(env[SHARE_ENV], (s) => s.runner === "jest" && typeof s.dir === "string");
  watched.on = true;
  const off = onScopeEvent(() => {
    off();
    if (currentRunner() !== undefined) return; // the plugin is loaded (without the reporter, it warns of that itself)
    if (share) leaveNote(share.dir, share.tmpProblem);
    else if (firstWarningOfRun("jest-bare")) log.warn(BARE);
  });
}

/** Neither jest module in the run: nothing else would say so (trial 41). */
const BARE =
  `this jest run loads neither langchain-vcr/jest nor its reporter: fixtures record and replay, but no test is scoped (a miss does not name its test, and a failed test's recordings stay, to replay next time),\n` +
  `  and the run prints no langchain-vcr summary and writes no usage ledger (langchain-vcr prune refuses after it).\n` +
  `  Fix it: in jest.config, setupFilesAfterEnv: ["langchain-vcr/jest", …your setup file, if any], and reporters: ["default", "langchain-vcr/jest/reporter"] (docs/runners.md).\n`;

/** Written as the plugin's reports are (`replaceFile`: the reporter never reads half a note). */
function leaveNote(dir: string, tmpProblem: string | undefined): void {
  const state = (globalThis as { expect?: { getState?(): { testPath?: string } } }).expect?.getState?.();
  const note: UnpluggedNote = { unit: state?.testPath ?? "(unknown test file)", pid: process.pid, done: true, unplugged: true };
  const file = path.join(dir, `${process.pid}-unplugged-${randomBytes(3).toString("hex")}.json`);
  try {
    replaceFile(file, JSON.stringify(note));
  } catch (e) {
    // the temp directory cannot be written: the reporter says so for the run (share.tmpProblem); anything else, here
    if (!tmpProblem)
      log.warn(
        `could not leave the note that ${note.unit} used langchain-vcr without langchain-vcr/jest in ${dir}: ${(e as Error).message}; its fixture use is not counted\n`,
      );
  }
}
