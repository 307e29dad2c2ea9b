/**
 * The part of `langchain-vcr/jest` that loads LangChain: jest's ES-module copies, reached for a
 * test file that may load ES modules (`install/jestEsm.ts`). A bundle of its own, required only
 * then, so the setup file itself loads no @langchain package.
 */
export { reachJestEsm } from "../install/jestEsm";
