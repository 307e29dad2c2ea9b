/**
 * The summary's note for a run in which no test process built a Vcr: langchain-vcr then
 * recorded and replayed nothing, and every model call went to its provider, whatever the mode
 * says. The likeliest cause is a command without the setup file that calls `vcr.install()`
 * (trial 42: `node --require langchain-vcr/node-test --test`, without `--import ./vcr-setup.mjs`,
 * made 13 live calls under CI), so the note names the runner's way to load one.
 */
const SETUP_FILE: Readonly<Record<string, string>> = {
  mocha: `.mocharc.json: "require": ["langchain-vcr/mocha", "./vcr-setup.ts"]`,
  vitest: `vitest.config.mts: test: { setupFiles: ["./vcr-setup.ts"] }`,
  jest: `jest.config.js: setupFilesAfterEnv: ["langchain-vcr/jest", "<rootDir>/vcr-setup.ts"]`,
  "node --test": `node --require langchain-vcr/node-test --import ./vcr-setup.mjs --test`,
};

/** `runner`: the run's (`RunShare.runner`, or "mocha"). */
export function noVcrNote(runner: string): string {
  const how = SETUP_FILE[runner];
  return (
    `  No test process built a Vcr, so langchain-vcr recorded and replayed nothing: any model call in this run went to its provider. ` +
    `If your code's models are to replay, load the setup file that calls vcr.install()${how ? ` (${how})` : ""}, or build a Vcr in the tests ` +
    `(README: "vcr.install() or explicit adapters").`
  );
}
