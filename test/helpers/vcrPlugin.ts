// The project's own suite runs under its own mocha plugin, as users' suites do.
// Near-miss notes ("recorded a new fixture; the nearest differs at ...") are tested on their
// own (test/integration/near-miss.test.ts); the hundreds of deliberate near misses in this suite would only bury the output.
process.env.LANGCHAIN_VCR_QUIET ??= "1";
export { mochaHooks, mochaGlobalSetup, mochaGlobalTeardown } from "../../src/mocha/index";
