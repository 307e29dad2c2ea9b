/**
 * langchain-vcr's two jest modules in the wrong slot of jest.config: the setup file in `setupFiles`
 * (run before jest's hooks and `expect` exist) or in `reporters` (jest's main process, outside any
 * test file), the reporter in `setupFilesAfterEnv` or `setupFiles`. Each is a config error that says which slot
 * and gives the config, with no stack: jest prints an error's stack, and langchain-vcr's frames
 * would say nothing a user can act on (trial 41).
 */
import { VcrConfigError } from "../errors";

const CONFIG =
  `  Fix it: in jest.config, setupFilesAfterEnv: ["langchain-vcr/jest", …your setup file that calls vcr.install()], ` +
  `and reporters: ["default", "langchain-vcr/jest/reporter"] (docs/runners.md).`;

/** `langchain-vcr/jest` where jest's test framework is not set up yet: `setupFiles`. */
export const SETUP_IN_SETUP_FILES =
  `langchain-vcr/jest ran before jest's test framework was set up: it is in setupFiles, which jest runs before beforeEach, afterEach and expect exist.\n` +
  `  It scopes each test from those hooks, so it belongs in setupFilesAfterEnv.\n` +
  CONFIG;

/** `langchain-vcr/jest` outside any test file: in `reporters`, or globalSetup. */
export const SETUP_OUTSIDE_TEST_FILE =
  `langchain-vcr/jest was loaded outside a jest test file (in reporters, or from globalSetup): it is the setup file every test file runs.\n` +
  `  The reporter is another module, langchain-vcr/jest/reporter.\n` +
  CONFIG;

/** `langchain-vcr/jest/reporter` inside a test file: in `setupFilesAfterEnv` or `setupFiles`. */
export const REPORTER_IN_TEST_FILE =
  `langchain-vcr/jest/reporter was loaded in a jest test file (from setupFilesAfterEnv or setupFiles): it is a reporter, which runs in jest's main process.\n` +
  `  The setup file each test file runs is another module, langchain-vcr/jest.\n` +
  CONFIG;

/**
 * A VcrConfigError with an empty stack: jest then prints its whole message, alone, for a test file
 * (a stack without frames would have its lines after the first printed twice), and `String(error)`,
 * with the prefix jest gives a reporter it could not add, for a reporter.
 */
export function slotError(message: string): VcrConfigError {
  const e = new VcrConfigError(message);
  e.stack = "";
  return e;
}
