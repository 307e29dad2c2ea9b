// Type-checked by test/integration/package.test.ts as a CommonJS TypeScript user whose tsconfig says
// "module": "commonjs" (moduleResolution node10, which reads no "exports"): every entry's types,
// found through package.json's "typesVersions".
import { Vcr, type VcrOptions } from "langchain-vcr";
import { mochaHooks } from "langchain-vcr/mocha";
import langchainVcr from "langchain-vcr/vitest";
import * as jestSetup from "langchain-vcr/jest";
import LangchainVcrJestReporter = require("langchain-vcr/jest/reporter");
import * as nodeTest from "langchain-vcr/node-test";

const options: VcrOptions = { dir: "cassettes" };
export const used = [new Vcr(options), mochaHooks.beforeEach, langchainVcr, jestSetup, LangchainVcrJestReporter, nodeTest];
