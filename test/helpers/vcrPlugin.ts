// The project's own suite runs under its own mocha plugin, as users' suites do.
// Near-miss notes ("recorded a new fixture; the nearest differs at ...") are tested on their
// own (test/integration/near-miss.test.ts); the hundreds of deliberate near misses in this suite would only bury the output.
import { CONTEXT_ENV } from "../../src/mocha/contextEnv";
process.env.LANGCHAIN_VCR_QUIET ??= "1";
export { mochaHooks, mochaGlobalSetup, mochaGlobalTeardown } from "../../src/mocha/index";

// A miss's command to record a test again carries the main mocha process's own arguments
// (contextEnv.ts). Ours differ between `npm run test:suite` and one file run by hand, and the
// suite's tests assert the plain command, so this suite's run drops them (its workers inherit
// the variable as changed here). test/runners/mocha.test.ts tests them in a user's project.
const context = process.env[CONTEXT_ENV];
if (context) process.env[CONTEXT_ENV] = JSON.stringify({ ...JSON.parse(context), command: undefined });
